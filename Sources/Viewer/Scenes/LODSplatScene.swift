// LODSplatScene — a level-of-detail splat capture seen through the window: placed like any model
// (`PlacedModel`), its splats chosen, streamed and assembled frame by frame behind SplatLOD's
// `SplatLevelsOfDetail`. Contract: one `levels.update` per advanced frame (every frame when nothing
// advances the scene), then the assembled splats drawn in the model's own frame.
import Foundation
import RenderCore
import SceneIO
import SplatLOD
import SplatRender
import TriangleRaster

/// A streamed SOG seen through the window: placed like a `ModelScene` (the same `SceneFit` and
/// `Placement`, the renderer working in the model's own frame), drawn with level of detail
/// (`StreamedLevels`: choice, step, streaming and assembly).
public final class LODSplatScene: PlacedModelScene {
    public let name: String
    public let sog: StreamedSOG
    /// Where the capture sits: fit, placement, camera-JSON mode, room, background, antialiasing.
    public var model: PlacedModel
    /// The levels drawn: what each frame shows of the tree.
    public let levels: any SplatLevelsOfDetail
    private let realtime: Bool
    private var stepPending = true
    private var advanced = false

    /// Opens the scene for `sog`, fitted by `fit`. `realtime` streams on a background thread (the
    /// window); otherwise chunks load on the frame's thread (deterministic frames).
    public init(name: String, sog: StreamedSOG, fit: SceneFit, placement: Placement, room: TriangleMesh? = nil,
                options: LODOptions = LODOptions(), realtime: Bool) {
        self.name = name; self.sog = sog; self.realtime = realtime
        model = PlacedModel(fit: fit, placement: placement, room: room)
        levels = StreamedLevels(sog: sog, options: options, realtime: realtime)
    }

    /// The budget, forced level and thresholds in effect.
    public var options: LODOptions {
        get { levels.options }
        set { levels.options = newValue }
    }

    public var primitiveKind: PrimitiveKind { .splats }
    /// Splats drawn by the last frame.
    public var primitiveCount: Int { levels.shownSplats }

    public func advance(to time: Double) {
        advanced = true
        stepPending = true
    }

    public func render(camera: Camera, into target: Framebuffer, context: RenderContext) -> FrameStats {
        let t0 = MonotonicClock.now()
        var (stats, cam) = model.beginFrame(target, camera: camera, context: context, splatsCoverTarget: context.splatsCoverTarget)
        if stepPending || !advanced {
            let t = MonotonicClock.now()
            levels.update(camera: cam, threads: context.splats.threads)
            stepPending = false
            stats.lodMs = (MonotonicClock.now() - t) * 1000
            stats.decodeMs = levels.decodeMs
        }
        context.splats.antialias = antialias
        // Under a budget: room for the most splats a frame can show, so that a later, fuller
        // selection grows nothing. (Without one that bound is the whole capture: left to grow.)
        let splats = levels.splats
        // A governed window also makes room for what a still eye will show (`preparesStillView`),
        // the new pages faulted in on a background thread.
        if options.budget != nil { context.splats.reserve(splats: splats.capacity, prefault: levels.preparesStillView) }
        stats.splat = context.splats.render(splats, camera: cam, into: target, depthTest: room != nil)
        stats.totalMs = (MonotonicClock.now() - t0) * 1000
        return stats
    }

    // MARK: - Status

    /// Chunks that could not be read (missing, unreadable, ranges outside), one line each.
    public var problems: [String] { levels.problems }
    /// Whether every leaf shows the level it wants and nothing it wants is still loading.
    public var isSettled: Bool { levels.isSettled }
    /// Fraction of the wanted splats that are shown at their wanted level (1 when settled).
    public var progress: Double { levels.progress }
    /// The level-of-detail step (choose, step, request, re-assemble) is a stage of its own.
    public var ownStages: [SceneStage] { [.lod] }
    /// A line for the window's HUD while the scene streams in or when chunks are missing.
    public var statusLine: String? { levels.statusLine }

    /// This scene in its own coordinates (camera JSON mode), sharing nothing mutable.
    func ownCoordinatesCopy(realtime: Bool) -> LODSplatScene {
        let s = LODSplatScene(name: name, sog: sog, fit: fit, placement: modelPlacement, room: nil, options: options, realtime: realtime)
        s.ownCoordinates = true
        s.antialias = antialias
        return s
    }
}

extension LODSplatScene: BudgetedScene {
    public var splatBudget: Int? {
        get { options.budget }
        set { options.budget = newValue }
    }
    public var budgetIsPinned: Bool { options.budgetIsPinned }
    public var budgetBinds: Bool { levels.budgetBinds }
    public var stillViewReady: Bool { levels.stillViewReady }
    public var stillViewProgress: Double { levels.stillViewProgress }
    public var warmsStillView: Bool {
        get { options.warmsStillView }
        set { options.warmsStillView = newValue }
    }
    public var refinesAtOnce: Bool {
        get { options.refinesAtOnce }
        set { options.refinesAtOnce = newValue }
    }
    public var pixelThreshold: Float {
        get { options.pixelThreshold }
        set { options.pixelThreshold = newValue }
    }
    public var wholeSplats: Int { sog.splatCount(level: 0) }
    public var coarsestSplats: Int { sog.splatCount(level: sog.levelCount - 1) }
    public var splatCeiling: Int { LODMemory.ceiling(sog: sog, cacheBytes: options.cacheBytes) }
    public func wholeReference() -> Scene {
        var whole = options
        whole.forcedLevel = 0; whole.budget = nil
        let s = LODSplatScene(name: name, sog: sog, fit: fit, placement: modelPlacement, room: room, options: whole, realtime: false)
        s.model = model
        return s
    }
}
