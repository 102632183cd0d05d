// LatencyRig — motion-to-photon latency against ground truth, in real time: a rendered head follows
// a known path as a live camera (`LiveHeadCamera`), and everything after it is the program's own
// path — webcam source → face tracker → filter and prediction → frame driver → present. For every
// presented frame the rig knows the true eye at the present time, and scores the eye used.
import Foundation
import HeadRig
import HeadTracking
import Media
import RenderCore
import Reprojection
import Viewer
import WebcamTracking

/// One run's set-up.
public struct LatencyRigConfiguration: Sendable {
    /// The head's path.
    public var motion: LatencyMotion
    /// The camera's frame rate and its exposure → delivery delay (seconds; nil: one frame, a
    /// typical USB webcam's readout and transfer).
    public var cameraFPS: Double = 30
    public var cameraDelay: Double?
    /// Camera noise (levels).
    public var noise: Double = 3
    /// How camera frames are stamped: at exposure (the capture's own time), or when the read was
    /// issued (SplatFrame before exposure stamps; kept to measure what they changed).
    public var stamping: WebcamSource.Stamping = .exposure
    /// The tracker: filter and prediction.
    public var tracker = HeadTrackerSettings()
    /// Late reprojection (the driver's context must produce depth unless `.off`).
    public var reprojection = LateReprojection.off
    /// The display's refresh rate (Hz): how often `.async` presents.
    public var displayHz: Double = 60

    public init(motion: LatencyMotion) { self.motion = motion }

    /// The delay in effect.
    public var effectiveCameraDelay: Double { cameraDelay ?? 1 / cameraFPS }
}

/// Runs a `LatencyRigConfiguration` in real time and scores it.
public final class LatencyRig {
    public let configuration: LatencyRigConfiguration
    private let pipeline: EyePipeline
    private let camera: RigCamera
    /// Every read of the tracker in the last run and the frames that used them (`LatencyTrace`).
    public private(set) var trace: LatencyTrace?

    /// A rig filming through `camera` and tracking with `pipeline` (built for `camera.eyeModel`).
    public init(configuration: LatencyRigConfiguration, pipeline: EyePipeline, camera: RigCamera) {
        self.configuration = configuration; self.pipeline = pipeline; self.camera = camera
    }

    /// The run: `head` filmed along the path; the camera starts, then frames are drawn by `driver` one after another until the
    /// path ends, each presented by `present` (the window: `SDL_RenderPresent`; headless: nothing —
    /// presented when complete). `present` may also run the window's events; returning false ends
    /// the run early. Returns every presented frame (times from the path's start).
    public func run(head: sending SyntheticHead, driver: FrameDriver, present: (Framebuffer) throws -> Bool) throws -> [PresentedFrame] {
        let c = configuration
        let motion = c.motion
        let origin = MonotonicClock.now() + 0.2
        let live = LiveHeadCamera(head: head, camera: camera, name: motion.name, path: { motion.placement(at: $0) },
                                  fps: c.cameraFPS, delay: c.effectiveCameraDelay, noise: c.noise, origin: origin)
        let source = WebcamSource(frames: live, pipeline: pipeline, stamping: c.stamping)
        let tracker = HeadTracker(settings: c.tracker)
        let reader = TracingPoseReader(tracker: tracker, source: source, origin: origin, motion: motion.name, cameraFPS: c.cameraFPS)
        let eyes = TrackerEyeSource(reader: reader)
        try source.start()
        defer { source.stop(); trace = reader.trace }
        var frames: [PresentedFrame] = []
        frames.reserveCapacity(Int(motion.duration * 400))
        if c.reprojection == .async {
            try runAsync(driver: driver, reader: reader, eyes: eyes, origin: origin, frames: &frames, present: present)
            return frames
        }
        var lead = PresentLeadEstimator()
        let latch = c.reprojection == .lateLatch ? LateLatch(threads: driver.context.threads) : nil
        var index = 0
        while MonotonicClock.now() - origin < motion.duration {
            let record = driver.renderFrame(from: eyes, index: index)
            var shown = driver.framebuffer, used = record.view.pose
            // The late latch: the eye read again now, the frame warped to it.
            if let latch, let late = latch.latch(record, driver: driver, tracker: tracker, readPose: { reader.pose(at: $0) },
                                                 now: { MonotonicClock.now() }) {
                shown = latch.output; used = late
            }
            guard try present(shown) else { break }
            let presented = MonotonicClock.now()
            if let used { reader.presented(at: presented, readTime: used.time) }
            tracker.presentLead = lead.presented(at: presented, viewTime: record.viewTime)
            latch?.presented(at: presented)
            index += 1
            guard let pose = used else { continue }
            let p = pose.position
            frames.append(PresentedFrame(frameStart: record.viewTime - origin, present: presented - origin,
                                         eye: SIMD3(p.x, p.y, p.z), exposure: pose.sampleTime.map { $0 - origin },
                                         published: pose.samplePublishTime.map { $0 - origin }))
        }
        return frames
    }

    /// `.async`: frames drawn on their own thread; every display refresh presents the newest one
    /// warped to the eye read at that moment (`AsyncPresentation`, as the window does).
    private func runAsync(driver: FrameDriver, reader: TracingPoseReader, eyes: TrackerEyeSource, origin: Double,
                          frames: inout [PresentedFrame], present: (Framebuffer) throws -> Bool) throws {
        let tracker = reader.tracker
        let setup = driver.setup, width = driver.framebuffer.width, height = driver.framebuffer.height
        let presentation = AsyncPresentation(driver: driver, refreshRate: configuration.displayHz)
        defer { presentation.renderer.stop() }
        while MonotonicClock.now() - origin < configuration.motion.duration {
            presentation.waitForRefresh(eyes: eyes, tracker: tracker, setup: setup, width: width, height: height) { _, _ in }
            let read = MonotonicClock.now()
            guard let late = presentation.latch.warpSource(setup: setup, width: width, height: height, tracker: tracker,
                                                           readPose: { reader.pose(at: $0) }, now: read) else { continue }
            guard try present(presentation.latch.output) else { break }
            let presented = MonotonicClock.now()
            reader.presented(at: presented, readTime: late.time)
            presentation.latch.presented(at: presented)
            let p = late.position
            frames.append(PresentedFrame(frameStart: read - origin, present: presented - origin, eye: SIMD3(p.x, p.y, p.z),
                                         exposure: late.sampleTime.map { $0 - origin },
                                         published: late.samplePublishTime.map { $0 - origin }))
        }
    }
}

/// How a frame reaches the screen after it is rendered.
public enum LateReprojection: String, Sendable, CaseIterable {
    /// Shown as rendered.
    case off
    /// Warped to the eye read again after rendering (`LateLatch`), then shown.
    case lateLatch = "on"
    /// Rendered on a thread of its own; every display refresh shows the newest frame warped to
    /// that refresh's eye (`AsyncFrameRenderer`).
    case async
}

/// The tracker's pose at the moment the frame asks (`MonotonicClock`), as the window's
/// `LiveEyeSource` reads its session; every read traced.
final class TrackerEyeSource: EyeSource {
    let reader: TracingPoseReader
    init(reader: TracingPoseReader) { self.reader = reader }
    var name: String { "live" }
    func view(frame index: Int) -> FrameView { .pose(reader.pose(at: MonotonicClock.now())) }
}
