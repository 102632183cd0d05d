// Bench JSON schema stability: the golden v1 file decodes and the key set never changes.
import Foundation
import Testing
import Viewer
import Bench

@Suite("Bench JSON schema")
struct BenchSchemaTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static let documentKeys = ["results", "schema", "version"]
    static let resultKeys = ["allocations", "build", "cores", "cpu", "date", "eye", "fps", "frame", "frameMs", "height",
                             "label", "latency", "latencyDefinition", "measuredFrames", "pathRate", "peakResidentBytes",
                             "primitiveKind", "primitives", "repeats", "runs", "scene", "sceneName", "settings",
                             "splatWork", "spreadPercent", "stages", "threads", "trackFile", "warmupFrames", "width"]
    /// Keys added since v1 files were written (absent from the golden file, present in new ones).
    static let addedKeys: Set<String> = ["settings", "splatWork"]
    static let statsKeys = ["count", "max", "mean", "median", "min", "p90", "p99"]

    @Test func goldenFileDecodes() throws {
        let doc = try BenchmarkDocument.load(Self.fixtures.appendingPathComponent("bench-v1.json").path)
        #expect(doc.schema == "splatframe-bench" && doc.version == 1 && doc.sweep == nil)
        let r = try #require(doc.results.first)
        #expect(r.label == "default" && r.primitiveKind == "splats" && r.primitives == 200)
        #expect(r.frameMs.count == r.measuredFrames && r.frame.count == 3)
        #expect(r.stages.map(\.name) == ["preprocess", "sort", "bin", "blend"])
        #expect(r.latency != nil && r.eye == "track")
        #expect(r.allocations.method == "malloc-interposer")
    }

    @Test func keysAreFixed() throws {
        let golden = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.fixtures.appendingPathComponent("bench-v1.json"))) as! [String: Any]
        #expect(golden.keys.sorted() == Self.documentKeys)
        let goldenResult = (golden["results"] as! [[String: Any]])[0]
        #expect(goldenResult.keys.sorted() == Self.resultKeys.filter { !Self.addedKeys.contains($0) })

        let s = FrameStatistics([1, 2, 3])
        var result = BenchmarkResultFixture.result(frameMs: [1, 2, 3], runs: [s], latency: s)
        result.settings = BenchmarkSettings(screenMM: [600, 340], screenOrigin: "default", configFile: nil, movementScale: 1)
        result.splatWork = BenchmarkSplatWork(visibleSplats: 10, tileSplatPairs: 25)
        let doc = BenchmarkDocument(results: [result])
        let encoded = try JSONSerialization.jsonObject(with: try doc.jsonData()) as! [String: Any]
        #expect(encoded.keys.sorted() == Self.documentKeys)
        let r = (encoded["results"] as! [[String: Any]])[0]
        #expect(r.keys.sorted() == Self.resultKeys)
        #expect((r["frame"] as! [String: Any]).keys.sorted() == Self.statsKeys)
        #expect(((r["stages"] as! [[String: Any]])[0]).keys.sorted() == ["mean", "median", "name", "p90"])
        #expect((r["allocations"] as! [String: Any]).keys.sorted() == ["bytesPerFrame", "callsPerFrame", "framesWithAllocations", "method"])
        #expect((r["splatWork"] as! [String: Any]).keys.sorted() == ["tileSplatPairs", "visibleSplats"])
        let back = try JSONDecoder().decode(BenchmarkDocument.self, from: try doc.jsonData())
        #expect(back == doc)
    }

    @Test func foreignFilesAreRejectedWithTheirName() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bench-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let f = dir.appendingPathComponent("other.json")
        try Data("{\"schema\":\"something\",\"version\":1,\"results\":[]}".utf8).write(to: f)
        #expect { try BenchmarkDocument.load(f.path) } throws: { "\($0)".contains("other.json") && "\($0)".contains("schema") }
        try Data("{\"results\":[]}".utf8).write(to: f)
        #expect { try BenchmarkDocument.load(f.path) } throws: { "\($0)".contains("missing") }
    }

    @Test func compareReportsRatiosPairByPair() {
        let old = BenchmarkDocument(results: [BenchmarkResultFixture.result(frameMs: [20, 20], runs: [FrameStatistics([20, 20])], label: "a"),
                                              BenchmarkResultFixture.result(frameMs: [8], runs: [FrameStatistics([8])], label: "b")])
        let new = BenchmarkDocument(results: [BenchmarkResultFixture.result(frameMs: [10, 10], runs: [FrameStatistics([10, 10])], label: "a"),
                                              BenchmarkResultFixture.result(frameMs: [4], runs: [FrameStatistics([4])], label: "c")])
        let text = BenchmarkReport.compare(new: new, old: old, oldName: "old.json")
        #expect(text.contains("[a]"))
        #expect(text.contains("2.000"))
        #expect(text.contains("c: no result with this label"))
    }
}
