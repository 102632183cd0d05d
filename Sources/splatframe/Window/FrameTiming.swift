// FrameTiming — the scene screen's clocks: render times of the last 120 frames (the HUD's and the
// title's rate), pose publish → frame complete / presented (`LatencyMeter`, summarised once a
// second), and the lead the tracker predicts by (pose read → present, median of the last 30).
import Foundation
import HeadTracking
import Viewer

/// Frame and latency timing of the scene screen. Frame loop only.
struct FrameTiming {
    /// Pose publish → frame complete / presented, over the last 120 frames.
    private let latency = LatencyMeter()
    /// The last summary (`refresh`), shown by the HUD.
    private(set) var latencySummary: LatencyMeter.Summary?
    /// Render times (ms), last 120 frames.
    private var frameTimes: [Double] = []
    /// Pose read → present, what prediction aims at.
    private var lead = PresentLeadEstimator()

    /// A frame was rendered with `pose` and completed at `complete` (monotonic s), taking `renderMs`.
    mutating func frameComplete(pose: HeadPose, at complete: Double, renderMs: Double) {
        _ = latency.frameComplete(pose: pose, at: complete)
        frameTimes.append(renderMs)
        if frameTimes.count > 120 { frameTimes.removeFirst(frameTimes.count - 120) }
    }

    /// The frame whose pose was read at `viewTime` was presented at `presented` (monotonic s).
    /// Returns the lead prediction should aim at: the recent median of pose read → present.
    mutating func presented(at presented: Double, viewTime: Double) -> Double {
        _ = latency.presented(at: presented)
        return lead.presented(at: presented, viewTime: viewTime)
    }

    /// Summarises the latency (once a second).
    mutating func refresh() { latencySummary = latency.summary() }

    /// Median render time of the last 120 frames (ms; 1 before any).
    var medianFrameMs: Double {
        guard !frameTimes.isEmpty else { return 1 }
        let s = frameTimes.sorted()
        return max(0.001, s[s.count / 2])
    }
}
