// SequenceDecodeAhead — an animated capture's frames decoded (and prepared for the renderer) on
// a background thread ahead of the play head, within a memory bound, so the window's frame loop
// never waits for a decoder: it takes a frame when it is ready and keeps the previous one when not.
import SplatRender
import Workers

/// Decodes frames in playing order from the play head on, keeping the next ones that fit in
/// `budgetBytes` (`PreparedSplats.bytes`).
///
/// Policy: walking the loop from the play head, frames already decoded count their bytes, frames
/// not yet decoded count the largest frame seen so far (room is kept for them); a frame is kept
/// while the running total stays within the budget, and the first missing one is decoded next
/// when it fits. The frame at the play head is always kept and decoded, so a single frame larger
/// than the budget still plays. A frame larger than any before it may turn out not to fit once
/// decoded: it is dropped and decoded again when there is room (sizes are learnt in the first
/// loop; later loops decode each frame once). Memory: the cache's bytes ≤ max(budget, one frame), plus the frame
/// being decoded. When the whole loop fits, every frame stays decoded and playback never waits.
///
/// A frame that fails to decode is remembered as failed (with its one-line error) and not tried
/// again. Thread-safe; the decoding thread stops in `stop()` (its owner's `deinit`).
public final class SequenceDecodeAhead: Sendable {
    /// Decodes frame `index` to prepared splats, on the decoding thread.
    public typealias Decode = @Sendable (Int) throws -> sending PreparedSplats

    /// What `take` found for a frame.
    public enum Outcome {
        case ready(PreparedSplats)
        case failed(String)
    }

    /// Figures for the HUD and tests.
    public struct Figures: Sendable, Equatable {
        /// Bytes of the frames held now, and the most they ever held.
        public var cachedBytes = 0, peakBytes = 0
        /// Frames held now (decoded or failed).
        public var cachedFrames = 0
        /// Frames decoded so far (a frame decoded again after eviction counts again).
        public var decoded = 0
    }

    fileprivate struct State {
        var playhead = 0
        /// Each frame's outcome in a lock of its own: handed from the decoding thread whole (`sending`).
        var cache: [Int: (outcome: Locked<Outcome>, bytes: Int)] = [:]
        var inFlight: Int?
        var estimate = 0
        var stopping = false
        var figures = Figures()
    }

    /// Frames in the loop.
    public let count: Int
    /// The memory bound for decoded frames (bytes).
    public let budgetBytes: Int
    fileprivate let state = Locked(State())
    private let thread = BackgroundThread(name: "splatframe.seq")

    /// Starts decoding from frame 0 on its own thread.
    public init(count: Int, budgetBytes: Int, decode: @escaping Decode) {
        self.count = max(1, count); self.budgetBytes = budgetBytes
        let (state, n, budget) = (state, self.count, budgetBytes)
        thread.start {
            let job = state.wait(until: { $0.stopping || $0.next(count: n, budget: budget) != nil }, timeout: 0.25) { s, _ -> Int? in
                guard !s.stopping, let i = s.next(count: n, budget: budget) else { return nil }
                s.inFlight = i
                return i
            }
            guard let job else { return true }
            let outcome: Locked<Outcome>, bytes: Int
            do {
                let prepared = try decode(job)
                bytes = prepared.bytes
                outcome = Locked(.ready(prepared))
            } catch {
                (outcome, bytes) = (Locked(.failed("\(error)")), 0)
            }
            state.update { s in
                s.inFlight = nil
                s.figures.decoded += 1
                s.estimate = max(s.estimate, bytes)
                s.cache[job] = (outcome, bytes)
                s.trim(count: n, budget: budget)
            }
            return true
        }
    }

    /// Moves the play head to `index` and returns that frame if it is decoded (nil: not yet — keep
    /// showing the previous one). Never blocks for a decode.
    public func take(_ index: Int) -> Outcome? {
        // The decoding thread is woken only when the play head moves.
        let entry = state.withLock { s -> Locked<Outcome>?? in s.playhead == index ? .some(s.cache[index]?.outcome) : nil }
            ?? state.update { s -> Locked<Outcome>? in
                s.playhead = index
                s.trim(count: count, budget: budgetBytes)
                return s.cache[index]?.outcome
            }
        return entry?.withLock { $0 }
    }

    /// Whether frame `index` is decoded (or failed) now.
    public func isReady(_ index: Int) -> Bool { state.withLock { $0.cache[index] != nil } }

    /// The cache's figures now.
    public var figures: Figures { state.withLock { $0.figures } }

    /// Stops the decoding thread (waiting up to `timeout` seconds for a frame being decoded).
    public func stop(timeout: Double = 10) {
        state.update { $0.stopping = true }
        thread.stop(timeout: timeout)
    }
}

extension SequenceDecodeAhead.State {
    /// The frames from the play head on, in playing order.
    private func order(count: Int) -> [Int] { (0..<count).map { (playhead + $0) % count } }

    /// The next frame to decode: the first missing one from the play head, if it fits.
    func next(count: Int, budget: Int) -> Int? {
        guard inFlight == nil else { return nil }
        var total = 0
        for (k, i) in order(count: count).enumerated() {
            if let c = cache[i] { total += c.bytes; continue }
            return k == 0 || total + estimate <= budget ? i : nil
        }
        return nil
    }

    /// Drops the frames that no longer fit in playing order from the play head.
    mutating func trim(count: Int, budget: Int) {
        var total = 0
        for (k, i) in order(count: count).enumerated() {
            guard let c = cache[i] else {
                total += estimate
                continue
            }
            if k == 0 || total + c.bytes <= budget { total += c.bytes } else { cache[i] = nil }
        }
        figures.cachedBytes = cache.values.reduce(0) { $0 + $1.bytes }
        figures.cachedFrames = cache.count
        figures.peakBytes = max(figures.peakBytes, figures.cachedBytes)
    }
}
