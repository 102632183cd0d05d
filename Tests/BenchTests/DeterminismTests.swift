// Replay determinism, allocation counting and the latency meter.
import Foundation
import RenderCore
import Testing
import Viewer
import Bench
import Export

@Suite("Replay determinism and measurement plumbing")
struct DeterminismTests {
    static let track = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/short-track.csv").path

    static func frames(_ sceneName: String, threads: Int) throws -> [[UInt32]] {
        let scene = try BenchmarkSceneFactory.make(sceneName, screen: .fallback, ownCoordinates: false)
        let ex = try ReplayExporter(scene: scene, track: track, fps: 10, width: 48, height: 27, threads: threads)
        #expect(ex.frameCount == 16)   // 1.5 s at 10 fps, both ends included
        return (0..<ex.frameCount).map { _ in ex.renderNextFrame().colorArray }
    }

    @Test("two exports of the same log give identical frames", arguments: ["cube", "generate:400"])
    func identicalFrames(scene: String) throws {
        let a = try Self.frames(scene, threads: 2)
        let b = try Self.frames(scene, threads: 1)
        #expect(a == b)
        #expect(Set(a.map { $0.hashValue }).count > 1, "the eye should move along the log")
    }

    @Test(.enabled(if: AllocationCounter.isInterposed, "a sanitizer owns malloc"))
    func allocationCounterSeesAllocations() {
        #expect(AllocationCounter.isActive)
        let before = AllocationCounter.snapshot()
        let a = [Int](repeating: 3, count: 1000)
        let d = AllocationCounter.snapshot().since(before)
        #expect(a.count == 1000 && d.calls >= 1 && d.bytes >= 8000)
    }

    @Test func latencyMeter() {
        let m = LatencyMeter(capacity: 4)
        for i in 0..<6 { m.frameComplete(publishedAt: Double(i), at: Double(i) + 0.010 * Double(i)) }
        #expect(m.presented(at: 5.1) != nil)
        let s = m.summary()
        #expect(s.frames == 4)
        #expect(abs(s.completeMedianMs - 35) < 1e-6)          // last four: 20, 30, 40, 50 ms
        #expect(abs(s.presentedMedianMs - 100) < 1e-6)        // only frame 5 presented, 0.1 s after publish
    }
}
