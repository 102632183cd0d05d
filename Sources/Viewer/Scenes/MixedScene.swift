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

    /// A splat capture and where it sits.
    public struct SplatObject {
        public var splats: PreparedSplats
        /// Model → screen space (a similarity).
        public var matrix: Matrix4
        /// Its bounds' centre in the objects' frame (screen space; the file's when `model` places
        /// the scene), metres: the far-to-near order.
        public var centre: Vec3
        /// Mip-Splatting-style opacity compensation for this capture.
        public var antialias: Bool
        public init(splats: PreparedSplats, matrix: Matrix4, centre: Vec3, antialias: Bool) {
            self.splats = splats; self.matrix = matrix; self.centre = centre; self.antialias = antialias
        }
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
            : splatObjects.reduce(0) { $0 + $1.splats.count }
    }

    /// A file's placement (see `model`); nil for a scene JSON, which is not placeable in the window.
    public var placement: Placement? {
        get { model?.placement }
        set { if let newValue, model != nil { model?.placement = newValue } }
    }

    /// The objects' frame → screen space (identity for a scene JSON).
    var groupMatrix: Matrix4 { model?.matrix ?? .identity }

    public var ownStages: [SceneStage] { videos.isEmpty ? [] : [.advance] }

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
            let t = context.splats.render(o.splats, camera: cam, into: target, depthTest: true)
            var sum = times ?? SplatStageTimes()
            sum.preprocess += t.preprocess; sum.sort += t.sort; sum.bin += t.bin; sum.blend += t.blend
            sum.visibleSplats += t.visibleSplats; sum.tileSplatPairs += t.tileSplatPairs; sum.droppedSplats += t.droppedSplats
            times = sum
        }
        context.splats.writesDepth = writesDepth
        stats.splat = times
        stats.totalMs = (MonotonicClock.now() - t0) * 1000
        return stats
    }
}
