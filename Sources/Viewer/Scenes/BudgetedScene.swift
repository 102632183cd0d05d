// BudgetedScene — a scene whose splats per frame can be chosen frame by frame (a capture drawn
// through levels of detail): the seam the frame-time governor works through.

/// A scene that draws at most `splatBudget` splats a frame, chosen by the caller between frames.
public protocol BudgetedScene: Scene {
    /// The most splats the next frame draws (nil: the whole capture at the levels the view wants).
    var splatBudget: Int? { get set }
    /// Pixels between neighbouring splats a leaf's level should not exceed when the budget does
    /// not bind (1 by default). A governor lowers it so that the budget it chooses is spent:
    /// finer than a pixel still brings the picture closer to the whole capture.
    var pixelThreshold: Float { get set }
    /// Whether levels go straight to what the view wants rather than one a frame (a governor
    /// sets it while the eye is still: `LODOptions.refinesAtOnce`).
    var refinesAtOnce: Bool { get set }
    /// Whether the levels a still eye will want are decoded ahead, in the background, when they
    /// fit in memory (`LODOptions.warmsStillView`; set while a governor governs).
    var warmsStillView: Bool { get set }
    /// Whether the budget was pinned by the user (`--splat-budget N`): then nothing governs it.
    var budgetIsPinned: Bool { get }
    /// Whether the budget limited the last frame: a larger one would have shown more
    /// (`SplatLevelsOfDetail.budgetBinds`). A governor raises only a budget that binds.
    var budgetBinds: Bool { get }
    /// Whether the levels a still eye wants are all decoded ahead (`warmsStillView`), so that the
    /// whole picture comes in one step and the frames before it stay cheap, leaving the cores
    /// to the decoding (`SplatLevelsOfDetail.stillViewReady`). True when nothing is decoded
    /// ahead (frame-exact, or a still view larger than memory).
    var stillViewReady: Bool { get }
    /// The share (0…1) of the still eye's splats decoded ahead (`SplatLevelsOfDetail.stillViewProgress`).
    var stillViewProgress: Double { get }
    /// Splats of the whole capture (its finest level).
    var wholeSplats: Int { get }
    /// Splats of the coarsest picture (every leaf at its coarsest level): no budget draws fewer.
    var coarsestSplats: Int { get }
    /// The most splats a frame may show within the memory the scene is allowed (its chunk
    /// cache's bound): a governor never asks for more, even for a still eye.
    var splatCeiling: Int { get }
    /// The same capture, placed the same way, drawing its whole finest level every frame (not
    /// streaming): the picture a budget's is measured against. Shares nothing mutable with this one.
    func wholeReference() -> Scene
}

extension BudgetedScene {
    /// The top of a governor's ladder: the whole capture, or as much of it as the memory bound
    /// allows.
    public var governedTop: Int { min(wholeSplats, splatCeiling) }

    /// Draws the next frame as `governor` chose: its budget, and straight to the wanted levels
    /// while it refines for a still eye (each set only when it changes); the still eye's levels
    /// are decoded ahead.
    public func follow(_ governor: FrameTimeGovernor) {
        if splatBudget != governor.budget { splatBudget = governor.budget }
        if refinesAtOnce != governor.isRefining { refinesAtOnce = governor.isRefining }
        if !warmsStillView { warmsStillView = true }
    }
}
