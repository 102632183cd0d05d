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
public final class VideoTexture: @unchecked Sendable {
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
    public private(set) var startTime: Double?
    /// The frame on `texture`, counted from playback start and on across loops (0-based).
    public private(set) var shownFrame = 0
    /// The frame on `texture` as a frame number of the clip (0-based).
    public private(set) var shownClipFrame = 0
    /// Frames uploaded since creation (the first frame, decoded in `init`, counts).
    public private(set) var uploads = 1

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
        let start: Double
        if let s = startTime { start = s } else {
            start = time
            startTime = time
            startDecoding()
        }
        let due = frameNumber(at: time, start: start)
        guard let slot = decoder.take(due: due, time: time, wall: MonotonicClock.now(), exact: playback == .frameExact,
                                      timeout: Self.exactTimeout) else { return }
        slot.pixels.withUnsafeBufferPointer { texture.update(rgb: $0.baseAddress!, rowBytes: width * 3) }
        shownFrame = slot.frame
        shownClipFrame = slot.clipFrame
        uploads += 1
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

/// The decode thread's side of a `VideoTexture`: the capture (used only by the decode thread
/// after `init`) and the state shared with the frame loop, guarded by `condition`.
final class VideoDecoder: @unchecked Sendable {
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
    }

    private let condition = NSCondition()
    private var shared: Shared
    private let capture: VideoCapture
    private let fps: Double
    private let width: Int, height: Int
    private let realtime: Bool
    // Decode-thread state: the next frame the capture returns, as a frame number since playback
    // start and as a position in the file.
    private var nextFrame = 1, filePosition = 1
    private var scratch = RGBFrame()

    init(capture: VideoCapture, fps: Double, width: Int, height: Int, frameCount: Int, realtime: Bool) {
        self.capture = capture; self.fps = fps; self.realtime = realtime
        self.width = width; self.height = height
        shared = Shared(frameCount: frameCount)
        shared.ready.reserveCapacity(4)
        shared.free.reserveCapacity(4)
        for _ in 0..<3 { shared.free.append([UInt8](repeating: 0, count: width * height * 3)) }
    }

    func withLock<T>(_ body: (inout Shared) -> T) -> T {
        condition.lock(); defer { condition.unlock() }
        return body(&shared)
    }

    // MARK: The frame loop's side

    /// Records the clock and takes the frame to upload for `due`, if there is one: `exact`
    /// takes exactly `due` (waiting up to `timeout` seconds for it); otherwise the newest ready
    /// frame not later than `due` and newer than the one shown (any not later, after a backward jump).
    func take(due: Int, time: Double, wall: Double, exact: Bool, timeout: Double) -> VideoSlot? {
        condition.lock(); defer { condition.unlock() }
        shared.clock = (time, wall)
        if shared.start == nil { shared.start = time }
        let moved = due != shared.due
        shared.due = due
        // A new frame falls due: wake the decoder (in realtime it also wakes on its own, on time).
        defer { if moved { condition.broadcast() } }
        guard due != shared.shown else { return nil }
        var index: Int?
        if exact {
            index = shared.ready.firstIndex { $0.frame == due }
            if index == nil {
                condition.broadcast()
                let deadline = Date(timeIntervalSinceNow: timeout)
                while index == nil && shared.failure == nil && !shared.stopping {
                    if !condition.wait(until: deadline) { break }
                    index = shared.ready.firstIndex { $0.frame == due }
                }
            }
        } else {
            let shown = shared.shown
            index = shared.ready.lastIndex { $0.frame <= due && ($0.frame > shown || due < shown) }
        }
        guard let i = index else { return nil }
        let slot = shared.ready.remove(at: i)
        shared.shown = slot.frame
        // Older ready frames can no longer be shown.
        while let f = shared.ready.first, f.frame < slot.frame { shared.free.append(shared.ready.removeFirst().pixels) }
        return slot
    }

    /// Returns an uploaded frame's buffer to the pool.
    func giveBack(_ slot: consuming VideoSlot) {
        let pixels = slot.pixels
        _ = consume slot
        condition.lock()
        shared.free.append(consume pixels)
        condition.broadcast()
        condition.unlock()
    }

    // MARK: The decode thread

    /// The decode loop: runs until `stop`.
    func run() {
        condition.lock()
        while !shared.stopping {
            guard let target = nextTarget() else {
                let wake = wakeTime()
                _ = condition.wait(until: wake)
                continue
            }
            // A buffer: a free one, else the oldest ready frame no longer wanted.
            var buffer: [UInt8]
            let due = dueNow()
            if let b = shared.free.popLast() {
                buffer = b
            } else if let i = shared.ready.firstIndex(where: { $0.frame != due && $0.frame != due + 1 }) {
                buffer = shared.ready.remove(at: i).pixels
            } else {
                _ = condition.wait(until: Date(timeIntervalSinceNow: 0.1))
                continue
            }
            let count = shared.frameCount
            condition.unlock()
            let result = decode(target, into: &buffer, frameCount: count)
            condition.lock()
            switch result {
            case .success(let (clip, learned)):
                if let learned { shared.frameCount = learned }
                var at = shared.ready.endIndex
                while at > 0 && shared.ready[at - 1].frame > target { at -= 1 }
                shared.ready.insert(VideoSlot(frame: target, clipFrame: clip, pixels: consume buffer), at: at)
                let due = dueNow()
                if shared.ready.count > 2, let i = shared.ready.firstIndex(where: { $0.frame != due && $0.frame != due + 1 }) {
                    shared.free.append(shared.ready.remove(at: i).pixels)
                }
            case .failure(let error):
                shared.failure = "\(error)"
                shared.free.append(buffer)
            }
            condition.broadcast()
        }
        condition.unlock()
    }

    /// Asks the decode loop to end (its thread is joined by the texture).
    func stop() {
        condition.lock()
        shared.stopping = true
        condition.broadcast()
        condition.unlock()
    }

    /// Whether `frame` is decoded, being shown, or ready (caller holds the lock).
    private func have(_ frame: Int) -> Bool {
        frame == shared.shown || shared.ready.contains { $0.frame == frame }
    }

    /// The frame due now by the extrapolated frame clock (realtime; at most 1 s past the last
    /// advance), else the last one asked for.
    private func dueNow() -> Int {
        guard realtime, let c = shared.clock, let start = shared.start else { return shared.due }
        let t = c.time + min(1, max(0, MonotonicClock.now() - c.wall))
        let f = ((t - start) * fps + 1e-6).rounded(.down)
        return max(shared.due, f > 0 ? (f < 1e15 ? Int(f) : Int(1e15)) : 0)
    }

    /// The next frame to decode, or nil when there is nothing to do (caller holds the lock).
    private func nextTarget() -> Int? {
        if shared.failure != nil { return nil }
        let due = dueNow()
        if !realtime {
            if !have(due) { return due }
            return have(due + 1) ? nil : due + 1           // prefetch while the due frame is drawn
        }
        if due < shared.shown && !have(due) { return due }   // the clock jumped back: seek
        // The due frame and the next, decoding forward only (skipping frames when behind).
        if !have(due) && due >= nextFrame { return due }
        if !have(due + 1) && due + 1 >= nextFrame { return due + 1 }
        return nil
    }

    /// When to look again with nothing to do: when the next frame falls due (realtime), else on a signal.
    private func wakeTime() -> Date {
        guard realtime, shared.failure == nil, let c = shared.clock, let start = shared.start else {
            return Date(timeIntervalSinceNow: 1)
        }
        let nextDue = start + Double(dueNow() + 1) / fps            // frame-clock time
        let wait = min(0.5, max(0.001, nextDue - c.time - (MonotonicClock.now() - c.wall)))
        return Date(timeIntervalSinceNow: wait)
    }

    /// Decodes frame `target` into `buffer` (reading forward, or rewinding first when it lies
    /// behind the file position). Returns the clip frame and, when the file ended early, the
    /// learned frame count.
    private func decode(_ target: Int, into buffer: inout [UInt8], frameCount: Int) -> Result<(Int, Int?), Error> {
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
                if withLock({ $0.stopping }) { throw CancellationError() }   // a long skip ends with the texture
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
    private func readNext(_ count: inout Int, _ learned: inout Int?) throws -> Bool {
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
