// RenderCoreTests — LRUFolder, the bound both disk caches share: entries listed least recently
// used first (by their folders' set modification times), evicted oldest first until the extra
// bytes fit, never one kept or one the remover declines, never a name that is not an entry.
import Foundation
import RenderCore
import Testing

struct LRUFolderTests {
    /// A folder with entries `e1` (100 bytes, used at 1000 s), `e2` (200, 2000), `e3` (300, 3000)
    /// and a file that is no entry.
    func folder() throws -> LRUFolder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lru-\(UUID().uuidString)").path
        for (i, bytes) in [(1, 100), (2, 200), (3, 300)] {
            let dir = path + "/e\(i)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try Data(count: bytes).write(to: URL(fileURLWithPath: dir + "/data"))
            var times = [timeval(tv_sec: i * 1000, tv_usec: 0), timeval(tv_sec: i * 1000, tv_usec: 0)]
            _ = utimes(dir, &times)
        }
        try Data(count: 5000).write(to: URL(fileURLWithPath: path + "/other"))
        return LRUFolder(path: path, isEntry: { $0.hasPrefix("e") }, bytes: { dir in
            ((try? FileManager.default.attributesOfItem(atPath: dir + "/data"))?[.size] as? Int) ?? 0
        })
    }

    @Test func oldestGoFirstUntilTheExtraFits() throws {
        let lru = try folder()
        defer { try? FileManager.default.removeItem(atPath: lru.path) }
        #expect(lru.entries().map(\.name) == ["e1", "e2", "e3"] && lru.usedBytes == 600)
        #expect(lru.entries().map(\.lastUse) == [1000, 2000, 3000])
        #expect(lru.evict(limit: 1000, toFit: 100).isEmpty)
        #expect(lru.evict(limit: 450, toFit: 100).map(\.name) == ["e1", "e2"])
        #expect(lru.entries().map(\.name) == ["e3"] && FileManager.default.fileExists(atPath: lru.path + "/other"))
    }

    @Test func keptAndDeclinedEntriesStayAndTouchMakesAnEntryNewest() throws {
        let lru = try folder()
        defer { try? FileManager.default.removeItem(atPath: lru.path) }
        LRUFolder.touch(lru.path + "/e1")
        #expect(lru.entries().map(\.name) == ["e2", "e3", "e1"])
        let removed = lru.evict(limit: 0, keeping: ["e3"], remove: { dir in
            dir.hasSuffix("/e2") ? false : LRUFolder.removeFolder(dir)
        })
        #expect(removed.map(\.name) == ["e1"] && lru.entries().map(\.name) == ["e2", "e3"])
    }
}
