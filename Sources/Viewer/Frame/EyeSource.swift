// EyeSource — where each frame's view comes from: live tracking, a hermetic replay, the
// bench's figure-eight, a fixed eye, or a fixed camera JSON.
import Foundation
import HeadTracking
import RenderCore

/// What one frame is seen from.
public enum FrameView: Sendable {
    /// A head pose: its eye (metres, screen space) looks through the set-up's off-axis frustum.
    case pose(HeadPose)
    /// A fixed camera (camera JSON): the scene in its own coordinates, at the camera's size,
    /// over the camera's background.
    case camera(Camera)

    /// The pose, when the view is one.
    public var pose: HeadPose? {
        if case .pose(let p) = self { return p }
        return nil
    }
}

/// The seam between "where is the eye" and "draw the frame". Deterministic sources depend on
/// the frame index only (bench, export, tests); the live source reads the newest tracked pose
/// at the moment it is asked, so the frame loop asks as late as it can.
public protocol EyeSource: AnyObject {
    /// A short name written to results: `live`, `track`, `figure-eight`, `fixed`, `camera`.
    var name: String { get }
    /// The view for frame `index` (0-based, in order).
    func view(frame index: Int) -> FrameView
    /// The frame clock (seconds) at frame `index`, whose view is `view`: what `Scene.advance(to:)`
    /// receives. Default: the pose's `HeadPose.time` (`MonotonicClock` for live tracking, i / rate
    /// for replays and the figure-eight, 0 for a fixed eye); 0 for a camera view.
    func sceneTime(frame index: Int, view: FrameView) -> Double
}

extension EyeSource {
    public func sceneTime(frame index: Int, view: FrameView) -> Double { view.pose?.time ?? 0 }
}

/// A fixed eye (metres, screen space), e.g. `render --eye`.
public final class FixedEyeSource: EyeSource {
    public let eye: Vec3
    public init(eye: Vec3) { self.eye = eye }
    public var name: String { "fixed" }
    public func view(frame index: Int) -> FrameView {
        .pose(HeadPose(time: 0, position: Vec3d(Double(eye.x), Double(eye.y), Double(eye.z)), state: .tracking))
    }
}

/// A fixed camera: the scene drawn in its own coordinates (`--camera CAM.json`); frame i at
/// i / `rate` seconds of the frame clock.
public final class FixedCameraSource: EyeSource {
    public let camera: Camera
    /// Frames per second of the frame clock.
    public let rate: Double
    public init(camera: Camera, rate: Double = 60) { self.camera = camera; self.rate = rate }
    public var name: String { "camera" }
    public func view(frame index: Int) -> FrameView { .camera(camera) }
    public func sceneTime(frame index: Int, view: FrameView) -> Double { Double(index) / rate }
}

/// The bench's built-in path: a horizontal figure-eight (Lissajous 1:2) 0.6 m in front of the
/// screen, ±0.15 m across, ±0.05 m up and down, one loop per 8 s; frame i at i / `rate` s.
public final class FigureEightEyeSource: EyeSource {
    /// Loop period (seconds).
    public static let period = 8.0
    /// Frames per second of path time.
    public let rate: Double
    public init(rate: Double = 60) { self.rate = rate }
    public var name: String { "figure-eight" }

    /// The eye at path time `t` seconds.
    public static func eye(at t: Double) -> Vec3 {
        let w = 2 * Double.pi * t / period
        return Vec3(Float(0.15 * sin(w)), Float(0.05 * sin(2 * w)), 0.6)
    }

    public func view(frame index: Int) -> FrameView {
        let t = Double(index) / rate
        let e = Self.eye(at: t)
        return .pose(HeadPose(time: t, position: Vec3d(Double(e.x), Double(e.y), Double(e.z)), state: .tracking))
    }
}

/// A head-track log replayed by frame time (frame i at i / `rate` s of the log), through the
/// session's filter: deterministic, whatever the wall clock does.
public final class ReplayEyeSource: EyeSource {
    public let session: HeadTrackingSession
    public let rate: Double
    public init(session: HeadTrackingSession, rate: Double) { self.session = session; self.rate = rate }
    public var name: String { "track" }
    public func view(frame index: Int) -> FrameView { .pose(session.pose(atFrameTime: Double(index) / rate)) }
}

/// Live tracking: the session's newest pose at the moment of the call (`MonotonicClock`).
public final class LiveEyeSource: EyeSource {
    public let session: HeadTrackingSession
    public init(session: HeadTrackingSession) { self.session = session }
    public var name: String { "live" }
    public func view(frame index: Int) -> FrameView { .pose(session.pose(at: MonotonicClock.now())) }
}

/// Another source's views, with its frame clock moved on by `seconds` (`render --time S`: the
/// fixed eye's time 0 becomes S). Content starts at the first time it is given, so the caller
/// first advances the scene to the base source's start (`Scene.advance(to: 0)`), then draws.
public final class TimeShiftedEyeSource: EyeSource {
    public let base: EyeSource
    /// Seconds added to the base source's scene time.
    public let seconds: Double
    public init(_ base: EyeSource, by seconds: Double) { self.base = base; self.seconds = seconds }
    public var name: String { base.name }
    public func view(frame index: Int) -> FrameView { base.view(frame: index) }
    public func sceneTime(frame index: Int, view: FrameView) -> Double { base.sceneTime(frame: index, view: view) + seconds }
}
