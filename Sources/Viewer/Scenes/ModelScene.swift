import Procedural
import RenderCore
import SplatRender
import TriangleRaster

/// A model file (mesh, splat capture or point cloud) seen through the window: fitted into the
/// box behind the screen, oriented by a `Placement` the user can change, optionally inside
/// the parallax-cube room (splats are then depth-tested against the room).
public final class ModelScene: Scene {
    /// What is drawn.
    public enum Content {
        case mesh(TriangleMesh, RasterSettings)
        case splats(PreparedSplats)
    }

    public let name: String
    public let content: Content
    /// The automatic fit (robust bounds into the box).
    public let fit: SceneFit
    /// The user's orientation on top of the fit.
    public var modelPlacement: Placement
    /// When true the model is drawn in its own coordinates (camera JSON mode): no fit, no placement.
    public var ownCoordinates = false
    /// The room drawn around the model, if any.
    public let room: TriangleMesh?
    /// Background colour (0…1) where nothing is drawn.
    public var background = Vec3(0, 0, 0)
    /// Splats: Mip-Splatting-style opacity compensation (off = the 3DGS reference image).
    public var antialias = false

    public init(name: String, content: Content, fit: SceneFit, placement: Placement, room: TriangleMesh? = nil) {
        self.name = name; self.content = content; self.fit = fit; self.modelPlacement = placement; self.room = room
    }

    public var primitiveKind: PrimitiveKind {
        if case .splats = content { return .splats }
        return .triangles
    }

    /// Always present: a model is placeable (in camera JSON mode it is kept but not applied).
    public var placement: Placement? {
        get { modelPlacement }
        set { if let newValue { modelPlacement = newValue } }
    }

    public var primitiveCount: Int {
        switch content {
        case let .mesh(m, _): return m.triangleCount
        case let .splats(s): return s.count
        }
    }

    /// Model → screen-space matrix currently in effect.
    public var modelMatrix: Matrix4 { ownCoordinates ? .identity : fit.modelMatrix(modelPlacement) }

    public func render(camera: Camera, into target: Framebuffer, context: RenderContext) -> FrameStats {
        let t0 = MonotonicClock.now()
        var isSplats = false
        if case .splats = content { isSplats = true }
        var stats = context.beginFrame(target, background: background, room: room, camera: camera,
                                       splatsCoverTarget: isSplats && context.splats.writesDepth)
        let model = modelMatrix
        switch content {
        case let .mesh(mesh, settings):
            context.raster.settings = settings
            stats.raster += context.raster.draw(mesh, model: model, camera: camera, into: target)
        case let .splats(splats):
            // The renderer works in the model's own frame: fold the placement into the view. For a
            // similarity V·M, camera-space positions, depths and covariances stay in metres.
            var cam = camera
            cam.view = camera.view * model
            context.splats.antialias = antialias
            let t = context.splats.render(splats, camera: cam, into: target, depthTest: room != nil)
            stats.splat = t
        }
        stats.totalMs = (MonotonicClock.now() - t0) * 1000
        return stats
    }
}
