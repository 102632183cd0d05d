import Media
import Procedural
import RenderCore
import TriangleRaster

/// Draws triangle meshes (with an optional model placement) over a background colour or the
/// cube room. Used for the room itself and for mesh files fitted into the box behind the screen.
public final class MeshScene: Scene {
    public let name: String
    /// The meshes and their model → screen-space placements, drawn in order.
    public var items: [(mesh: TriangleMesh, placement: Matrix4, settings: RasterSettings)]
    /// Background colour for pixels nothing covers (0…1).
    public var background: Vec3
    /// Videos on the meshes' textures (the room's video walls), advanced with the frame clock.
    public var videos: [VideoTexture] = []

    /// Video walls upload their due frames each frame: a stage of its own.
    public var ownStages: [SceneStage] { videos.isEmpty ? [] : [.advance] }

    /// A scene of meshes.
    public init(name: String, items: [(mesh: TriangleMesh, placement: Matrix4, settings: RasterSettings)],
                background: Vec3 = Vec3(0, 0, 0)) {
        self.name = name; self.items = items; self.background = background
    }

    /// The parallax-cube room as a scene; `videos` are the walls' videos, whose textures the
    /// room already holds (`CubeRoom.textures`).
    public convenience init(room: CubeRoom, videos: [VideoTexture] = []) {
        self.init(name: "cube", items: [(room.mesh(), .identity, RasterSettings())])
        self.videos = videos
    }

    /// Uploads each video's frame due at `time` (see `Scene.advance(to:)`).
    public func advance(to time: Double) {
        for v in videos { v.advance(to: time) }
    }

    public var primitiveKind: PrimitiveKind { .triangles }

    /// Mesh scenes are not placeable: always nil, assignments are ignored.
    public var placement: Placement? {
        get { nil }
        set {}
    }

    public var primitiveCount: Int { items.reduce(0) { $0 + $1.mesh.triangleCount } }

    public func render(camera: Camera, into target: Framebuffer, context: RenderContext) -> FrameStats {
        var stats = FrameStats()
        let t0 = MonotonicClock.now()
        stats.clearMs = context.clear(target, background: background)
        for item in items {
            context.raster.settings = item.settings
            stats.raster += context.raster.draw(item.mesh, model: item.placement, camera: camera, into: target)
        }
        stats.totalMs = (MonotonicClock.now() - t0) * 1000
        return stats
    }
}
