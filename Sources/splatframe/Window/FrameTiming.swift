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
    private var currentLead = 0.0
    /// Per frame (last 120, ms): exposure → pose published, exposure → presented, and how far
    /// ahead of the exposure the pose was predicted (exposure → pose read + the lead).
    private var toPublished: [Double] = [], toPresented: [Double] = [], predictedAhead: [Double] = []
    /// Medians of those (`refresh`), for the HUD; nil without camera samples.
    private(set) var motionToPhoton: (exposureToPublished: Double, exposureToPresented: Double, predicted: Double)?

    /// A frame was rendered with `pose` and completed at `complete` (monotonic s), taking `renderMs`.
    mutating func frameComplete(pose: HeadPose, at complete: Double, renderMs: Double) {
        _ = latency.frameComplete(pose: pose, at: complete)
        frameTimes.append(renderMs)
        if frameTimes.count > 120 { frameTimes.removeFirst(frameTimes.count - 120) }
    }

    /// The frame whose pose was read at `viewTime` was presented at `presented` (monotonic s).
    /// Returns the lead prediction should aim at: the recent median of pose read → present.
    mutating func presented(at presented: Double, viewTime: Double, pose: HeadPose?) -> Double {
        _ = latency.presented(at: presented)
        presents.append(presented)
        if presents.count > 120 { presents.removeFirst() }
        if let pose, let exposure = pose.sampleTime {
            func push(_ v: Double, _ a: inout [Double]) { a.append(v); if a.count > 120 { a.removeFirst() } }
            if let published = pose.samplePublishTime { push((published - exposure) * 1000, &toPublished) }
            push((presented - exposure) * 1000, &toPresented)
            push((viewTime + currentLead - exposure) * 1000, &predictedAhead)
        }
        currentLead = lead.presented(at: presented, viewTime: viewTime)
        return currentLead
    }

    /// Present times (monotonic s), last 120 presents: the rate frames reach the screen.
    private var presents: [Double] = []

    /// Frames presented per second over the recent presents (0 before two).
    var presentRate: Double {
        guard presents.count > 1, let first = presents.first, let last = presents.last, last > first else { return 0 }
        return Double(presents.count - 1) / (last - first)
    }

    /// Summarises the latency (once a second).
    mutating func refresh() {
        latencySummary = latency.summary()
        func median(_ a: [Double]) -> Double { a.isEmpty ? 0 : a.sorted()[a.count / 2] }
        motionToPhoton = toPresented.isEmpty ? nil : (median(toPublished), median(toPresented), median(predictedAhead))
    }

    /// Median render time of the last 120 frames (ms; 1 before any).
    var medianFrameMs: Double {
        guard !frameTimes.isEmpty else { return 1 }
        let s = frameTimes.sorted()
        return max(0.001, s[s.count / 2])
    }
}
