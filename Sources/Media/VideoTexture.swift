// VideoTexture — a video file as a texture that follows the frame clock, decoded on its own thread.
import Foundation
import RenderCore
import Workers

/// A looping video file on a texture (a video wall of the cube room), in step with the frame
/// clock: frame k of the clip is on `texture` from time `startTime + k / fps` until the next
/// one is due, where `startTime` is the first time `advance(to:)` was given.
///
/// Decoding (OpenCV/FFmpeg, through `VideoCapture`) runs on the texture's own thread, started
/// by the first `advance`; it keeps the frames due next decoded as RGB in a small pool of reused
/// buffers (three: one being written, at most two ready). `advance` — called by the frame loop,
/// between frames, through `Scene.advance(to:)` — picks the due frame and uploads it: RGB → the
/// texture's RGBA level 0, then the mip chain (`Texture.update(rgb:rowBytes:)`), only when a new
/// frame is due, allocation-free.
///
/// - `.realtime` (the window): `advance` never waits. A frame not decoded yet leaves the previous
///   one on the wall; the decoder extrapolates the frame clock from the last `advance` (for up to
///   a second) and decodes each frame about one frame period before it is due, skipping frames
///   when it falls behind.
/// - `.frameExact` (render, export, bench, tests): `advance(to: t)` shows exactly frame
///   ⌊(t − startTime)·fps⌋ mod `frameCount`, waiting for the decoder when needed (it decodes the
///   next frame while the current one is drawn, so sequential runs rarely wait), seeking
///   backwards by rewinding. Frames therefore depend on the times alone: exports are deterministic.
///
/// ```swift
/// let video = try VideoTexture(path: "clip.mp4", playback: .frameExact)
/// video.advance(to: 10 / video.fps)          // frame 10 is now in video.texture
/// ```
public final class VideoTexture: Sendable {
    /// How `advance` trades exactness for never waiting.
    public enum Playback: Sendable, Equatable {
        /// Never wait for the decoder; keep the previous frame when the due one is not ready.
        case realtime
        /// Show exactly the due frame, waiting for the decoder when it is not ready.
        case frameExact
    }

    /// The file.
    public let path: String
    /// Frames per second of the clip (the container's; 25 when it does not say).
    public let fps: Double
    /// Frame size in pixels.
    public let width: Int, height: Int
    /// The texture the wall draws; `advance` rewrites it in place.
    public let texture: Texture
    public let playback: Playback
    /// Frame-clock time of the first `advance` (playback start); nil before.
    public var startTime: Double? { playhead.withLock { $0.startTime } }
    /// The frame on `texture`, counted from playback start and on across loops (0-based).
    public var shownFrame: Int { playhead.withLock { $0.shownFrame } }
    /// The frame on `texture` as a frame number of the clip (0-based).
    public var shownClipFrame: Int { playhead.withLock { $0.shownClipFrame } }
    /// Frames uploaded since creation (the first frame, decoded in `init`, counts).
    public var uploads: Int { playhead.withLock { $0.uploads } }

    /// What the frame loop's `advance` keeps (behind a lock only so the texture is `Sendable`:
    /// one thread advances it).
    private struct Playhead {
        var startTime: Double?
        var shownFrame = 0, shownClipFrame = 0
        var uploads = 1
    }
    private let playhead = Locked(Playhead())

    /// How long a `.frameExact` advance waits for one frame before keeping the previous one.
    static let exactTimeout = 30.0

    private let decoder: VideoDecoder
    /// The decode thread (started by the first `advance`).
    private let thread = BackgroundThread(name: "splatframe.video")

    /// Opens `path` and puts its first frame on `texture`. Throws `MediaError.capture` (a
    /// one-line message naming the file) when the file is missing or cannot be decoded.
    public init(path: String, playback: Playback = .realtime) throws {
        let capture = try VideoCapture(.file(path))
        var first = RGBFrame()
        guard try capture.read(into: &first, timestamp: 0), first.width > 0, first.height > 0 else {
            throw MediaError.capture("\(path): no video frame could be decoded")
        }
        self.path = path
        self.playback = playback
        fps = capture.fps > 0 && capture.fps.isFinite ? capture.fps : 25
        width = first.width; height = first.height
        let texture = Texture(width: first.width, height: first.height)
        first.pixels.withUnsafeBufferPointer { texture.update(rgb: $0.baseAddress!, rowBytes: first.width * 3) }
        self.texture = texture
        decoder = VideoDecoder(capture: capture, fps: fps, width: width, height: height,
                               frameCount: capture.frameCount > 0 ? capture.frameCount : 0, realtime: playback == .realtime)
    }

    /// Stops the decode loop and joins its thread (a frame being decoded finishes first).
    deinit {
        decoder.stop()
        thread.stop(timeout: 5)
    }

    /// Frames in one loop of the clip: the container's count, corrected at the first end of file
    /// (0 while unknown).
    public var frameCount: Int { decoder.withLock { $0.frameCount } }

    /// Why decoding stopped (the file vanished or a frame could not be decoded), if it did; the
    /// wall then keeps its last frame.
    public var failure: String? { decoder.withLock { $0.failure } }

    /// The frame due at frame-clock `time` since playback started at `start`, counted on across loops.
    public func frameNumber(at time: Double, start: Double) -> Int {
        let f = ((time - start) * fps + 1e-6).rounded(.down)
        return f > 0 ? (f < 1e15 ? Int(f) : Int(1e15)) : 0
    }

    /// Moves the clip to frame-clock `time` (seconds): the first call starts playback (and the
    /// decode thread); later calls upload the due frame when it differs from the one shown.
    /// `.realtime` never blocks; `.frameExact` waits for the due frame (see the type's notes).
    /// Call between frames, from one thread (the frame loop).
    public func advance(to time: Double) {
        guard time.isFinite else { return }
        let (start, first) = playhead.withLock { p -> (Double, Bool) in
            if let s = p.startTime { return (s, false) }
            p.startTime = time
            return (time, true)
        }
        if first { startDecoding() }
        let due = frameNumber(at: time, start: start)
        guard let slot = decoder.take(due: due, time: time, wall: MonotonicClock.now(), exact: playback == .frameExact,
                                      timeout: Self.exactTimeout) else { return }
        slot.pixels.withUnsafeBufferPointer { texture.update(rgb: $0.baseAddress!, rowBytes: width * 3) }
        playhead.withLock { [frame = slot.frame, clipFrame = slot.clipFrame] p in
            p.shownFrame = frame
            p.shownClipFrame = clipFrame
            p.uploads += 1
        }
        decoder.giveBack(consume slot)      // moved, so the decoder can reuse the buffer without a copy
    }

    private func startDecoding() {
        let decoder = self.decoder
        thread.start { decoder.run(); return false }
    }
}

/// A decoded frame in a reusable RGB buffer.
struct VideoSlot {
    /// Frame number since playback start (on across loops), and within the clip.
    var frame: Int, clipFrame: Int
    /// `width * height * 3` bytes.
    var pixels: [UInt8]
}

/// The decode thread's side of a `VideoTexture`: the state shared with the frame loop, behind
/// one lock (`Locked`); the capture is read only by the decode thread after `init` (`FrameReader`).
final class VideoDecoder: Sendable {
    struct Shared {
        /// Decoded frames not yet shown, oldest first (at most two).
        var ready: [VideoSlot] = []
        /// Buffers free for the decoder.
        var free: [[UInt8]] = []
        /// The frame on the texture (or being uploaded).
        var shown = 0
        /// The frame the frame loop last asked for.
        var due = 0
        /// The last advance: frame-clock time and `MonotonicClock` time (realtime extrapolation).
        var clock: (time: Double, wall: Double)?
        var start: Double?
        var frameCount: Int
        var failure: String?
        var stopping = false
        /// Counts the frame loop's changes the decoder waits for (a new due frame, a buffer
        /// given back, a wait for an exact frame, stop): an idle decoder sleeps until it moves.
        var changes = 0
    }

    /// What the decode loop does next.
    private enum Step {
        case stop
        /// Nothing to do: sleep until the frame loop changes something (`changes` differs from
        /// `seen`) or `seconds` pass.
        case sleep(seen: Int, seconds: Double)
        /// Decode frame `target` into `buffer`, the clip being `frameCount` frames long (0: unknown).
        case decode(target: Int, buffer: [UInt8], frameCount: Int)
    }

    private let shared: Locked<Shared>
    private let capture: VideoCapture
    private let fps: Double
    private let width: Int, height: Int
    private let realtime: Bool

    init(capture: VideoCapture, fps: Double, width: Int, height: Int, frameCount: Int, realtime: Bool) {
        self.capture = capture; self.fps = fps; self.realtime = realtime
        self.width = width; self.height = height
        var shared = Shared(frameCount: frameCount)
        shared.ready.reserveCapacity(4)
        shared.free.reserveCapacity(4)
        for _ in 0..<3 { shared.free.append([UInt8](repeating: 0, count: width * height * 3)) }
        self.shared = Locked(shared)
    }

    func withLock<T: Sendable>(_ body: (inout Shared) -> T) -> T {
        shared.withLock { body(&$0) }
    }

    // MARK: The frame loop's side

    /// Records the clock and takes the frame to upload for `due`, if there is one: `exact`
    /// takes exactly `due` (waiting up to `timeout` seconds for it); otherwise the newest ready
    /// frame not later than `due` and newer than the one shown (any not later, after a backward jump).
    func take(due: Int, time: Double, wall: Double, exact: Bool, timeout: Double) -> VideoSlot? {
        let (slot, wake, wait) = shared.withLock { s -> (VideoSlot?, Bool, Bool) in
            s.clock = (time, wall)
            if s.start == nil { s.start = time }
            // A new frame falls due: wake the decoder (in realtime it also wakes on its own, on time).
            var wake = due != s.due
            s.due = due
            guard due != s.shown else { if wake { s.changes &+= 1 }; return (nil, wake, false) }
            let shown = s.shown
            let index = exact ? s.ready.firstIndex { $0.frame == due }
                              : s.ready.lastIndex { $0.frame <= due && ($0.frame > shown || due < shown) }
            let waits = exact && index == nil
            if waits { wake = true }
            if wake { s.changes &+= 1 }
            return (index.map { Self.remove(at: $0, from: &s) }, wake, waits)
        }
        if wake { shared.broadcast() }
        guard wait else { return slot }
        return shared.wait(until: { s in s.failure != nil || s.stopping || s.ready.contains { $0.frame == due } },
                           timeout: timeout) { s, _ -> VideoSlot? in
            s.ready.firstIndex { $0.frame == due }.map { Self.remove(at: $0, from: &s) }
        }
    }

    /// Takes ready frame `i` to be shown; older ready frames can no longer be shown and go back
    /// to the free buffers.
    private static func remove(at i: Int, from s: inout Shared) -> VideoSlot {
        let slot = s.ready.remove(at: i)
        s.shown = slot.frame
        while let f = s.ready.first, f.frame < slot.frame { s.free.append(s.ready.removeFirst().pixels) }
        return slot
    }

    /// Returns an uploaded frame's buffer to the pool.
    func giveBack(_ slot: consuming VideoSlot) {
        let pixels = slot.pixels
        _ = consume slot
        // (A closure only borrows what it captures: the frame loop's `pixels` ends with this call,
        // before the decoder next writes the buffer, so that write finds it unshared.)
        shared.update { s in
            s.free.append(pixels)
            s.changes &+= 1
        }
    }

    // MARK: The decode thread

    /// The decode loop: runs until `stop`.
    func run() {
        var reader = FrameReader(capture: capture, width: width, height: height)
        let shared = self.shared
        while true {
            let nextFrame = reader.nextFrame
            let step = shared.withLock { s in nextStep(&s, nextFrame: nextFrame) }
            switch consume step {
            case .stop:
                return
            case .sleep(let seen, let seconds):
                shared.wait(until: { $0.stopping || $0.changes != seen }, timeout: seconds) { _, _ in }
            case .decode(let target, var buffer, let frameCount):
                let result = reader.decode(target, into: &buffer, frameCount: frameCount) { shared.withLock { $0.stopping } }
                shared.update { s in
                    switch result {
                    case .success(let (clip, learned)):
                        if let learned { s.frameCount = learned }
                        var at = s.ready.endIndex
                        while at > 0 && s.ready[at - 1].frame > target { at -= 1 }
                        s.ready.insert(VideoSlot(frame: target, clipFrame: clip, pixels: buffer), at: at)
                        let due = dueNow(s)
                        if s.ready.count > 2, let i = s.ready.firstIndex(where: { $0.frame != due && $0.frame != due + 1 }) {
                            s.free.append(s.ready.remove(at: i).pixels)
                        }
                    case .failure(let error):
                        s.failure = "\(error)"
                        s.free.append(buffer)
                    }
                }
            }
        }
    }

    /// The decode loop's next step (under the lock): a frame to decode and a buffer for it (a
    /// free one, else the oldest ready frame no longer wanted), or a sleep.
    private func nextStep(_ s: inout Shared, nextFrame: Int) -> Step {
        if s.stopping { return .stop }
        guard let target = nextTarget(s, nextFrame: nextFrame) else { return .sleep(seen: s.changes, seconds: wakeDelay(s)) }
        let due = dueNow(s)
        if let b = s.free.popLast() { return .decode(target: target, buffer: b, frameCount: s.frameCount) }
        if let i = s.ready.firstIndex(where: { $0.frame != due && $0.frame != due + 1 }) {
            return .decode(target: target, buffer: s.ready.remove(at: i).pixels, frameCount: s.frameCount)
        }
        return .sleep(seen: s.changes, seconds: 0.1)
    }

    /// Asks the decode loop to end (its thread is joined by the texture).
    func stop() {
        shared.update { s in s.stopping = true; s.changes &+= 1 }
    }

    /// Whether `frame` is decoded, being shown, or ready.
    private func have(_ frame: Int, _ s: Shared) -> Bool {
        frame == s.shown || s.ready.contains { $0.frame == frame }
    }

    /// The frame due now by the extrapolated frame clock (realtime; at most 1 s past the last
    /// advance), else the last one asked for.
    private func dueNow(_ s: Shared) -> Int {
        guard realtime, let c = s.clock, let start = s.start else { return s.due }
        let t = c.time + min(1, max(0, MonotonicClock.now() - c.wall))
        let f = ((t - start) * fps + 1e-6).rounded(.down)
        return max(s.due, f > 0 ? (f < 1e15 ? Int(f) : Int(1e15)) : 0)
    }

    /// The next frame to decode, or nil when there is nothing to do (`nextFrame`: the one the
    /// capture returns next).
    private func nextTarget(_ s: Shared, nextFrame: Int) -> Int? {
        if s.failure != nil { return nil }
        let due = dueNow(s)
        if !realtime {
            if !have(due, s) { return due }
            return have(due + 1, s) ? nil : due + 1           // prefetch while the due frame is drawn
        }
        if due < s.shown && !have(due, s) { return due }   // the clock jumped back: seek
        // The due frame and the next, decoding forward only (skipping frames when behind).
        if !have(due, s) && due >= nextFrame { return due }
        if !have(due + 1, s) && due + 1 >= nextFrame { return due + 1 }
        return nil
    }

    /// How long to sleep with nothing to do: until the next frame falls due (realtime), else
    /// until woken (at most a second).
    private func wakeDelay(_ s: Shared) -> Double {
        guard realtime, s.failure == nil, let c = s.clock, let start = s.start else { return 1 }
        let nextDue = start + Double(dueNow(s) + 1) / fps            // frame-clock time
        return min(0.5, max(0.001, nextDue - c.time - (MonotonicClock.now() - c.wall)))
    }
}

/// The decode thread's own state: the capture and where it stands in the file.
struct FrameReader {
    let capture: VideoCapture
    let width: Int, height: Int
    /// The next frame the capture returns, as a frame number since playback start and as a
    /// position in the file (`VideoTexture.init` read frame 0).
    var nextFrame = 1, filePosition = 1
    var scratch = RGBFrame()

    init(capture: VideoCapture, width: Int, height: Int) {
        self.capture = capture; self.width = width; self.height = height
    }

    /// Decodes frame `target` into `buffer` (reading forward, or rewinding first when it lies
    /// behind the file position). Returns the clip frame and, when the file ended early, the
    /// learned frame count. A long skip ends early once `stopping` says so.
    mutating func decode(_ target: Int, into buffer: inout [UInt8], frameCount: Int,
                         stopping: () -> Bool) -> Result<(Int, Int?), Error> {
        var count = frameCount
        var learned: Int?
        do {
            swap(&scratch.pixels, &buffer)
            defer { swap(&scratch.pixels, &buffer) }
            // Position the file at the target's clip frame.
            while true {
                let clip = count > 0 ? target % count : target
                if clip < filePosition { try capture.rewind(); filePosition = 0 }
                if filePosition == clip { break }
                if stopping() { throw CancellationError() }   // a long skip ends with the texture
                if try !readNext(&count, &learned) { throw MediaError.capture("\(capture.source): no frames") }
            }
            guard try readNext(&count, &learned) else { throw MediaError.capture("\(capture.source): no frames") }
            guard scratch.width == width && scratch.height == height else {
                throw MediaError.capture("\(capture.source): frame size changed from \(width)x\(height) to \(scratch.width)x\(scratch.height)")
            }
            nextFrame = target + 1
            return .success((filePosition - 1, learned))
        } catch {
            return .failure(error)
        }
    }

    /// Reads the file's next frame into `scratch`, wrapping at `count` frames or at the end of
    /// the file (which then fixes `count`). False when the file has no frame at all.
    private mutating func readNext(_ count: inout Int, _ learned: inout Int?) throws -> Bool {
        if count > 0 && filePosition >= count { try capture.rewind(); filePosition = 0 }
        if try capture.read(into: &scratch, timestamp: 0) { filePosition += 1; return true }
        guard filePosition > 0 else { return false }
        count = filePosition; learned = filePosition
        try capture.rewind(); filePosition = 0
        guard try capture.read(into: &scratch, timestamp: 0) else { return false }
        filePosition = 1
        return true
    }
}
