// SceneIOTests — streamed SOG (lod-meta.json): the playbot's tree, info, the finest level as one
// cloud, missing chunks and out-of-range ranges (reported, not fatal), hostile lod-meta.json.
import Foundation
import Testing
import RenderCore
@testable import SceneIO
import TestSupport

/// A copy of the playbot's streamed SOG in a temporary folder (so chunks can be deleted or edited).
func copyPlaybot(_ name: String = "lod") throws -> URL {
    let dir = TestData.temporaryDirectory(name)
    let src = URL(fileURLWithPath: TestData.path("splats/sog/playbot-lod"))
    for item in try FileManager.default.contentsOfDirectory(atPath: src.path) {
        try FileManager.default.copyItem(at: src.appendingPathComponent(item), to: dir.appendingPathComponent(item))
    }
    // The shared copy is read-only; make ours writable so tests can delete and edit.
    let e = FileManager.default.enumerator(atPath: dir.path)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
    while let f = e?.nextObject() as? String {
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.appendingPathComponent(f).path)
    }
    return dir
}

/// Expects `load` to throw a one-line `SceneIOError` starting with `file` and containing each string.
func error(_ load: () throws -> Any, file: String, contains: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        _ = try load()
        Issue.record("no error for \(file)", sourceLocation: sourceLocation)
    } catch let e as SceneIOError {
        let d = e.description
        #expect(!d.contains("\n"), sourceLocation: sourceLocation)
        #expect(d.hasPrefix(file), "\(d)", sourceLocation: sourceLocation)
        for c in contains { #expect(d.contains(c), "\(d)", sourceLocation: sourceLocation) }
    } catch {
        Issue.record("not a SceneIOError: \(error)", sourceLocation: sourceLocation)
    }
}

@Suite(.enabled(if: TestData.isAvailable, TestData.skipMessage))
struct PlaybotStreamedSOGTests {
    static let counts = [500_000, 250_000, 125_000, 31_000, 8_406, 3_000, 1_873]

    @Test func playbotTreeLevelsAndChunks() throws {
        let sog = try StreamedSOG.open(TestData.path("splats/sog/playbot-lod/lod-meta.json"))
        #expect(sog.levelCount == 7 && sog.nodes.count == 2 && sog.chunks.count == 7)
        #expect((0..<7).map { sog.splatCount(level: $0) } == Self.counts)
        #expect(sog.warnings.isEmpty && sog.chunks.allSatisfy { $0.problem == nil && $0.count != nil })
        #expect(sog.shDegree == 2)
        // filenames are not in level order: level 1 lives in file 2 ("1_0").
        #expect(sog.nodes[0].levels[1] == StreamedSOG.Range(chunk: 2, offset: 0, count: 125_695))
        #expect(sog.chunks[2].name == "1_0/meta.json" && sog.chunks[2].level == 1 && sog.chunks[2].count == 250_000)
        #expect(sog.nodes[1].levels[0] == StreamedSOG.Range(chunk: 0, offset: 248_155, count: 251_845))
        // The folder opens the same tree.
        let viaFolder = try StreamedSOG.open(TestData.path("splats/sog/playbot-lod"))
        #expect(viaFolder.nodes == sog.nodes)
    }

    @Test func infoListsLevelsWithoutDecoding() throws {
        let info = try SceneFile.info(path: TestData.path("splats/sog/playbot-lod"))
        #expect(info.variant.contains("streamed SOG") && info.count == 500_000 && info.shDegree == 2 && info.bytesInMemory == 0)
        #expect(info.elements.map(\.name) == (0..<7).map { "level \($0)" } && info.elements.map(\.count) == Self.counts)
        #expect(info.text.contains("streamed SOG") && info.text.contains("element level 6 1873") && info.warnings.isEmpty)
        #expect(info.fileBytes > 15_000_000)
        // A chunk folder is still a plain SOG.
        let chunk = try SceneFile.info(path: TestData.path("splats/sog/playbot-lod/6_0"))
        #expect(chunk.count == 1_873 && !chunk.variant.contains("streamed"))
    }

    @Test func loadingTheTopLevelGivesTheFinestLevel() throws {
        let (scene, info) = try SceneFile.loadWithInfo(path: TestData.path("splats/sog/playbot-lod/lod-meta.json"))
        let c = try #require(splats(scene))
        #expect(c.count == 500_000 && c.shDegree == 2 && info.variant.contains("streamed SOG"))
        #expect(info.elements.count == 7 && info.warnings.isEmpty)
    }

    @Test func aMissingChunkIsReportedAndSkipped() throws {
        let dir = try copyPlaybot()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.removeItem(at: dir.appendingPathComponent("3_0"))
        let sog = try StreamedSOG.open(dir.path)
        #expect(sog.warnings.count == 1)
        #expect(sog.warnings[0].contains("3_0/meta.json") && sog.warnings[0].contains("missing") && !sog.warnings[0].contains("\n"))
        #expect(sog.usableRange(node: 0, level: 3) == nil && sog.usableRange(node: 0, level: 4) != nil)
        let info = try SceneFile.info(path: dir.path)
        #expect(info.warnings == sog.warnings)
        #expect(info.elements[3].properties.contains { $0.contains("unreadable: 3_0/meta.json") })
        // With level 0 gone too, loading falls back to each leaf's next level.
        try FileManager.default.removeItem(at: dir.appendingPathComponent("0_0"))
        let (scene, loadInfo) = try SceneFile.loadWithInfo(path: dir.appendingPathComponent("lod-meta.json").path)
        #expect(try #require(splats(scene)).count == 250_000)
        #expect(loadInfo.warnings.count == 2)
    }

    @Test func everyChunkMissingIsAnError() throws {
        let dir = try copyPlaybot()
        defer { try? FileManager.default.removeItem(at: dir) }
        for c in ["0_0", "1_0", "2_0", "3_0", "4_0", "5_0", "6_0"] { try FileManager.default.removeItem(at: dir.appendingPathComponent(c)) }
        let meta = dir.appendingPathComponent("lod-meta.json").path
        error({ try StreamedSOG.open(meta) }, file: meta, contains: ["no chunk", "can be read", "missing"])
    }

    @Test func rangesOutsideTheirChunkAreSkipped() throws {
        let dir = try copyPlaybot()
        defer { try? FileManager.default.removeItem(at: dir) }
        let metaURL = dir.appendingPathComponent("lod-meta.json")
        var text = try String(contentsOf: metaURL, encoding: .utf8)
        // Leaf 1's level 6 starts at 951 with 922 splats of 1873; push it past the end.
        text = text.replacingOccurrences(of: "\"6\":{\"file\":6,\"offset\":951,\"count\":922}", with: "\"6\":{\"file\":6,\"offset\":1500,\"count\":922}")
        try text.write(to: metaURL, atomically: true, encoding: .utf8)
        let sog = try StreamedSOG.open(metaURL.path)
        #expect(sog.usableRange(node: 1, level: 6) == nil && sog.usableRange(node: 0, level: 6) != nil)
        #expect(sog.warnings.count == 1 && sog.warnings[0].contains("outside chunk") && sog.warnings[0].contains("6_0/meta.json"))
    }
}

/// Hostile lod-meta.json: every case is a one-line error naming the file and the field.
@Suite struct HostileLODMetaTests {
    static let file = "/tmp/x/lod-meta.json"
    static let leaf = #"{"bound":{"min":[0,0,0],"max":[1,1,1]},"lods":{"0":{"file":0,"offset":0,"count":10}}}"#

    static func meta(levels: String = "1", files: String = #"["0_0/meta.json"]"#, tree: String = leaf, extra: String = "") -> String {
        #"{"lodLevels":\#(levels),"filenames":\#(files),"tree":\#(tree)\#(extra)}"#
    }

    static func parse(_ text: String, limits: StreamedSOG.Limits = StreamedSOG.Limits()) throws -> StreamedSOG {
        try StreamedSOG.parse(Data(text.utf8), file: file, folder: "/tmp/x", limits: limits, checkChunks: false)
    }

    @Test func aWellFormedMinimalFileParses() throws {
        let s = try Self.parse(Self.meta())
        #expect(s.levelCount == 1 && s.nodes.count == 1 && s.nodes[0].levels == [StreamedSOG.Range(chunk: 0, offset: 0, count: 10)])
        #expect(s.chunks[0].path == "/tmp/x/0_0")
        // Nested children, missing levels and an absent offset (0) are fine.
        let tree = #"{"bound":{"min":[0,0,0],"max":[2,1,1]},"children":[\#(Self.leaf),{"bound":{"min":[1,0,0],"max":[2,1,1]},"lods":{"1":{"file":0,"count":3}}}]}"#
        let t = try Self.parse(Self.meta(levels: "2", tree: tree))
        #expect(t.nodes.count == 2 && t.nodes[0].levels[1] == nil && t.nodes[1].levels[0] == nil)
        #expect(t.nodes[1].levels[1] == StreamedSOG.Range(chunk: 0, offset: 0, count: 3))
        // SplatFrame's level errors: 5 sizes × lodLevels numbers per leaf; absent elsewhere.
        #expect(t.nodes[0].levelErrors == nil)
        let measured = #"{"bound":{"min":[0,0,0],"max":[1,1,1]},"lods":{"0":{"file":0,"count":10}},"levelErrors":[0,0,0,0,0]}"#
        #expect(try Self.parse(Self.meta(tree: measured)).nodes[0].levelErrors == LevelErrorTable(values: [0, 0, 0, 0, 0], levels: 1))
    }

    @Test(arguments: [
        (#"[0,0,0]"#, "tree.children[1].levelErrors"),
        (#"[0,0,-1,0,0]"#, "tree.children[1].levelErrors[2]"),
        (#"[0,0,"x",0,0]"#, "tree.children[1].levelErrors[2]"),
        (#"{}"#, "tree.children[1].levelErrors"),
    ])
    func malformedLevelErrorsAreAWarningAndDropEveryTable(table: String, expected: String) throws {
        // Another shape of table (another writer's, or an earlier SplatFrame's) must not make the
        // file unreadable: it is drawn by the spacing rule instead, with one warning line.
        let good = #"{"bound":{"min":[0,0,0],"max":[1,1,1]},"lods":{"0":{"file":0,"count":10}},"levelErrors":[0,0,0,0,0]}"#
        let bad = #"{"bound":{"min":[0,0,0],"max":[1,1,1]},"lods":{"0":{"file":0,"count":10}},"levelErrors":\#(table)}"#
        let s = try Self.parse(Self.meta(tree: #"{"bound":{"min":[0,0,0],"max":[1,1,1]},"children":[\#(good),\#(bad)]}"#))
        #expect(s.nodes.count == 2 && s.nodes.allSatisfy { $0.levelErrors == nil })
        #expect(s.warnings.count == 1 && s.warnings[0].hasPrefix(Self.file + ":") && s.warnings[0].contains(expected), "\(s.warnings)")
        #expect(!s.warnings[0].contains("\n"))
    }

    @Test func levelErrorTablesCheckTheirNumbersAndInterpolateInLogSize() throws {
        #expect(LevelErrorTable.sizes == [12, 24, 48, 96, 192])
        #expect(LevelErrorTable(values: [0, 1, 0, 1, 0, 1, 0, 1], levels: 2) == nil, "4 rows, not 5")
        #expect(LevelErrorTable(values: [0, 1, 0, -1, 0, 1, 0, 1, 0, 1], levels: 2) == nil)
        #expect(LevelErrorTable(values: [0, 1, 0, .nan, 0, 1, 0, 1, 0, 1], levels: 2) == nil)
        // Level 1: 0.8 at 12 px, 0.4 at 24, 0.2 at 48, 0.1 at 96, 0.05 at 192.
        let t = try #require(LevelErrorTable(values: [0, 0.8, 0, 0.4, 0, 0.2, 0, 0.1, 0, 0.05], levels: 2))
        #expect(t.perPixel(level: 1, size: 24) == 0.4 && t.perPixel(level: 1, size: 192) == 0.05)
        #expect(abs(t.perPixel(level: 1, size: 24 * Float(2).squareRoot()) - 0.3) < 1e-5, "halfway in log size")
        #expect(t.perPixel(level: 1, size: 3) == 0.8 && t.perPixel(level: 1, size: 900) == 0.05, "the nearest row beyond")
        #expect(t.perPixel(level: 0, size: 30) == 0 && t.perPixel(level: 5, size: 30) == 0)
    }

    @Test(arguments: [
        ("not json", "valid JSON"),
        ("[1,2]", "expected an object"),
        (meta(levels: "0"), "lodLevels"),
        (meta(levels: "1000"), "lodLevels"),
        (meta(levels: "\"7\""), "lodLevels"),
        (meta(levels: "1.5"), "lodLevels"),
        (meta(files: "[]"), "filenames"),
        (meta(files: "[3]"), "filenames[0]"),
        (meta(files: #"["../up/meta.json"]"#), "relative file name"),
        (meta(files: #"["/abs/meta.json"]"#), "relative file name"),
        (#"{"lodLevels":1,"filenames":["a/meta.json"]}"#, "tree"),
        (meta(tree: "7"), "tree\": expected an object"),
        (meta(tree: #"{"lods":{}}"#), "tree.bound"),
        (meta(tree: #"{"bound":{"min":[0,0],"max":[1,1,1]},"lods":{}}"#), "tree.bound.min"),
        (meta(tree: #"{"bound":{"min":[0,0,"a"],"max":[1,1,1]},"lods":{}}"#), "tree.bound.min[2]"),
        (meta(tree: #"{"bound":{"min":[2,0,0],"max":[1,1,1]},"lods":{}}"#), "min ≤ max"),
        (meta(tree: #"{"bound":{"min":[0,0,0],"max":[1,1,1]}}"#), "children or lods"),
        (meta(tree: #"{"bound":{"min":[0,0,0],"max":[1,1,1]},"lods":{},"children":[]}"#), "found \"both\""),
        (meta(tree: #"{"bound":{"min":[0,0,0],"max":[1,1,1]},"children":[]}"#), "at least one leaf"),
        (meta(tree: #"{"bound":{"min":[0,0,0],"max":[1,1,1]},"children":{}}"#), "tree.children"),
        (meta(tree: #"{"bound":{"min":[0,0,0],"max":[1,1,1]},"lods":[]}"#), "tree.lods"),
        (meta(tree: #"{"bound":{"min":[0,0,0],"max":[1,1,1]},"lods":{"x":{"file":0,"count":1}}}"#), "tree.lods.x"),
        (meta(tree: #"{"bound":{"min":[0,0,0],"max":[1,1,1]},"lods":{"1":{"file":0,"count":1}}}"#), "lodLevels is 1"),
        (meta(tree: #"{"bound":{"min":[0,0,0],"max":[1,1,1]},"lods":{"01":{"file":0,"count":1}}}"#), "tree.lods.01"),
        (meta(tree: #"{"bound":{"min":[0,0,0],"max":[1,1,1]},"lods":{"0":5}}"#), "tree.lods.0\": expected an object"),
        (meta(tree: #"{"bound":{"min":[0,0,0],"max":[1,1,1]},"lods":{"0":{"file":1,"count":1}}}"#), "tree.lods.0.file"),
        (meta(tree: #"{"bound":{"min":[0,0,0],"max":[1,1,1]},"lods":{"0":{"file":0,"offset":-1,"count":1}}}"#), "tree.lods.0.offset"),
        (meta(tree: #"{"bound":{"min":[0,0,0],"max":[1,1,1]},"lods":{"0":{"file":0,"count":1.5}}}"#), "tree.lods.0.count"),
        (meta(tree: #"{"bound":{"min":[0,0,0],"max":[1,1,1]},"lods":{"0":{"file":0,"count":1e20}}}"#), "tree.lods.0.count"),
        (meta(tree: #"{"bound":{"min":[0,0,0],"max":[1,1,1]},"lods":{"0":{"file":0}}}"#), "tree.lods.0.count"),
        (meta(extra: #","environment":5"#), "environment"),
    ])
    func malformedFilesAreOneLineErrors(text: String, expected: String) {
        do {
            _ = try Self.parse(text)
            Issue.record("accepted: \(text)")
        } catch {
            let line = "\(error)"
            #expect(line.hasPrefix(Self.file + ":"), "\(line)")
            #expect(line.contains(expected), "\(line) should mention \(expected)")
            #expect(!line.contains("\n") && line.count < 400, "\(line)")
        }
    }

    @Test func limitsBoundWhatAFileCanAsk() throws {
        // Deep nesting stops at the depth cap.
        var tree = Self.leaf
        for _ in 0..<60 { tree = #"{"bound":{"min":[0,0,0],"max":[1,1,1]},"children":[\#(tree)]}"# }
        var shallow = StreamedSOG.Limits(); shallow.maxDepth = 50
        do { _ = try Self.parse(Self.meta(tree: tree), limits: shallow); Issue.record("accepted") } catch { #expect("\(error)".contains("levels deep")) }
        #expect(try Self.parse(Self.meta(tree: tree)).nodes.count == 1)
        // Absurd JSON nesting is an error, not a crash.
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: SceneIOError.self) { try Self.parse(Self.meta(tree: deep)) }
        // Too many nodes, too many leaf levels, too large a file.
        var few = StreamedSOG.Limits(); few.maxNodes = 3
        let wide = #"{"bound":{"min":[0,0,0],"max":[1,1,1]},"children":[\#(Self.leaf),\#(Self.leaf),\#(Self.leaf)]}"#
        do { _ = try Self.parse(Self.meta(tree: wide), limits: few); Issue.record("accepted") } catch { #expect("\(error)".contains("at most 3 nodes")) }
        var ranges = StreamedSOG.Limits(); ranges.maxRanges = 4
        do { _ = try Self.parse(Self.meta(levels: "2", tree: wide), limits: ranges); Issue.record("accepted") } catch { #expect("\(error)".contains("leaf levels")) }
        var small = StreamedSOG.Limits(); small.maxMetaBytes = 64
        do { _ = try Self.parse(Self.meta(), limits: small); Issue.record("accepted") } catch { #expect("\(error)".contains("at most 64 bytes")) }
        // Huge counts are refused before anything is allocated for them.
        let huge = #"{"bound":{"min":[0,0,0],"max":[1,1,1]},"lods":{"0":{"file":0,"offset":0,"count":1000000000}}}"#
        do { _ = try Self.parse(Self.meta(tree: huge)); Issue.record("accepted") } catch { #expect("\(error)".contains("count")) }
    }

    @Test func theEnvironmentIsReportedNotDrawn() throws {
        let s = try Self.parse(Self.meta(extra: #","environment":"env/meta.json""#))
        #expect(s.environment == "env/meta.json" && s.warnings.count == 1 && s.warnings[0].contains("environment"))
    }

    @Test func aFolderWithoutLodMetaIsNotStreamed() throws {
        let dir = TestData.temporaryDirectory("nolod")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(StreamedSOG.metaPath(for: dir.path) == nil)
        error({ try StreamedSOG.open(dir.path) }, file: dir.path, contains: ["no lod-meta.json"])
        // A lod-meta.json whose chunk is missing: open says every chunk is missing.
        try Data(Self.meta().utf8).write(to: dir.appendingPathComponent("lod-meta.json"))
        #expect(StreamedSOG.metaPath(for: dir.path) == dir.appendingPathComponent("lod-meta.json").path)
        error({ try SceneFile.load(path: dir.path) }, file: dir.appendingPathComponent("lod-meta.json").path, contains: ["no chunk", "0_0/meta.json"])
    }

    /// Random byte edits of a real lod-meta.json never crash the parser.
    @Test func mutatedFilesNeverCrash() throws {
        let base = Array(Self.meta(levels: "2", tree: #"{"bound":{"min":[0,0,0],"max":[2,1,1]},"children":[\#(Self.leaf),{"bound":{"min":[1,0,0],"max":[2,1,1]},"lods":{"1":{"file":0,"count":3}}}]}"#).utf8)
        var rng: UInt64 = 12345
        func next() -> Int { rng = rng &* 6364136223846793005 &+ 1442695040888963407; return Int(rng >> 33) }
        let alphabet = Array("{}[]\",:0123456789-.eE".utf8)
        var accepted = 0
        for _ in 0..<2000 {
            var b = base
            for _ in 0..<(1 + next() % 3) {
                let i = next() % b.count
                switch next() % 3 {
                case 0: b[i] = alphabet[next() % alphabet.count]
                case 1: b.remove(at: i)
                default: b.insert(alphabet[next() % alphabet.count], at: i)
                }
            }
            do { _ = try StreamedSOG.parse(Data(b), file: Self.file, folder: "/tmp/x", checkChunks: false); accepted += 1 } catch {
                #expect("\(error)".hasPrefix(Self.file))
            }
        }
        #expect(accepted < 2000)
    }
}
