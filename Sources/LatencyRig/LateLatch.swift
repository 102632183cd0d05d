// LateLatch — the late pose read and the warp it drives, shared by the window and the rig: after
// a frame is rendered the eye is read again (predicted over the warp and present alone) and the
// frame is warped to it (Reprojection's `Timewarp`) just before it is presented; in stereo each
// eye's frame is warped to that eye's own new point and the pair composed again.
import Foundation
import HeadTracking
import RenderCore
import Reprojection
import Viewer

/// One frame loop's late latch. Frame loop only.
public final class LateLatch {
    private let timewarp: Timewarp
    /// The warped frame: what is presented after a successful mono `latch`.
    public let output = Framebuffer(width: 1, height: 1)
    /// Stereo: the right eye's warped frame (the left eye's is `output`).
    private let rightOutput = Framebuffer(width: 1, height: 1)
    /// The last warp's time (ms; in stereo both eyes').
    public private(set) var lastWarpMs = 0.0
    /// Late read → present (s): what the late read predicts over, from recent frames.
    public private(set) var lead = 0.0
    private var leads = PresentLeadEstimator()
    private var lateRead: Double?

    public init(threads: Int) { timewarp = Timewarp(threads: threads) }

    /// Reads `driver`'s framebuffer (drawn for `record`) as the warp's source, then the eye
    /// again with `tracker` at `now()` (its present lead set to this latch's lead for that read,
    /// then restored), and warps the frame to it into `output`. Returns the later pose, or nil
    /// when `record` is not a pose view or the frames cannot be warped (then present the frame
    /// as drawn). `lastWarpMs` counts both steps.
    public func latch(_ record: FrameRecord, driver: FrameDriver, tracker: HeadTracker, readPose: (Double) -> HeadPose,
                      now: () -> Double) -> HeadPose? {
        guard case .pose = record.view else { lateRead = nil; return nil }
        // The frame's depth is read (`setSource`) before the eye: that work does not depend on
        // the eye, so the eye read is fresher by it (~0.2–0.35 ms at 1280×720 on two cores).
        let t0 = MonotonicClock.now()
        do { try timewarp.setSource(driver.framebuffer, camera: record.camera) } catch { lateRead = nil; return nil }
        let prepareMs = (MonotonicClock.now() - t0) * 1000
        return latched(tracker, readPose, now()) { late in
            try prepareMs + warp(nil, from: nil, to: driver.camera(for: .pose(late)), into: output)
        }
    }

    /// Stereo: reads the eye again as `latch` does, warps each eye's frame (drawn for `record`'s
    /// pose) to that eye's point of the later pose, and composes the pair into `stereo.output`.
    /// Returns the later pose, or nil when nothing was warped (`stereo.output` then holds the
    /// pair as drawn).
    public func latch(_ record: FrameRecord, stereo: StereoRenderer, tracker: HeadTracker, readPose: (Double) -> HeadPose,
                      now: Double) -> HeadPose? {
        guard case .pose(let drawn) = record.view else { lateRead = nil; return nil }
        return latched(tracker, readPose, now) { late in
            let was = stereo.eyes(for: drawn), will = stereo.eyes(for: late)
            var ms = 0.0
            for (driver, from, to, into) in [(stereo.left, was.left, will.left, output), (stereo.right, was.right, will.right, rightOutput)] {
                var a = drawn, b = late
                a.position = from; b.position = to
                ms += try warp(driver.framebuffer, from: driver.camera(for: .pose(a)), to: driver.camera(for: .pose(b)), into: into)
            }
            stereo.compose(left: output, right: rightOutput)
            return ms
        }
    }

    /// `--reproject async`: makes the frame `driver` just finished (drawn for `record`) the
    /// source that `warpSource` warps to each refresh's eye; its colour is copied, so the driver
    /// may draw the next frame at once. False when `record` is not a pose view.
    @discardableResult
    public func setSource(_ record: FrameRecord, driver: FrameDriver) -> Bool {
        guard case .pose = record.view else { return false }
        do { try timewarp.setSource(copying: driver.framebuffer, camera: record.camera) } catch { return false }
        return true
    }

    /// `--reproject async`: reads the eye at `now` (predicted over this latch's lead) and warps
    /// the source to it, seen through `setup` at `width`×`height`, into `output`. Returns the
    /// pose shown, or nil before any source is set.
    public func warpSource(setup: ViewingSetup, width: Int, height: Int, tracker: HeadTracker,
                           readPose: (Double) -> HeadPose, now: Double) -> HeadPose? {
        guard timewarp.hasSource else { lateRead = nil; return nil }
        return latched(tracker, readPose, now) { late in
            try warp(nil, from: nil, to: setup.camera(eye: late.eye, width: max(1, width), height: max(1, height)), into: output)
        }
    }

    /// The latched frame was presented at `time` (same clock as `now`).
    public func presented(at time: Double) {
        if let lateRead { lead = leads.presented(at: time, viewTime: lateRead) }
    }

    /// Reads the eye at `now` and runs `warps` with it (returning its milliseconds); on success
    /// keeps the time and the read for `presented`, and returns the eye read.
    private func latched(_ tracker: HeadTracker, _ readPose: (Double) -> HeadPose, _ now: Double,
                         _ warps: (HeadPose) throws -> Double) -> HeadPose? {
        lateRead = nil
        let late = read(tracker, readPose, now)
        guard let ms = try? warps(late) else { return nil }
        lastWarpMs = ms
        lateRead = now
        return late
    }

    /// `frame` (nil: the source already set) drawn with `from`, warped to `to` into `into` (sized
    /// to `to`); the warp's milliseconds.
    private func warp(_ frame: Framebuffer?, from: Camera?, to: Camera, into: Framebuffer) throws -> Double {
        into.resize(width: to.width, height: to.height)
        if let frame, let from { return try timewarp.warp(frame, from: from, to: to, into: into).totalMs }
        return try timewarp.warp(to: to, into: into).totalMs
    }

    /// The eye read at `now`, predicted over this latch's lead (the tracker's own lead restored).
    private func read(_ tracker: HeadTracker, _ readPose: (Double) -> HeadPose, _ now: Double) -> HeadPose {
        let frameLead = tracker.presentLead
        tracker.presentLead = lead
        defer { tracker.presentLead = frameLead }
        return readPose(now)
    }
}
