// SplatLOD — LODOptions: how a capture is drawn through levels of detail: the splat budget, a
// forced level, the pixel threshold, the chunk cache's bound, where built trees are kept and the
// memory a tree's build may take.
import Foundation

/// Options of a level-of-detail splat scene (`--splat-budget`, `--lod`).
public struct LODOptions: Sendable, Equatable {
    /// The default budget: the most splats a frame draws, sized so the window holds 30 fps at
    /// 1280×720 on the 2-core reference machine with the playbot (README, "Streamed SOG"): there
    /// it draws level 3 (31,000 splats) in ~27 ms a frame; the next selection up (79,041 splats,
    /// levels 2 and 3) takes ~35 ms. Fill, not the splat count, dominates a frame's cost.
    public static let defaultBudget = 50_000
    /// Most splats per frame (nil: no budget — every leaf at its wanted level).
    public var budget: Int? = LODOptions.defaultBudget
    /// A level every leaf draws (0 = finest), overriding the heuristic and the budget.
    public var forcedLevel: Int?
    /// Leaves go straight to the level they want, not one level a frame, loading no level in
    /// between (a governor's still eye: the whole picture as soon as its chunks are decoded;
    /// moving the head abandons the long frame that draws it).
    public var refinesAtOnce = false
    /// Realtime only: after everything a frame asks for, ask (last) for the levels the view wants
    /// without the budget — what a governor's still eye refines to — when they fit in half the
    /// chunk cache (`LODMemory.ceiling`), so that a head that stops finds them decoded and its
    /// whole picture waits for no decoding. Set while a governor governs (`BudgetedScene.follow`).
    public var warmsStillView = false
    /// Pixels between neighbouring splats a leaf's level should not exceed (`LODSelector`).
    public var pixelThreshold: Float = 1
    /// Whether a binding budget is spent by each leaf's measured visible area (`LODSelector`);
    /// false keeps the box rule throughout (tests whose small image stands for the centre of a
    /// full frame, where what that crop shows is not what the frame would).
    public var spendsBudgetByVisibleArea = true
    /// Bytes of decoded chunks kept (LRU) beyond those the frame pins (`defaultCacheBytes`).
    public var cacheBytes = LODOptions.defaultCacheBytes
    /// A sixth of the machine's memory, at least 1 GiB and at most 8 GiB. The bound also sets the
    /// most splats a frame may show (`LODMemory.ceiling`: half of it): with a fixed 1 GiB that was
    /// 1.47M SH 3 splats on any machine, so a still eye never got the whole 4M room even with 23 GB
    /// free; a sixth lets a 24 GB machine show 5.3M, and an 8 GB one keeps 1.3 GB.
    public static let defaultCacheBytes: Int = {
        let sixth = Int(clamping: ProcessInfo.processInfo.physicalMemory / 6)
        return min(8 << 30, max(1 << 30, sixth))
    }()
    /// Whether the budget was named (`--splat-budget N`): a plain capture of any size then gets
    /// levels of detail; otherwise only one above `wholeCaptureLimit` does.
    public var budgetNamed = false
    /// `--splat-budget auto`: the budget is the frame-time governor's to choose (the window's
    /// default; named explicitly, a plain capture of any size gets levels of detail too).
    public var automaticBudget = false
    /// Whether the budget is fixed by the user: a count named, none (whole), or a forced level.
    public var budgetIsPinned: Bool { budget == nil || (budgetNamed && !automaticBudget) || forcedLevel != nil }
    /// Where plain captures' trees are kept (the window: `$XDG_CACHE_HOME/splatframe/lod`; render,
    /// bench and export: only a `--lod-cache` folder); nil builds them in memory.
    public var treeCache: LODCache?
    /// Bytes reading a plain capture whole and building its tree in memory may take
    /// (`LODBuilder.estimatedPeakBytes`, `--max-memory`, default 2 GiB). A capture that needs more
    /// is built out of core into `treeCache` (`CaptureLOD.makeOutOfCore`), never held whole; the
    /// window shows a subsample of it meanwhile.
    public var maxMemoryBytes = OutOfCoreBuilder.defaultMaxMemory
    /// Most splats of the subsample the window shows while a capture too large for
    /// `maxMemoryBytes` is built out of core: a coarse picture read in a few seconds.
    public var previewSplats = 250_000
    /// Plain captures above this many splats get levels of detail by default: a whole capture
    /// of more cannot hold 30 fps at 1280×720 on a 2-core machine (the 500k playbot draws whole
    /// at ~18 fps there; 300k at ~30). A count, not a measurement, so `render` and `bench`
    /// draw the same frames on every machine.
    public static let wholeCaptureLimit = 300_000
    public init() {}

    /// Whether a plain capture of `splats` splats is drawn through levels of detail: a forced
    /// level always; else under a budget that was named, or by default above `wholeCaptureLimit`;
    /// never with `--splat-budget none`.
    public func drawsLevels(captureSplats splats: Int) -> Bool {
        forcedLevel != nil || (budget != nil && (budgetNamed || splats > Self.wholeCaptureLimit))
    }
}
