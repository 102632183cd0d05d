import Procedural
import RenderCore
import SplatRender
import TriangleRaster

/// A model file (mesh, splat capture or point cloud) seen through the window: fitted into the
/// box behind the screen, oriented by a `Placement` the user can change, optionally inside
/// the parallax-cube room (splats are then depth-tested against the room).
public final class ModelScene: PlacedModelScene {
    /// What is drawn.
    public enum Content {
        case mesh(TriangleMesh, RasterSettings)
        case splats(PreparedSplats)
    }

    public let name: String
    public let content: Content
    /// Where the model sits: fit, placement, camera-JSON mode, room, background, antialiasing.
    public var model: PlacedModel

    public init(name: String, content: Content, fit: SceneFit, placement: Placement, room: TriangleMesh? = nil) {
        self.name = name; self.content = content
        model = PlacedModel(fit: fit, placement: placement, room: room)
    }

    public var primitiveKind: PrimitiveKind {
        if case .splats = content { return .splats }
        return .triangles
    }

    public var primitiveCount: Int {
        switch content {
        case let .mesh(m, _): return m.triangleCount
        case let .splats(s): return s.count
        }
    }

    public func render(camera: Camera, into target: Framebuffer, context: RenderContext) -> FrameStats {
        let t0 = MonotonicClock.now()
        var isSplats = false
        if case .splats = content { isSplats = true }
        var (stats, cam) = model.beginFrame(target, camera: camera, context: context,
                                            splatsCoverTarget: isSplats && context.splatsCoverTarget)
        switch content {
        case let .mesh(mesh, settings):
            context.raster.settings = settings
            stats.raster += context.raster.draw(mesh, model: model.matrix, camera: camera, into: target)
        case let .splats(splats):
            context.splats.antialias = antialias
            let t = context.splats.render(splats, camera: cam, into: target, depthTest: room != nil)
            stats.splat = t
        }
        stats.totalMs = (MonotonicClock.now() - t0) * 1000
        return stats
    }
}
