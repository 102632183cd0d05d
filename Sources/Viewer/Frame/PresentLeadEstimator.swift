// PresentLeadEstimator — how long after its pose is read a frame reaches the screen: the recent
// median of pose read → present, which prediction aims at (`HeadTracker.presentLead`).

/// The median of the last 30 frames' pose read → present (seconds). Frame loop only.
public struct PresentLeadEstimator: Sendable {
    private var leads: [Double] = []
    public init() {}

    /// The frame whose pose was read at `viewTime` was presented at `presented` (seconds, one
    /// clock). Returns the lead to predict by now.
    public mutating func presented(at presented: Double, viewTime: Double) -> Double {
        leads.append(presented - viewTime)
        if leads.count > 30 { leads.removeFirst() }
        return leads.sorted()[leads.count / 2]
    }
}
