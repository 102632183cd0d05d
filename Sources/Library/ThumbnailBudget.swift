// ThumbnailBudget — the frame-time governor's rule for the library's thumbnails: each scene is
// drawn once, so the cost is learned across them, not across frames of one.

/// The splat budget of the next thumbnail of a capture with levels of detail: what should draw
/// it in `targetMs`, from the milliseconds per splat the thumbnails before it took (their render
/// time, chunk decoding left out), the ladder's floor and top as the window's governor has them.
/// Before anything is measured, the scene's own start. The learned cost follows the machine:
/// a thumbnail drawn while other programs load it raises the cost, and the next ones draw less.
public struct ThumbnailBudget: Sendable, Equatable {
    /// The time a thumbnail may take to draw (ms).
    public var targetMs: Double
    /// Milliseconds per splat, smoothed over the thumbnails drawn (nil: none yet).
    public private(set) var msPerSplat: Double?

    /// - Parameter targetMs: the time a thumbnail may take (the library draws them one by one
    ///   beside the grid; 60 ms keeps a page of them within a few seconds on two cores).
    public init(targetMs: Double = 60) { self.targetMs = targetMs }

    /// The budget for a scene whose ladder runs from `floor` to `whole` splats, `start` before
    /// any thumbnail was measured.
    public func budget(floor: Int, whole: Int, start: Int) -> Int {
        let top = max(1, whole), bottom = max(1, min(floor, top))
        guard let msPerSplat, msPerSplat > 0 else { return min(top, max(bottom, start)) }
        let wanted = targetMs / msPerSplat
        return wanted >= Double(top) ? top : min(top, max(bottom, Int(wanted)))
    }

    /// A thumbnail showing `splats` splats took `ms` to draw (decoding left out).
    public mutating func record(ms: Double, splats: Int) {
        guard splats > 0, ms.isFinite, ms > 0 else { return }
        let m = ms / Double(splats)
        msPerSplat = msPerSplat.map { 0.5 * $0 + 0.5 * m } ?? m
    }
}
