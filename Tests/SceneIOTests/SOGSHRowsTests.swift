// SceneIOTests — splatframe's SH rows (`SOGWriter.Options.shRows`, the level-of-detail cache's
// chunks): the same floats as the palette form with one entry per splat (what the cache wrote
// before), through the whole-file reader and the bounded stream alike, and bad rows refused with
// one line naming the file.
import Foundation
import Testing
import RenderCore
@testable import SceneIO
import TestSupport

struct SOGSHRowsTests {
    /// `cloud` written as a SOG folder (`rows`: SH rows; else a palette of one entry per splat);
    /// the folder's path.
    static func write(_ cloud: SplatCloud, rows: Bool) throws -> String {
        var o = SOGWriter.Options()
        if rows { o.shRows = true } else { o.shPaletteSize = cloud.count }
        let dir = TestData.temporaryDirectory(rows ? "sh-rows" : "sh-palette")
        try SOGWriter.writeFiles(try SOGWriter.encode(cloud, options: o), into: dir.path)
        return dir.path
    }

    @Test("rows decode to the very floats of a palette with one entry per splat", arguments: [1, 2, 3])
    func rowsMatchThePalette(degree: Int) throws {
        let c = syntheticCloud(count: 1500, degree: degree, seed: UInt64(90 + degree))
        let rows = try Self.write(c, rows: true), palette = try Self.write(c, rows: false)
        let files = try FileManager.default.contentsOfDirectory(atPath: rows)
        #expect(files.contains("shN_rows.zst") && !files.contains("shN_centroids.webp") && !files.contains("shN_labels.webp"))
        let a = try #require(splats(try SceneFile.load(path: rows)))
        let b = try #require(splats(try SceneFile.load(path: palette)))
        #expect(a.shDegree == degree && b.shDegree == degree)
        #expect(a.shRest == b.shRest)
        #expect(a.positions == b.positions && a.dc == b.dc && a.opacities == b.opacities)
        // The SH is not trivially zero: the test would pass for a reader that dropped it.
        #expect(a.shRest.contains { $0 != 0 })
    }

    @Test("the bounded stream reads rows as the whole-file reader does")
    func streamReadsRows() throws {
        let c = syntheticCloud(count: 2100, degree: 3, seed: 5)
        let path = try Self.write(c, rows: true)
        let whole = try #require(splats(try SceneFile.load(path: path)))
        let stream = try #require(try SOGSplatStream.open(path))
        #expect(stream.shDegree == 3)
        var read = SplatCloud(shDegree: 3)
        while let block = try stream.next(maxSplats: 500) { read.append(contentsOf: block, range: 0..<block.count) }
        #expect(read.count == whole.count)
        #expect(read.shRest == whole.shRest)
        #expect(read.positions == whole.positions)
    }

    @Test("bad rows are refused with one line naming the file")
    func badRowsRefused() throws {
        let c = syntheticCloud(count: 300, degree: 2, seed: 11)
        func folder(_ edit: (String) throws -> Void) throws -> String {
            let path = try Self.write(c, rows: true)
            try edit(path)
            return path
        }
        func meta(_ path: String, _ from: String, _ to: String) throws {
            let m = (path as NSString).appendingPathComponent("meta.json")
            let text = try String(contentsOfFile: m, encoding: .utf8)
            #expect(text.contains(from))
            try text.replacingOccurrences(of: from, with: to).write(toFile: m, atomically: true, encoding: .utf8)
        }
        let rowsName = "shN_rows.zst"
        // An encoding no reader knows.
        let unknown = try folder { try meta($0, "\"rows-zstd\"", "\"rows-lz4\"") }
        error({ try SceneFile.load(path: unknown) }, file: unknown, contains: ["encoding", "rows-zstd"])
        // Rows cut short: not a whole zstd frame.
        let cut = try folder {
            let f = ($0 as NSString).appendingPathComponent(rowsName)
            let d = try Data(contentsOf: URL(fileURLWithPath: f))
            try d.prefix(d.count / 2).write(to: URL(fileURLWithPath: f))
        }
        error({ try SceneFile.load(path: cut) }, file: cut, contains: [rowsName, "zstd"])
        // A frame holding the rows of fewer splats than the count says.
        let short = try folder {
            let f = ($0 as NSString).appendingPathComponent(rowsName)
            try Data(try Compress.zstd([UInt8](repeating: 7, count: 299 * 24), file: f)).write(to: URL(fileURLWithPath: f))
        }
        error({ try SceneFile.load(path: short) }, file: short, contains: [rowsName, "\(300 * 24) bytes"])
        // Missing rows.
        let missing = try folder { try FileManager.default.removeItem(atPath: ($0 as NSString).appendingPathComponent(rowsName)) }
        error({ try SceneFile.load(path: missing) }, file: missing, contains: [rowsName])
        // A count whose rows the limits cannot hold is refused before anything is allocated.
        let encoded = try SOGWriter.encode(c, options: { var o = SOGWriter.Options(); o.shRows = true; return o }())
        let members = Dictionary(uniqueKeysWithValues: encoded.files.map { ($0.name, Data($0.bytes)) })
        error({ try SOGSHRows.read(rowsName, from: MemoryContainer(file: "big", members: members), count: 1 << 26, bands: 2,
                                   limits: SOGReader.Limits()) },
              file: "big", contains: [rowsName, "at most"])
    }
}

/// A SOG container whose members live in memory.
private struct MemoryContainer: SOGContainer {
    let file: String
    let members: [String: Data]
    func read(_ name: String, cap: Int) throws -> Data {
        guard let d = members[name] else { throw SceneIOError.badEntry(file: file, entry: name, expected: "a member", found: "no such member") }
        return d
    }
}
