// CameraFrameSource — the seam between a head source and where its camera frames come from: a
// real capture (`VideoCapture`: a V4L2 camera, a video file, a network stream) or a rendered
// head that moves along a known path (HeadRig's `LiveHeadCamera`, the latency rig). Each frame
// comes stamped with the moment it was exposed, on the reader's clock.
import Foundation

/// Frames delivered at a camera's pace, each stamped with its exposure time.
///
/// Contract: `read` blocks until the next frame is delivered (a camera's pace), fills `frame`
/// (pixels, size, index) and sets `frame.timestamp` to when the frame was *exposed*, in seconds on
/// `clock` — the capture back end's own time stamp where it gives one, else the moment the read
/// returned minus the source's known delay. One thread at a time (the capture thread).
public protocol CameraFrameSource: AnyObject, Sendable {
    /// What is read, as a head source names it: `webcam:/dev/video0`, `video:PATH`, `webcam:URL`,
    /// `rig:sway`.
    var frameSourceName: String { get }
    /// A file played at its own frame rate (`fps`) and looped, or a still image (fps 0): the
    /// reader paces it. False for live sources, which pace themselves.
    var isFile: Bool { get }
    /// Frames per second (0 when unknown).
    var fps: Double { get }
    /// A network stream: a failed read is a drop to reconnect from (`reopened`), not the end.
    var isStream: Bool { get }
    /// The longest a read may block (seconds): how long stopping the reader may take.
    var longestRead: Double { get }
    /// Reads the next frame into `frame` (its storage reused) stamped with its exposure time on
    /// `clock`; false at the end of a file.
    func read(into frame: inout RGBFrame, clock: @Sendable () -> Double) throws -> Bool
    /// Restarts a file at its first frame.
    func rewind() throws
    /// The same source opened again (a stream after a drop).
    func reopened() throws -> any CameraFrameSource
}
