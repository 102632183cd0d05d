// Bench statistics on known inputs: percentiles, spread, counts and sweep parsing.
import Testing
import Viewer
import Bench

@Suite("Bench statistics")
struct BenchStatisticsTests {
    @Test func percentilesOfKnownInputs() {
        let s = FrameStatistics([4, 1, 3, 2])
        #expect(s.median == 2.5 && s.mean == 2.5 && s.min == 1 && s.max == 4)
        let hundred = FrameStatistics((1...100).map(Double.init))
        #expect(abs(hundred.median - 50.5) < 1e-12)
        #expect(abs(hundred.p90 - 90.1) < 1e-12)
        #expect(abs(hundred.p99 - 99.01) < 1e-12)
        #expect(abs(hundred.fps - 1000 / 50.5) < 1e-12)
        let one = FrameStatistics([7])
        #expect(one.median == 7 && one.p90 == 7 && one.p99 == 7)
        #expect(FrameStatistics([]).count == 0 && FrameStatistics([]).fps == 0)
    }

    @Test func stageSummaryAndSpread() {
        let st = BenchmarkStage(name: "blend", samples: [1, 2, 3, 4, 10])
        #expect(st.median == 3 && st.mean == 4 && abs(st.p90 - 7.6) < 1e-12)
        let runs = [FrameStatistics([10, 10]), FrameStatistics([12, 12]), FrameStatistics([11, 11])]
        let r = BenchmarkResultFixture.result(frameMs: [10, 10, 12, 12, 11, 11], runs: runs)
        #expect(abs(r.spreadPercent - 2.0 / 11 * 100) < 1e-9)
        #expect(r.frame.median == 11 && abs(r.fps - 1000.0 / 11) < 1e-9)
    }

    @Test func countsWithSuffixes() {
        #expect(CountText.parse("150000") == 150_000)
        #expect(CountText.parse("10k") == 10_000)
        #expect(CountText.parse("1M") == 1_000_000)
        #expect(CountText.parse("1.5k") == 1_500)
        #expect(CountText.parse("x") == nil)
    }

    @Test func sweeps() throws {
        let s = try BenchmarkSweep(parsing: "splats=10k,100k")
        let c = try s.apply("10k", to: BenchmarkConfiguration(scene: "generate:5"))
        #expect(c.scene == "generate:10000" && c.label == "splats=10k")
        let z = try BenchmarkSweep(parsing: "size=640x360,1280x720").apply("640x360", to: BenchmarkConfiguration(scene: "cube"))
        #expect(z.width == 640 && z.height == 360)
        #expect(throws: ViewerError.self) { try BenchmarkSweep(parsing: "colour=1,2") }
        #expect(throws: ViewerError.self) { try BenchmarkSweep(parsing: "threads=0") }
        #expect(throws: ViewerError.self) { try BenchmarkSweep(parsing: "size=12") }
    }

    @Test func figureEightStaysInFrontOfTheScreen() {
        for i in 0..<480 {
            let e = FigureEightEyeSource.eye(at: Double(i) / 60)
            #expect(abs(e.x) <= 0.15 + 1e-6 && abs(e.y) <= 0.05 + 1e-6 && e.z == 0.6)
        }
        let a = FigureEightEyeSource.eye(at: 0), b = FigureEightEyeSource.eye(at: FigureEightEyeSource.period)
        #expect(abs(a.x - b.x) < 1e-6 && abs(a.y - b.y) < 1e-6 && a.z == b.z)
    }
}

/// Builds results for tests.
enum BenchmarkResultFixture {
    static func result(frameMs: [Double], runs: [FrameStatistics], latency: FrameStatistics? = nil, label: String = "default") -> BenchmarkResult {
        BenchmarkResult(label: label, scene: "cube", sceneName: "cube", primitiveKind: "triangles", primitives: 370,
                        width: 64, height: 36, threads: 1, warmupFrames: 0, measuredFrames: frameMs.count, repeats: runs.count,
                        eye: latency == nil ? "figure-eight" : "track", trackFile: latency == nil ? nil : "t.csv", pathRate: 60,
                        build: "debug", cpu: "test", cores: 1, date: "2026-01-01T00:00:00Z", frameMs: frameMs, runs: runs,
                        stages: [BenchmarkStage(name: "raster", samples: frameMs)], peakResidentBytes: 1,
                        allocations: BenchmarkAllocations(method: "malloc-interposer", callsPerFrame: 0, bytesPerFrame: 0, framesWithAllocations: 0),
                        latency: latency, latencyDefinition: latency == nil ? nil : BenchmarkRunner.latencyDefinition)
    }
}
