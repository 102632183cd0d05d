// The rendered head as a live camera, on a clock the test drives: frames arrive at the camera's
// pace, each stamped with its exposure; the webcam source publishes samples at those stamps (and,
// stamped the old way, at the moment the read was issued, which is what exposure stamps fix).
import Foundation
import HeadRig
import HeadTracking
import LatencyRig
import Media
import Synchronization
import Testing
import TestSupport
import WebcamTracking

/// A clock that moves only when a reader waits on it: `wait(until:)` jumps to the time waited for.
final class SteppedClock: Sendable {
    private let micros = Atomic<Int64>(0)
    var now: Double { Double(micros.load(ordering: .relaxed)) / 1e6 }
    func wait(until t: Double) {
        let target = Int64((t * 1e6).rounded(.up))
        var current = micros.load(ordering: .relaxed)
        while current < target {
            let (exchanged, original) = micros.compareExchange(expected: current, desired: target, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }
    func advance(by seconds: Double) { wait(until: now + seconds) }
}

@Suite(.enabled(if: TestData.isAvailable, TestData.skipMessage),
       .enabled(if: WebcamModels.locate().hasLandmarker, "skipped: face_landmarker.task is not fetched (run Scripts/fetch-webcam-models.sh)"))
struct LiveHeadCameraTests {
    static let camera = RigCamera()

    static func head() throws -> SyntheticHead {
        try SyntheticHead.make(models: WebcamModels.locate(), photo: TestData.path("video/astronaut.png"), camera: camera)
    }

    static func liveCamera(_ clock: SteppedClock, fps: Double = 30, delay: Double = 0.02) throws -> LiveHeadCamera {
        LiveHeadCamera(head: try head(), camera: camera, name: "still", path: { LatencyMotion.sway.placement(at: $0) },
                       fps: fps, delay: delay, noise: 0, origin: 1.0, waitUntil: { clock.wait(until: $0) })
    }

    @Test func framesArriveAtTheCameraPaceStampedWithTheirExposure() throws {
        let clock = SteppedClock()
        let live = try Self.liveCamera(clock)
        var frame = RGBFrame()
        // The first read waits for frame 0's delivery: exposed at 1.0, delivered at 1.02.
        #expect(try live.read(into: &frame, clock: { clock.now }))
        #expect(frame.index == 0 && frame.timestamp == 1.0 && abs(clock.now - 1.02) < 1e-6)
        #expect(frame.width == 640 && frame.height == 480)
        #expect(try live.read(into: &frame, clock: { clock.now }))
        #expect(frame.index == 1 && abs(frame.timestamp - (1 + 1.0 / 30)) < 1e-9)
        // A reader 100 ms late gets the newest delivered frame, not a stale queue.
        clock.advance(by: 0.1)
        #expect(try live.read(into: &frame, clock: { clock.now }))
        let newest = Int(((clock.now - 0.02 - 1) * 30).rounded(.down))
        #expect(frame.index == newest && abs(frame.timestamp - (1 + Double(newest) / 30)) < 1e-9)
    }

    /// The webcam source's samples carry the exposure time of their frame; stamped the old way
    /// they carry the moment the read was issued — up to a frame and the delay earlier than
    /// delivery, and nothing to do with when the head was where it is.
    @Test(arguments: [WebcamSource.Stamping.exposure, .readIssued])
    func samplesCarryTheirFramesExposure(_ stamping: WebcamSource.Stamping) throws {
        let clock = SteppedClock()
        let live = try Self.liveCamera(clock, delay: 0.05)
        let pipeline = try EyePipeline.best(models: WebcamModels.locate(), model: Self.camera.eyeModel) { print("notice: \($0)") }
        let source = WebcamSource(frames: live, pipeline: pipeline, clock: { clock.now }, stamping: stamping)
        try source.start()
        defer { source.stop() }
        var seen: Set<Double> = []
        #expect(Wait.until { if let s = source.latest(), s.confidence > 0 { seen.insert(s.timestamp) }; return seen.count >= 3 })
        for t in seen {
            let k = ((t - 1) * 30).rounded()
            let onExposure = k >= 0 && abs(t - (1 + k / 30)) < 1e-6
            switch stamping {
            case .exposure: #expect(onExposure, "sample at \(t): not frame \(Int(k))'s exposure")
            case .readIssued: #expect(!onExposure, "sample at \(t): read-issued stamps should miss the exposure")
            }
        }
    }
}
