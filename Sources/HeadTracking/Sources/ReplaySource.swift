// ReplaySource — plays a head-track log, in real time or sampled at given times.
import RenderCore
import Foundation
import Workers

/// Plays a `PoseLog` (already in screen space) with linear interpolation between samples,
/// optionally looping, at a speed factor.
///
/// Two ways to use it:
/// - **Deterministic** (bench, export, tests): call `sample(at:)` with the frame time; no
///   thread, no clock.
/// - **Live** (window): `start()` spawns a thread that publishes `sample(at: clock() − start)`
///   every `1/publishRate` seconds through a `Locked`; `latest()` returns the newest.
public final class ReplaySource: PoseSource {
    /// The log, shifted to start at t = 0.
    public let log: PoseLog
    /// Playback speed factor (2 = twice as fast).
    public let speed: Double
    /// Whether playback wraps around at the end.
    public let loop: Bool
    /// Live publishing rate in Hz.
    public let publishRate: Double
    private let clock: ClockFunction
    private let worker = BackgroundThread(name: "splatframe.replay")
    private let state = Locked<(start: Double, latest: PoseSample?)>((0, nil))

    /// Creates a replay of `log` (samples sorted by time; at least one).
    public init(log: PoseLog, speed: Double = 1, loop: Bool = false, publishRate: Double = 120,
                clock: @escaping ClockFunction = MonotonicClock.now) {
        self.log = log.startingAtZero()
        self.speed = speed > 0 && speed.isFinite ? speed : 1
        self.loop = loop
        self.publishRate = publishRate > 0 ? publishRate : 120
        self.clock = clock
    }

    public var name: String { "replay" }

    /// Playback length in seconds of replay time (log duration / speed).
    public var duration: Double { log.duration / speed }

    /// The interpolated sample `t` seconds after playback started (replay time; the log time
    /// is `t · speed`, wrapped when looping). The sample's timestamp and publish time are `t`.
    /// Nil before the start or after the end (when not looping) — the tracker then treats
    /// the head as lost.
    public func sample(at t: Double) -> PoseSample? {
        let s = log.samples
        guard let first = s.first, let last = s.last, t.isFinite, t >= 0 else { return nil }
        var lt = t * speed
        let d = last.timestamp
        if lt > d {
            if !loop { return nil }
            if d <= 0 { return first.at(t) }
            lt = lt.truncatingRemainder(dividingBy: d)
        }
        if s.count == 1 || lt <= first.timestamp { return first.at(t) }
        // Binary search for the segment [i, i+1] containing lt.
        var lo = 0, hi = s.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if s[mid].timestamp <= lt { lo = mid } else { hi = mid }
        }
        let a = s[lo], b = s[hi]
        let span = b.timestamp - a.timestamp
        let u = span > 0 ? min(max((lt - a.timestamp) / span, 0), 1) : 0
        var out = PoseSample(timestamp: t, position: a.position + (b.position - a.position) * u,
                             confidence: min(a.confidence, b.confidence))
        if let ra = a.rotation, let rb = b.rotation { out.rotation = ra + (rb - ra) * u }
        if let ea = a.eyeSpan, let eb = b.eyeSpan { out.eyeSpan = ea + (eb - ea) * u }
        return out
    }

    public func start() throws {
        guard !worker.isRunning else { return }
        state.withLock { $0 = (clock(), nil) }
        let period = 1 / publishRate
        worker.start(loop: { [self] in
            let now = clock()
            let start = state.withLock { $0.start }
            var s = sample(at: now - start)
            s?.timestamp = now; s?.publishTime = now
            state.withLock { $0.latest = s }
            worker.pause(period)
        })
    }

    public func stop() { worker.stop() }

    public func latest() -> PoseSample? { state.withLock { $0.latest } }
}

extension PoseSample {
    /// This sample re-stamped at `t` (timestamp and publish time).
    func at(_ t: Double) -> PoseSample {
        var s = self; s.timestamp = t; s.publishTime = t; return s
    }
}
