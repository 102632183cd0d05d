// SequenceClock — which frame of an animated capture is due: the frame clock's time turned into
// a frame index, with play/pause and stepping. A value type with no clock of its own: time comes
// in through `advance(to:)` (`Scene.advance(to:)`'s time), so tests drive it with any times.

/// The play head of a sequence of `count` frames at `fps`.
///
/// Time starts at the first time it is given (as for video walls): `advance(to: t0)` shows frame
/// 0, and while playing, `advance(to: t0 + s)` shows frame ⌊s · fps⌋ mod `count`. Pausing keeps
/// the frame on show; stepping pauses and moves one frame (wrapping); playing again continues
/// from the frame on show.
public struct SequenceClock: Sendable, Equatable {
    /// Frames in a loop (at least 1).
    public let count: Int
    /// Frames per second.
    public let fps: Double
    /// Whether time moves the play head.
    public private(set) var isPlaying = true
    /// The play head (frames, unwrapped) at `anchorTime`.
    private var anchorPosition = 0.0
    /// The time `anchorPosition` holds for; nil until the first `advance`.
    private var anchorTime: Double?
    /// The last time given (seconds).
    private var lastTime = 0.0

    public init(count: Int, fps: Double) {
        self.count = max(1, count); self.fps = fps
    }

    /// The play head (frames, unwrapped) at `time`.
    private func position(at time: Double) -> Double {
        guard let anchorTime, isPlaying else { return anchorPosition }
        return anchorPosition + (time - anchorTime) * fps
    }

    /// Moves the clock to `time` (seconds on the frame clock) and returns the frame due then.
    public mutating func advance(to time: Double) -> Int {
        if anchorTime == nil { anchorTime = time }
        lastTime = time
        return frame
    }

    /// The frame due at the last time given.
    public var frame: Int { Self.frameIndex(position: position(at: lastTime), count: count) }

    /// Pauses (keeping the frame on show) or plays on from it.
    public mutating func togglePlaying() {
        anchorPosition = Double(frame)
        anchorTime = lastTime
        isPlaying.toggle()
    }

    /// Pauses and moves the play head by `frames` (wrapping).
    public mutating func step(by frames: Int) {
        anchorPosition = Double(Self.frameIndex(position: Double(frame + frames), count: count))
        anchorTime = lastTime
        isPlaying = false
    }

    /// ⌊`position` + 1e-9⌋ mod `count` (non-negative): the hair keeps a position that decimals
    /// put a rounding error below a whole frame (0.29 s · 100 fps = 28.999…) on that frame.
    public static func frameIndex(position: Double, count: Int) -> Int {
        guard count > 1, position.isFinite else { return 0 }
        let f = (position + 1e-9).rounded(.down)
        let m = f.truncatingRemainder(dividingBy: Double(count))
        return Int(m < 0 ? m + Double(count) : m)
    }
}
