// LatencyMeter — head-pose-to-frame latency: publish → frame complete (→ presented).
import HeadTracking
import RenderCore

/// Measures motion-to-photon latency in software terms: from the moment a head pose was
/// *published* by its source to the moment the frame built from it was *complete* (rendered
/// into the framebuffer) and, in the window, *presented*. All times are seconds on
/// `MonotonicClock`; results are milliseconds.
///
/// Allocation-free after `init` (a fixed ring of the last `capacity` frames), so the frame
/// loop can call it every frame. Not thread-safe: call from the frame loop only.
///
/// Window HUD (live source; `pose.latency` is frame time − the sample's publish time):
/// ```swift
/// let meter = LatencyMeter()                      // once
/// let t = MonotonicClock.now()
/// let pose = session.pose(at: t)
/// render(...)
/// meter.frameComplete(pose: pose, at: MonotonicClock.now())
/// present()
/// meter.presented(at: MonotonicClock.now())
/// hud("latency \(meter.summary().completeMedianMs) ms")   // or .presentedMedianMs
/// ```
/// Bench (`--track`): replay is sampled by frame time, so the publish time is defined as the
/// moment the frame loop obtains the sample: `meter.frameComplete(publishedAt: t0, at: t1)`.
public final class LatencyMeter {
    /// Rolling window length in frames.
    public let capacity: Int
    private var complete: [Double]
    private var presented: [Double]
    private var scratch: [Double]
    private var next = 0, count = 0
    private var pendingPublish: Double?
    /// Publish time of the newest completed frame (seconds), waiting for `presented(at:)`.
    private var lastPublish: Double?

    /// A meter keeping the last `capacity` frames (default 120, about 2 s at 60 Hz).
    public init(capacity: Int = 120) {
        self.capacity = max(1, capacity)
        complete = Array(repeating: .nan, count: self.capacity)
        presented = Array(repeating: .nan, count: self.capacity)
        scratch = []
        scratch.reserveCapacity(self.capacity)
    }

    /// Records a frame whose pose was published at `publishTime` and finished rendering at
    /// `completeTime` (seconds, `MonotonicClock`). Returns the latency in milliseconds.
    @discardableResult
    public func frameComplete(publishedAt publishTime: Double, at completeTime: Double) -> Double {
        let ms = (completeTime - publishTime) * 1000
        complete[next] = ms
        presented[next] = .nan
        lastPublish = publishTime
        next = (next + 1) % capacity
        count = min(count + 1, capacity)
        return ms
    }

    /// Records a frame built from `pose` (a live pose: its publish time is
    /// `pose.time − pose.latency`). Frames without a sample (`pose.latency == nil`) are skipped.
    @discardableResult
    public func frameComplete(pose: HeadPose, at completeTime: Double) -> Double? {
        guard let l = pose.latency else { lastPublish = nil; return nil }
        return frameComplete(publishedAt: pose.time - l, at: completeTime)
    }

    /// Records that the newest completed frame reached the screen at `time` (after the
    /// window's present/swap returned). Returns publish → presented in milliseconds.
    @discardableResult
    public func presented(at time: Double) -> Double? {
        guard let p = lastPublish, count > 0 else { return nil }
        let i = (next + capacity - 1) % capacity
        presented[i] = (time - p) * 1000
        lastPublish = nil
        return presented[i]
    }

    /// Rolling statistics over the last `capacity` frames, in milliseconds (0 when empty).
    public struct Summary: Sendable, Equatable {
        /// Frames in the window.
        public var frames: Int
        /// Median publish → complete.
        public var completeMedianMs: Double
        /// 90th percentile publish → complete.
        public var completeP90Ms: Double
        /// Median publish → presented (0 when nothing was presented).
        public var presentedMedianMs: Double
        /// 90th percentile publish → presented.
        public var presentedP90Ms: Double
    }

    /// The current rolling summary (sorts a reused scratch array; no allocation).
    public func summary() -> Summary {
        func stats(_ values: [Double]) -> (Double, Double) {
            scratch.removeAll(keepingCapacity: true)
            for v in values where !v.isNaN { scratch.append(v) }
            guard !scratch.isEmpty else { return (0, 0) }
            scratch.sort()
            return (FrameStatistics.percentile(scratch, 50), FrameStatistics.percentile(scratch, 90))
        }
        let c = stats(complete), p = stats(presented)
        return Summary(frames: count, completeMedianMs: c.0, completeP90Ms: c.1, presentedMedianMs: p.0, presentedP90Ms: p.1)
    }
}
