// ReplayTests — interpolation, speed, looping and end of a replay, driven by synthetic time.
import Foundation
import Testing
@testable import HeadTracking
import TestSupport

@Suite struct ReplayTests {
    private let log = PoseLog(samples: [
        PoseSample(timestamp: 10.0, position: Vec3d(0, 0, 0.6), rotation: Vec3d(0, 0, 0)),
        PoseSample(timestamp: 11.0, position: Vec3d(0.1, 0, 0.6), rotation: Vec3d(0.2, 0, 0)),
        PoseSample(timestamp: 13.0, position: Vec3d(0.1, 0.2, 0.4), rotation: Vec3d(0.2, 0, 0)),
    ], hasRotation: true)

    @Test func interpolatesLinearly() throws {
        let r = ReplaySource(log: log)
        #expect(r.duration == 3)
        let a = try #require(r.sample(at: 0.25))
        #expect(abs(a.position.x - 0.025) < 1e-12)
        #expect(abs(a.rotation!.x - 0.05) < 1e-12)
        #expect(a.timestamp == 0.25)
        let b = try #require(r.sample(at: 2.0))
        #expect(abs(b.position.y - 0.1) < 1e-12 && abs(b.position.z - 0.5) < 1e-12)
        #expect(r.sample(at: 0)?.position == Vec3d(0, 0, 0.6))
        #expect(r.sample(at: 3)?.position == Vec3d(0.1, 0.2, 0.4))
    }

    @Test func endsWithoutLoopAndWrapsWithLoop() throws {
        #expect(ReplaySource(log: log).sample(at: 3.01) == nil)
        #expect(ReplaySource(log: log).sample(at: -1) == nil)
        let looped = ReplaySource(log: log, loop: true)
        let s = try #require(looped.sample(at: 3.25))
        #expect(abs(s.position.x - 0.025) < 1e-12)
        #expect(s.timestamp == 3.25)
    }

    @Test func speedScalesLogTime() throws {
        let fast = ReplaySource(log: log, speed: 2)
        #expect(fast.duration == 1.5)
        let s = try #require(fast.sample(at: 0.25))
        #expect(abs(s.position.x - 0.05) < 1e-12)
        #expect(fast.sample(at: 1.6) == nil)
    }

    @Test func liveThreadPublishesAndStops() throws {
        let r = ReplaySource(log: log, loop: true, publishRate: 200)
        try r.start()
        defer { r.stop() }
        // The publishing thread's first sample (the deadline only catches a thread that never runs).
        #expect(Wait.until(poll: 0.005) { r.latest() != nil })
        let s = try #require(r.latest())
        #expect(s.position.z >= 0.4 && s.position.z <= 0.6)
        #expect(Wait.returns { r.stop() } != nil, "stop hung")
        #expect(Wait.returns { r.stop() } != nil, "a second stop hung")   // idempotent
        #expect(r.latest() != nil, "the last sample stays readable after stop")
    }

    @Test func deterministicReplayThroughTheTracker() {
        // Bench/export path: the same frame times give the same poses.
        func run() -> [Vec3d] {
            let r = ReplaySource(log: log)
            let t = HeadTracker(settings: HeadTrackerSettings())
            return (0..<120).map { k in
                let time = Double(k) / 60
                return t.update(sample: r.sample(at: time), at: time).position
            }
        }
        #expect(run() == run())
    }
}
