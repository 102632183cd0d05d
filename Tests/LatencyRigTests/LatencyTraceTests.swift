// A rig run's trace replayed: with the run's own settings it gives the run's eyes exactly (the
// tracker depends on nothing else), with another filter other eyes; the CSV reads back what was
// written, and bad traces are errors naming the line.
import Foundation
import HeadTracking
import LatencyRig
import RenderCore
import Testing

@Suite("Latency trace")
struct LatencyTraceTests {
    /// A source whose newest sample the test sets (a camera's, on the test's clock).
    final class SettableSource: PoseSource, @unchecked Sendable {
        var sample: PoseSample?
        var name: String { "test" }
        func start() throws {}
        func stop() {}
        func latest() -> PoseSample? { sample }
    }

    /// A sway sampled at 30 Hz (each published 40 ms after its exposure), read by frames every
    /// 7 ms whose present lead changes; every third frame "presented". Returns the trace and the
    /// eyes the live tracker gave the presented frames.
    static func run(settings: HeadTrackerSettings, origin: Double) -> (LatencyTrace, [SIMD3<Double>]) {
        let source = SettableSource()
        let tracker = HeadTracker(settings: settings)
        let reader = TracingPoseReader(tracker: tracker, source: source, origin: origin, motion: "sway", cameraFPS: 30)
        var random = SeededRandom(seed: 4)
        var eyes: [SIMD3<Double>] = []
        var nextExposure = 0.0
        for frame in 0..<900 {
            let now = Double(frame) * 0.007
            while nextExposure + 0.04 <= now {
                let x = 0.08 * sin(Double.pi * nextExposure) + 0.0003 * Double(random.normal())
                source.sample = PoseSample(timestamp: origin + nextExposure, position: Vec3d(x, 0.01, 0.6),
                                           publishTime: origin + nextExposure + 0.04)
                nextExposure += 1.0 / 30
            }
            tracker.presentLead = 0.01 + 0.002 * Double(frame % 5)
            let pose = reader.pose(at: origin + now)
            if frame % 3 == 0 {
                reader.presented(at: origin + now + 0.012, readTime: pose.time)
                eyes.append(SIMD3(pose.position.x, pose.position.y, pose.position.z))
            }
        }
        return (reader.trace, eyes)
    }

    static func settings(_ filter: FilterSpec) -> HeadTrackerSettings {
        var s = HeadTrackerSettings()
        s.filter = filter
        s.predictionHorizon = 0
        return s
    }

    @Test func replayedWithTheRunsSettingsItGivesTheRunsEyes() throws {
        let settings = Self.settings(.default)
        let (trace, live) = Self.run(settings: settings, origin: 1000)
        let replayed = trace.replay(settings: settings)
        try #require(replayed.count == live.count && live.count == 300)
        for (r, l) in zip(replayed, live) {
            #expect(abs(r.eye.x - l.x) < 1e-9 && abs(r.eye.y - l.y) < 1e-9 && abs(r.eye.z - l.z) < 1e-9)
        }
        #expect(abs(replayed[10].present - (replayed[10].frameStart + 0.012)) < 1e-9)
        // Another filter draws other eyes from the same reads.
        let other = trace.replay(settings: Self.settings(.ema(alpha: 0.3)))
        let moved = zip(other, live).map { abs($0.eye.x - $1.x) }.max() ?? 0
        #expect(moved > 0.005, "ema differs by \(moved * 1000) mm at most")
    }

    @Test func theCSVReadsBackWhatWasWritten() throws {
        let settings = Self.settings(.default)
        let (trace, _) = Self.run(settings: settings, origin: 50)
        let text = LatencyTraceFile.text(trace)
        let read = try LatencyTraceFile.parse(text, file: "t.csv")
        #expect(read.motion == "sway" && read.cameraFPS == 30 && read.reads.count == trace.reads.count)
        #expect(read.reads.filter { $0.present != nil }.count == 300 && read.reads.first?.sample == nil)
        let a = trace.replay(settings: settings), b = read.replay(settings: settings)
        let worst = zip(a, b).map { abs($0.eye.x - $1.eye.x) }.max() ?? 1
        #expect(worst < 1e-5, "the CSV's rounding moved an eye by \(worst * 1000) mm")
    }

    @Test func badTracesNameTheLine() {
        let head = "# splatframe latency trace 1\n# motion sway\n# camera_fps 30\nread_time,lead,sample_time,publish_time,x,y,z,confidence,present\n"
        let cases: [(String, Int, String)] = [
            ("time,x\n", 1, "not a latency trace"),
            (head + "0.1,0.01,,,,,,,\n0.05,0.01,,,,,,,\n", 6, "goes back in time"),
            (head + "0.1,0.01,0.05,0.09,0,0,0.6,1\n", 5, "8 fields"),
            (head + "0.1,0.01,0.05,,0,0,0.6,1,\n", 5, "needs all of"),
            (head + "0.1,x,,,,,,,\n", 5, "lead 'x'"),
            (head + "0.1,0.01,0.05,0.09,0,0,0.6,2,\n", 5, "confidence"),
            ("# splatframe latency trace 1\nread_time,lead,sample_time,publish_time,x,y,z,confidence,present\n", 2, "must come before"),
        ]
        for (text, line, words) in cases {
            do {
                _ = try LatencyTraceFile.parse(text, file: "bad.csv")
                Issue.record("accepted: \(text)")
            } catch let error as HeadTrackingError {
                #expect(error.description.hasPrefix("bad.csv:\(line): ") && error.description.contains(words), "\(error)")
            } catch { Issue.record("\(error)") }
        }
    }
}
