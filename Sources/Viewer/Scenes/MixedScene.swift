// MixedScene — meshes and splat captures placed together (a scene JSON of `"type": "scene"`, or one
// glTF file holding meshes and splats), optionally inside the parallax-cube room.
//
// Contract: every mesh (the room's too) is drawn first, writing depth; then each splat object is
// drawn depth-tested against that depth, so a splat behind an opaque mesh is hidden per pixel —
// the way a capture inside the room is composited, generalised. Splat objects are drawn far to
// near (by their centres' distance from the eye), each over what is already there and writing
// its own depth (where its opacity passes ½), so objects apart from each other composite
// correctly; splats of two objects that interpenetrate are cut at that depth, not interleaved.
// With `model` (a file holding both) the objects sit in the file's frame and the model's fit and
// placement put the whole scene behind the screen, placeable like any model.
import Media
import SplatLOD
import RenderCore
import SplatRender
import TriangleRaster

public final class MixedScene: Scene {
    /// A mesh and where it sits.
    public struct MeshObject {
        public var mesh: TriangleMesh
        /// Model → screen space.
        public var matrix: Matrix4
        public var settings: RasterSettings
        public init(mesh: TriangleMesh, matrix: Matrix4, settings: RasterSettings) {
            self.mesh = mesh; self.matrix = matrix; self.settings = settings
        }
    }

    /// A splat capture and where it sits: its splats whole, or its levels of detail (then what a
    /// frame draws is chosen for that frame's camera under the object's share of the budget).
    public struct SplatObject {
        /// The whole capture (empty when it is drawn through `levels`).
        public var splats: PreparedSplats
        /// Its levels of detail, if it is drawn through them.
        public var levels: (any SplatLevelsOfDetail)?
        /// Splats of its finest level (the whole capture).
        public var wholeSplats: Int
        /// Splats of its coarsest picture.
        public var coarsestSplats: Int
        /// Model → screen space (a similarity).
        public var matrix: Matrix4
        /// Its bounds' centre in the objects' frame (screen space; the file's when `model` places
        /// the scene), metres: the far-to-near order.
        public var centre: Vec3
        /// Mip-Splatting-style opacity compensation for this capture.
        public var antialias: Bool
        public init(splats: PreparedSplats, matrix: Matrix4, centre: Vec3, antialias: Bool) {
            self.splats = splats; self.matrix = matrix; self.centre = centre; self.antialias = antialias
            wholeSplats = splats.count; coarsestSplats = splats.count
        }
        /// An object drawn through `levels` (a streamed tree).
        public init(levels: StreamedLevels, matrix: Matrix4, centre: Vec3, antialias: Bool) {
            self.levels = levels; self.matrix = matrix; self.centre = centre; self.antialias = antialias
            splats = PreparedSplats(SplatCloud(shDegree: 0))
            wholeSplats = levels.sog.splatCount(level: 0)
            coarsestSplats = levels.sog.splatCount(level: levels.sog.levelCount - 1)
        }
        /// Splats the last frame drew of it.
        var shownSplats: Int { levels?.shownSplats ?? splats.count }
    }

    public let name: String
    /// The room (drawn like a mesh), if any.
    public let room: TriangleMesh?
    public var meshes: [MeshObject]
    public var splatObjects: [SplatObject]
    /// The room's video walls, advanced with the frame clock.
    public var videos: [VideoTexture]
    public var background = Vec3(0, 0, 0)
    /// Where a file holding meshes and splats sits (fit, placement, own coordinates): every
    /// object's matrix is then applied after it. Nil for a scene JSON, which places its objects.
    public var model: PlacedModel?

    public init(name: String, room: TriangleMesh?, meshes: [MeshObject], splatObjects: [SplatObject], videos: [VideoTexture] = [],
                model: PlacedModel? = nil) {
        self.name = name; self.room = room; self.meshes = meshes; self.splatObjects = splatObjects; self.videos = videos
        self.model = model
    }

    public var primitiveKind: PrimitiveKind { splatObjects.isEmpty ? .triangles : .splats }

    /// Splats when there are splat objects (what costs), else triangles.
    public var primitiveCount: Int {
        splatObjects.isEmpty ? meshes.reduce(room?.triangleCount ?? 0) { $0 + $1.mesh.triangleCount }
            : splatObjects.reduce(0) { $0 + $1.shownSplats }
    }

    /// The budget shared among the objects drawn through levels of detail (nil: none).
    public var splatBudget: Int? {
        didSet { shareBudget() }
    }
    /// Whether the budget was pinned by the user (`--splat-budget N`, `none`, `--lod`).
    public var budgetIsPinned = false
    /// Pixels between neighbouring splats each leveled object's levels aim for.
    public var pixelThreshold: Float = 1 {
        didSet { for o in splatObjects { o.levels?.options.pixelThreshold = pixelThreshold } }
    }

    /// Whether each leveled object's levels go straight to what the view wants.
    public var refinesAtOnce = false {
        didSet { for o in splatObjects { o.levels?.options.refinesAtOnce = refinesAtOnce } }
    }
    /// Whether each leveled object's still-eye levels are decoded ahead.
    public var warmsStillView = false {
        didSet { for o in splatObjects { o.levels?.options.warmsStillView = warmsStillView } }
    }

    /// Each leveled object's share of `splatBudget`, in proportion to its whole capture (what it
    /// could show).
    private func shareBudget() {
        let leveled = splatObjects.filter { $0.levels != nil }
        let total = leveled.reduce(0) { $0 + $1.wholeSplats }
        guard total > 0 else { return }
        for o in leveled {
            o.levels?.options.budget = splatBudget.map { max(1, Int(Double($0) * Double(o.wholeSplats) / Double(total))) }
        }
    }

    /// A file's placement (see `model`); nil for a scene JSON, which is not placeable in the window.
    public var placement: Placement? {
        get { model?.placement }
        set { if let newValue, model != nil { model?.placement = newValue } }
    }

    /// The objects' frame → screen space (identity for a scene JSON).
    var groupMatrix: Matrix4 { model?.matrix ?? .identity }

    public var ownStages: [SceneStage] {
        (videos.isEmpty ? [] : [.advance]) + (splatObjects.contains { $0.levels != nil } ? [.lod] : [])
    }

    deinit { for o in splatObjects { o.levels?.stop() } }

    public func advance(to time: Double) {
        for v in videos { v.advance(to: time) }
    }

    /// The splat objects' order for `camera`: farthest first.
    func drawOrder(camera: Camera) -> [Int] {
        let eye = camera.position, group = groupMatrix
        let centres = splatObjects.map { o -> Vec3 in
            let c = group.transform(point: o.centre)
            return Vec3(c.x, c.y, c.z) / c.w
        }
        return splatObjects.indices.sorted { a, b in
            let da = centres[a] - eye, db = centres[b] - eye
            let la = (da * da).sum(), lb = (db * db).sum()
            return la != lb ? la > lb : a < b
        }
    }

    public func render(camera: Camera, into target: Framebuffer, context: RenderContext) -> FrameStats {
        let t0 = MonotonicClock.now()
        var stats = FrameStats()
        stats.clearMs = context.clear(target, background: background)
        if let room {
            context.raster.settings = RasterSettings()
            stats.raster += context.raster.draw(room, camera: camera, into: target)
        }
        let group = groupMatrix
        for m in meshes {
            context.raster.settings = m.settings
            stats.raster += context.raster.draw(m.mesh, model: group * m.matrix, camera: camera, into: target)
        }
        var times: SplatStageTimes?
        let writesDepth = context.splats.writesDepth
        let order = drawOrder(camera: camera)
        for (n, i) in order.enumerated() {
            let o = splatObjects[i]
            // The next object is tested against this one's depth; the last writes it only
            // when the frame's caller reads it.
            context.splats.writesDepth = n + 1 < order.count || writesDepth
            var cam = camera
            cam.view = camera.view * group * o.matrix
            context.splats.antialias = o.antialias
            var splats = o.splats
            if let levels = o.levels {
                let tl = MonotonicClock.now()
                levels.update(camera: cam, threads: context.splats.threads)
                stats.lodMs += (MonotonicClock.now() - tl) * 1000
                stats.decodeMs += levels.decodeMs
                splats = levels.splats
                if levels.options.budget != nil { context.splats.reserve(splats: splats.capacity, prefault: levels.preparesStillView) }
            }
            let t = context.splats.render(splats, camera: cam, into: target, depthTest: true)
            var sum = times ?? SplatStageTimes()
            sum.preprocess += t.preprocess; sum.sort += t.sort; sum.bin += t.bin; sum.blend += t.blend
            sum.visibleSplats += t.visibleSplats; sum.tileSplatPairs += t.tileSplatPairs; sum.droppedSplats += t.droppedSplats
            sum.abandoned = sum.abandoned || t.abandoned
            times = sum
            if t.abandoned { break }
        }
        context.splats.writesDepth = writesDepth
        stats.splat = times
        stats.totalMs = (MonotonicClock.now() - t0) * 1000
        return stats
    }
}

extension MixedScene: BudgetedScene {
    /// Splats of the leveled objects' whole captures (0: nothing to govern).
    public var wholeSplats: Int { splatObjects.reduce(0) { $0 + ($1.levels != nil ? $1.wholeSplats : 0) } }
    public var coarsestSplats: Int { splatObjects.reduce(0) { $0 + ($1.levels != nil ? $1.coarsestSplats : 0) } }
    /// Whether any leveled object's share of the budget limited it.
    public var budgetBinds: Bool { splatObjects.contains { $0.levels?.budgetBinds == true } }
    /// Whether every leveled object's still view is decoded.
    public var stillViewReady: Bool { splatObjects.allSatisfy { $0.levels?.stillViewReady ?? true } }
    /// The leveled objects' still-view progress, weighted by their whole captures' splats.
    public var stillViewProgress: Double {
        var done = 0.0, all = 0.0
        for o in splatObjects { if let l = o.levels { done += l.stillViewProgress * Double(o.wholeSplats); all += Double(o.wholeSplats) } }
        return all > 0 ? done / all : 1
    }
    public var splatCeiling: Int {
        splatObjects.reduce(0) { total, o in
            guard let levels = o.levels as? StreamedLevels else { return total }
            return total + LODMemory.ceiling(sog: levels.sog, cacheBytes: levels.options.cacheBytes)
        }
    }
    public func wholeReference() -> Scene {
        let copy = MixedScene(name: name, room: room, meshes: meshes, splatObjects: splatObjects.map { o in
            guard let levels = o.levels as? StreamedLevels else { return o }
            var whole = levels.options
            whole.forcedLevel = 0; whole.budget = nil
            var r = o
            r.levels = StreamedLevels(sog: levels.sog, options: whole, realtime: false)
            return r
        }, videos: videos, model: model)
        copy.background = background
        return copy
    }
}
