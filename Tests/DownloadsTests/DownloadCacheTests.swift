// DownloadsTests — the download cache's bound: least recently used entries go when a download
// would pass it (last use recorded on every fetch, a hit included), an entry whose lock a fetch
// holds never goes, a single download over the bound stays with a one-line note, and the cache
// is listed and cleared. Last use is set explicitly where order matters (file times are coarse).
import Foundation
import Testing
@testable import Downloads
import TestSupport

@Suite struct DownloadCacheTests {
    static let payload: [UInt8] = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) }

    func options(_ cache: String, limit: Int64) -> DownloadOptions {
        var o = DownloadOptions(cacheFolder: cache)
        o.allowHTTP = true
        o.stallTimeout = 2
        o.connectTimeout = 5
        o.cacheLimitBytes = limit
        return o
    }

    /// Sets an entry folder's last use to `seconds` since 1970.
    func setLastUse(_ dir: String, _ seconds: Int) {
        var times = [timeval(tv_sec: seconds, tv_usec: 0), timeval(tv_sec: seconds, tv_usec: 0)]
        _ = utimes(dir, &times)
    }

    func folder(of result: DownloadResult) -> String { (result.path as NSString).deletingLastPathComponent }

    func server() throws -> LoopbackHTTPServer {
        let s = try LoopbackHTTPServer()
        for name in ["a", "b", "c"] { s.route("/\(name).ply", .file(Self.payload, etag: "\"\(name)\"", lastModified: nil)) }
        return s
    }

    @Test func theLeastRecentlyUsedGoFirstAndAHitCountsAsAUse() throws {
        let server = try server()
        defer { server.stop() }
        let cache = TestData.temporaryDirectory("download-lru").path
        let o = options(cache, limit: Int64(Self.payload.count) * 5 / 2)   // room for two
        let a = try Downloader.fetch(server.url("/a.ply"), options: o)
        let b = try Downloader.fetch(server.url("/b.ply"), options: o)
        #expect(a.note == nil && b.note == nil)
        setLastUse(folder(of: a), 1_000)
        setLastUse(folder(of: b), 2_000)
        // Fetching a again (revalidated, a hit) makes it the most recently used.
        let again = try Downloader.fetch(server.url("/a.ply"), options: o)
        #expect(again.fromCache)
        let used = DownloadCache(folder: cache).list()
        #expect(used.map(\.source) == [server.url("/b.ply"), server.url("/a.ply")] && used.allSatisfy(\.complete))
        #expect(used[1].lastUse > 2_000)
        // A third download passes the bound: b, least recently used, goes.
        let c = try Downloader.fetch(server.url("/c.ply"), options: o)
        #expect(!FileManager.default.fileExists(atPath: b.path))
        #expect(FileManager.default.fileExists(atPath: a.path) && FileManager.default.fileExists(atPath: c.path))
        let bound = DownloadCache(folder: cache, limitBytes: o.cacheLimitBytes)
        #expect(bound.usedBytes <= Int(bound.limitBytes) && bound.list().count == 2)
    }

    @Test func anEntryAFetchHoldsIsNeverEvicted() throws {
        let server = try server()
        defer { server.stop() }
        let cache = TestData.temporaryDirectory("download-lock").path
        let o = options(cache, limit: Int64(Self.payload.count) * 3 / 2)   // room for one
        let a = try Downloader.fetch(server.url("/a.ply"), options: o)
        setLastUse(folder(of: a), 1_000)
        // Another fetch of a holds its lock (as a transfer in progress would).
        let lock = open(folder(of: a) + "/.lock", O_RDWR)
        try #require(lock >= 0 && flock(lock, LOCK_EX) == 0)
        _ = try Downloader.fetch(server.url("/b.ply"), options: o)
        #expect(FileManager.default.fileExists(atPath: a.path), "an entry in use was evicted")
        let cleared = DownloadCache(folder: cache).clear()
        #expect(cleared.removed.count == 1 && cleared.inUse.map(\.source) == [server.url("/a.ply")])
        close(lock)
        // Released, it goes at the next clear.
        #expect(DownloadCache(folder: cache).clear().removed.map(\.source) == [server.url("/a.ply")])
        #expect(DownloadCache(folder: cache).list().isEmpty)
    }

    @Test func aDownloadLargerThanTheBoundStaysWithANote() throws {
        let server = try server()
        defer { server.stop() }
        let cache = TestData.temporaryDirectory("download-big").path
        let roomy = try Downloader.fetch(server.url("/a.ply"), options: options(cache, limit: 1 << 30))
        let tight = options(cache, limit: 100_000)
        let big = try Downloader.fetch(server.url("/b.ply"), options: tight)
        let note = try #require(big.note)
        #expect(note.hasPrefix(server.url("/b.ply")) && note.contains("larger than the download cache's bound") && !note.contains("\n"), "\(note)")
        #expect(FileManager.default.fileExists(atPath: big.path) && !FileManager.default.fileExists(atPath: roomy.path))
    }

    @Test func onlyEntryNamesAreTouched() throws {
        let cache = TestData.temporaryDirectory("download-names").path
        try FileManager.default.createDirectory(atPath: cache + "/keep-me", withIntermediateDirectories: true)
        try Data(repeating: 1, count: 1000).write(to: URL(fileURLWithPath: cache + "/keep-me/x"))
        #expect(DownloadCache(folder: cache).list().isEmpty)
        #expect(DownloadCache(folder: cache, limitBytes: 0).clear().removed.isEmpty)
        #expect(FileManager.default.fileExists(atPath: cache + "/keep-me/x"))
    }
}
