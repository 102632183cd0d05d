// FrameTimeGovernor — chooses each frame's splat budget (and, only when the budget's floor cannot
// hold the target, the render scale) from measured frame times, so that a level-of-detail capture
// shows the most the machine can draw within the target frame time. No clock of its own: the
// caller gives each frame's render time and its own time stamp, so tests drive it with a fake
// clock and a synthetic cost. Contract: `budget` and `renderScale` are what the next frame draws
// with; `frameFinished` is called once per drawn frame with what that frame took.
import Foundation

/// Holds a target frame time by choosing the splat budget from a ladder of budgets, each 1.25×
/// the one below, from a floor up to the whole capture.
///
/// - **Cost, learned online.** A frame's time is modelled as `t ∝ splats^p` around the current
///   rung: the current rung's recent median says where the machine is *now* (load from other
///   programs included); each rung's time is remembered once its levels have stepped in
///   (`settleFrames`) or when it had to be left, and a rung's prediction is its remembered time
///   scaled by how the current rung's time has changed since it was remembered. An unmeasured
///   rung is predicted by `t ∝ splats^p`, the elasticity `p` (how much of a frame grows with its
///   splats, the rest being fill and fixed work) fitted from the rungs measured so far (log–log
///   slope of their remembered times, prior 0.6).
/// - **Down fast.** When the median of the last 3 frames exceeds the target (twice the target
///   while a new rung's levels step in: its first `settleFrames` frames), the budget falls at
///   once to the highest rung predicted to take at most 85 % of it.
/// - **Up slowly, with hysteresis.** Only after `holdFrames` frames on a rung whose median is
///   within 80 % of the target, while the budget binds (the scene reports that a larger one would
///   show more: `BudgetedScene.budgetBinds`), and
///   only if the next rung is predicted within 85 % (up to three rungs at once while each is
///   predicted within 70 %). A rung that had to be left soon after it was
///   entered is barred for a hold that doubles each time (`barredUntil`): no flicker.
/// - **Render scale last.** Only at the floor rung and still over the target does the render
///   scale drop (steps of `scales`); it comes back up before any budget rises.
/// - **Still head.** When the eye has been still for `stillSeconds` and the levels it wants are
///   decoded (`BudgetedScene.stillViewReady`; until then it stays governed), `budget` becomes the
///   whole capture (`isRefining`), beyond what the target allows (the levels go straight to what
///   the view wants, `BudgetedScene.refinesAtOnce`); the first frame after the eye moves again
///   returns to the governed rung (whose memory is kept).
public final class FrameTimeGovernor {
    /// What the governor aims for and where its ladder ends.
    public struct Settings: Sendable, Equatable {
        /// The frame time to hold (ms).
        public var targetMs: Double
        /// The smallest budget (splats): the ladder's floor.
        public var floor: Int
        /// The whole capture (splats): the ladder's top.
        public var whole: Int
        /// The first budget (splats), before anything is measured.
        public var start: Int
        /// Render scales (fractions of the window's pixels per axis) tried, largest first.
        public var scales: [Double] = [1, 0.85, 0.7, 0.6, 0.5]
        /// Seconds the eye must have been still before the picture refines towards the whole capture.
        public var stillSeconds = 0.3
        public init(targetMs: Double, floor: Int, whole: Int, start: Int) {
            self.targetMs = targetMs; self.floor = max(1, min(floor, whole)); self.whole = max(1, whole)
            self.start = min(max(start, self.floor), self.whole)
        }
    }

    /// The settings; `targetMs` may change between frames.
    public var settings: Settings
    /// The budgets, floor to whole, each 1.25× the one below (through the start budget; the first
    /// and last steps may be shorter).
    public let rungs: [Int]
    /// The governed rung (index into `rungs`).
    public private(set) var rung: Int
    /// The rung drawn while the eye is still (≥ `rung`), nil while it moves.
    public private(set) var refineRung: Int?
    /// Index into `settings.scales` of the render scale in effect.
    public private(set) var scaleIndex = 0
    /// Remembered time (ms) of each rung at full scale, once measured (nil: never).
    public private(set) var memory: [Double?]
    /// The fitted elasticity of frame time in splats (0.2…1.2).
    public private(set) var elasticity = FrameTimeGovernor.priorElasticity
    /// Budget changes so far (for tests and the bench's report).
    public private(set) var changes = 0

    /// The pixel threshold a governed scene is drawn with (`BudgetedScene.pixelThreshold`): a
    /// quarter pixel, so that the budget binds and the time the target leaves is spent on detail
    /// that still brings the picture closer to the whole capture.
    public static let governedPixelThreshold: Float = 0.25
    /// Frames a rung is drawn before its time is trusted (the levels step in one per frame).
    public static let settleFrames = 4
    /// Frames on a rung before the budget may rise.
    public static let holdFrames = 8
    /// The elasticity assumed before two rungs are measured.
    public static let priorElasticity = 0.6
    static let ladderRatio = 1.25

    private var recent: [Double] = []
    /// Scratch reused every frame (medians, the elasticity fit).
    private var sortScratch: [Double] = [], xs: [Double] = [], ys: [Double] = []
    private var framesOnRung = 0
    private var bindingFrames = 0
    private var frame = 0
    private var enteredAt: [Int]
    private var barredUntil: [Int]
    private var barHold: [Int]
    private var stillSince: Double?

    public init(_ settings: Settings) {
        self.settings = settings
        // The ladder passes through the start budget exactly: down to the floor, up to the whole.
        var below: [Int] = [], above: [Int] = []
        var b = Double(settings.start) / Self.ladderRatio
        while Int(b) > settings.floor + settings.floor / 10 { below.append(Int(b)); b /= Self.ladderRatio }
        b = Double(settings.start) * Self.ladderRatio
        while Int(b) < settings.whole { above.append(Int(b)); b *= Self.ladderRatio }
        var r = [settings.floor] + below.reversed()
        if settings.start > settings.floor { r.append(settings.start) }
        r += above
        if settings.whole > r.last! { r.append(settings.whole) }
        rungs = r
        rung = r.lastIndex(where: { $0 <= settings.start }) ?? 0
        memory = Array(repeating: nil, count: r.count)
        enteredAt = Array(repeating: 0, count: r.count)
        barredUntil = Array(repeating: 0, count: r.count)
        barHold = Array(repeating: 0, count: r.count)
    }

    /// The budget the next frame draws with (splats).
    public var budget: Int { rungs[refineRung ?? rung] }
    /// The governed budget (splats), without the still head's refinement.
    public var governedBudget: Int { rungs[rung] }
    /// The render scale the next frame draws with (fraction of the window's pixels per axis).
    public var renderScale: Double { refineRung != nil ? 1 : settings.scales[scaleIndex] }
    /// Whether the picture is refining towards the whole capture because the eye is still.
    public var isRefining: Bool { refineRung != nil }
    /// Whether the eye has been still long enough to refine but the levels it wants are still
    /// being decoded (`BudgetedScene.stillViewReady`): the frames stay governed meanwhile.
    public private(set) var awaitsStillView = false
    /// Whether the budget is the whole capture.
    public var drawsWhole: Bool { budget >= settings.whole }

    /// Records a drawn frame: its render time (`ms`), whether its budget bound (a larger one would
    /// have shown more: `BudgetedScene.budgetBinds`), whether the eye was still (moved less than
    /// the tracker's still jitter since the last frame), whether the still eye's levels are
    /// decoded (`BudgetedScene.stillViewReady`: the refinement waits for them, governed, so that
    /// the whole picture comes in one step and the frames before it leave the cores to the
    /// decoding), and when (`time`, seconds on the caller's clock).
    public func frameFinished(ms: Double, budgetBinds: Bool, eyeStill: Bool, stillViewReady: Bool = true, at time: Double) {
        frame += 1
        if !eyeStill {
            stillSince = nil
            if refineRung != nil { refineRung = nil; changes += 1; resetWindow() }
        } else if stillSince == nil {
            stillSince = time
        }
        if refineRung != nil { awaitsStillView = false; return }   // refining: the times are not the governed rung's
        let stillLongEnough = stillSince.map { time - $0 >= settings.stillSeconds } ?? false
        awaitsStillView = stillLongEnough && !stillViewReady && rung + 1 < rungs.count
        if stillLongEnough, stillViewReady, rung + 1 < rungs.count {
            // The whole capture at once: the scene asks for the wanted levels' chunks alone and
            // shows each as it arrives (`refinesAtOnce`; in the window they are all decoded
            // already, `stillViewReady`; no level in between is decoded: the 1M
            // room's whole picture came 1.47 → 0.6–0.95 s after a still start). A long frame is
            // abandoned when the head moves (`frameAbandoned`).
            refineRung = rungs.count - 1; changes += 1
            return
        }
        observe(ms: ms, budgetBinds: budgetBinds)
    }

    /// A still eye's frame was abandoned because the eye moved (`SplatRenderer.abandonCheck`):
    /// back to the governed rung at once, nothing learned from the partial frame.
    public func frameAbandoned() {
        stillSince = nil
        if refineRung != nil { refineRung = nil; changes += 1; resetWindow() }
    }

    private func observe(ms: Double, budgetBinds: Bool) {
        framesOnRung += 1
        recent.append(ms)
        if recent.count > 5 { recent.removeFirst() }
        bindingFrames = budgetBinds ? bindingFrames + 1 : 0
        let target = settings.targetMs
        let scale = settings.scales[scaleIndex]
        let last3 = median(recent.suffix(3))
        if framesOnRung >= Self.settleFrames {
            let full = median(recent[...]) / (scale * scale)
            memory[rung] = memory[rung].map { 0.7 * $0 + 0.3 * full } ?? full
            fitElasticity()
        }
        // Over the target: down at once (the median of three frames, so one slow frame alone does
        // not move it), remembering what this rung took.
        // While a new rung's levels step in (and, frame-exact, its chunks are decoded on the
        // frame's thread) only a frame twice over the target counts.
        let settling = framesOnRung < Self.settleFrames
        if recent.count >= 3 && last3 > (settling ? 2 * target : target) {
            if memory[rung] == nil || framesOnRung < Self.settleFrames { memory[rung] = max(memory[rung] ?? 0, last3 / (scale * scale)) }
            if rung > 0 { stepDown(now: last3) } else if scaleIndex + 1 < settings.scales.count { setScale(scaleIndex + 1) }
            return
        }
        guard framesOnRung >= Self.holdFrames, median(recent[...]) <= 0.8 * target else { return }
        let now = median(recent[...])
        if scaleIndex > 0 {
            let up = settings.scales[scaleIndex - 1]
            if now * (up * up) / (scale * scale) <= 0.85 * target { setScale(scaleIndex - 1) }
            return
        }
        guard bindingFrames >= Self.settleFrames, rung + 1 < rungs.count, frame >= barredUntil[rung + 1] else { return }
        guard predicted(rung + 1, from: now) <= 0.85 * target else { return }
        // Far below the target: up to three rungs at once, each predicted within 70 %.
        var k = rung + 1
        while k + 1 < rungs.count, k + 1 <= rung + 3, frame >= barredUntil[k + 1], predicted(k + 1, from: now) <= 0.7 * target { k += 1 }
        move(to: k)
    }

    /// The time (ms) rung `k` is predicted to take, from `now` measured on the current rung: the
    /// two rungs' remembered times in proportion when both were measured (a rung once found too
    /// slow stays so until the machine's load falls), else the power law.
    func predicted(_ k: Int, from now: Double) -> Double {
        if let mk = memory[k], let mr = memory[rung], mr > 0 { return now * mk / mr }
        return now * pow(Double(rungs[k]) / Double(rungs[rung]), elasticity)
    }

    private func stepDown(now: Double) {
        var k = rung - 1
        while k > 0 && predicted(k, from: now) > 0.85 * settings.targetMs { k -= 1 }
        // Left soon after it was entered: bar the rung for a hold that doubles each time.
        if frame - enteredAt[rung] < 4 * Self.holdFrames {
            barHold[rung] = max(2 * Self.holdFrames, barHold[rung] * 2)
            barredUntil[rung] = frame + barHold[rung]
        }
        move(to: k)
    }

    private func move(to k: Int) {
        guard k != rung else { return }
        rung = k; enteredAt[k] = frame; changes += 1
        resetWindow()
    }

    private func setScale(_ i: Int) { scaleIndex = i; changes += 1; resetWindow() }

    private func resetWindow() { recent.removeAll(keepingCapacity: true); framesOnRung = 0; bindingFrames = 0 }

    /// Least-squares slope of log(time) on log(splats) over the measured rungs (at least two,
    /// spanning ≥ 1.5×), clamped to 0.2…1.2; the prior until then.
    private func fitElasticity() {
        xs.removeAll(keepingCapacity: true); ys.removeAll(keepingCapacity: true)
        for (k, m) in memory.enumerated() { if let m, m > 0 { xs.append(log(Double(rungs[k]))); ys.append(log(m)) } }
        guard xs.count >= 2, let lo = xs.min(), let hi = xs.max(), hi - lo >= log(1.5) else { return }
        let mx = xs.reduce(0, +) / Double(xs.count), my = ys.reduce(0, +) / Double(ys.count)
        var sxy = 0.0, sxx = 0.0
        for (x, y) in zip(xs, ys) { sxy += (x - mx) * (y - my); sxx += (x - mx) * (x - mx) }
        elasticity = min(1.2, max(0.2, sxy / sxx))
    }

    /// The median of `values`, sorted in `scratch` (reused: no allocation once it has grown).
    public static func median<C: Collection>(_ values: C, scratch: inout [Double]) -> Double where C.Element == Double {
        guard !values.isEmpty else { return 0 }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: values)
        scratch.sort()
        let s = scratch
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
    private func median<C: Collection>(_ values: C) -> Double where C.Element == Double { Self.median(values, scratch: &sortScratch) }
}
