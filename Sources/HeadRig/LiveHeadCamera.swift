// LiveHeadCamera — the rendered head as a live camera: it follows a known path and delivers its
// frames at a real camera's pace (30 or 60 fps), each a fixed delay after its exposure and stamped
// with that exposure, through the same seam a real capture uses (`CameraFrameSource`). What the
// latency rig films: for every frame the true eye at any moment is known.
import Foundation
import Media
import RenderCore
import Workers

/// A synthetic webcam filming `SyntheticHead` along `path`.
///
/// Frame k is exposed at `origin + k / fps` (clock seconds) showing the head at path time k / fps,
/// and delivered `delay` seconds later (a webcam's readout, transfer and decode). A reader that
/// falls behind gets the newest delivered frame (older ones are gone, as from a camera's short
/// queue); one that is early waits for the next delivery (`waitUntil`).
public final class LiveHeadCamera: CameraFrameSource {
    /// The head and the noise stream: used by the one capture thread, behind the lock for form.
    private struct State { var head: SyntheticHead; var random: SeededRandom; var next = 0 }
    private let state: Locked<State>
    /// The camera filming it.
    public let camera: RigCamera
    /// Where the head is at path time t (seconds).
    public let path: @Sendable (Double) -> HeadPlacement
    public let fps: Double
    /// Exposure → delivery (seconds).
    public let delay: Double
    /// Camera noise (standard deviation, levels).
    public let noise: Double
    /// The clock time of path time 0 (frame 0's exposure).
    public let origin: Double
    /// A name for the HUD: `rig:NAME`.
    public let name: String
    private let waitUntil: @Sendable (Double) -> Void

    /// A camera filming `head` along `path` from clock time `origin`; `waitUntil` blocks until the
    /// reader's clock reaches a time (default: sleeps on `MonotonicClock`).
    public init(head: sending SyntheticHead, camera: RigCamera, name: String, path: @escaping @Sendable (Double) -> HeadPlacement,
                fps: Double, delay: Double, noise: Double, seed: UInt64 = 1, origin: Double,
                waitUntil: @escaping @Sendable (Double) -> Void = LiveHeadCamera.sleepUntil) {
        state = Locked(State(head: head, random: SeededRandom(seed: seed)))
        self.camera = camera; self.path = path; self.fps = fps; self.delay = delay; self.noise = noise
        self.origin = origin; self.name = name; self.waitUntil = waitUntil
    }

    public var frameSourceName: String { "rig:\(name)" }
    public var isFile: Bool { false }
    public var isStream: Bool { false }
    public var longestRead: Double { 1 / fps + delay }

    public func read(into frame: inout RGBFrame, clock: @Sendable () -> Double) throws -> Bool {
        let now = clock()
        let (rendered, exposure) = state.withLock { s -> (RGBFrame, Double) in
            // The newest frame delivered by now, never one already read (frame 0 at the earliest).
            let newest = Int(((now - delay - origin) * fps).rounded(.down))
            let k = max(s.next, newest, 0)
            s.next = k + 1
            let t = Double(k) / fps
            let f = s.head.render(path(t), camera: camera, noise: noise, random: &s.random, timestamp: origin + t, index: k)
            return (f, origin + t)
        }
        waitUntil(exposure + delay)
        frame = rendered
        frame.timestamp = exposure
        return true
    }

    public func rewind() throws {}
    public func reopened() throws -> any CameraFrameSource { self }

    /// Sleeps until `MonotonicClock` reads `time`.
    public static let sleepUntil: @Sendable (Double) -> Void = { time in
        while true {
            let left = time - MonotonicClock.now()
            if left <= 0 { return }
            usleep(UInt32(min(left, 0.05) * 1e6))
        }
    }
}
