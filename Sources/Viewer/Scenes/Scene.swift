// Scene — the protocol every drawable scene implements, and what callers may ask of it.
import RenderCore

/// What a scene's primitives are (what `primitiveCount` counts).
public enum PrimitiveKind: String, Sendable, Codable {
    case triangles
    case splats
}

/// Something that can be drawn through the window: the parallax-cube room, a mesh, a splat capture.
/// Scenes live in screen space (metres, the screen rectangle centred at the origin in z = 0,
/// +z toward the viewer); content "through the window" sits at z < 0.
public protocol Scene: AnyObject {
    /// A short name for titles and logs.
    var name: String { get }
    /// What the scene draws: triangles or splats.
    var primitiveKind: PrimitiveKind { get }
    /// Number of primitives (triangles or splats) drawn per frame.
    var primitiveCount: Int { get }
    /// Colour (0…1, written without gamma) of pixels nothing covers.
    var background: Vec3 { get set }
    /// The user's orientation of a placeable model (orbit, pan, zoom, up axis); nil for scenes
    /// that are not placeable (the room), which ignore assignments.
    var placement: Placement? { get set }
    /// Draws the scene for `camera` into `target` (already sized to the camera), clearing it first.
    func render(camera: Camera, into target: Framebuffer, context: RenderContext) -> FrameStats
}
