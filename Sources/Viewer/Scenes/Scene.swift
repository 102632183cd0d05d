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
    /// Moves time-varying content (video walls) to `time`, in seconds on the frame clock.
    ///
    /// `FrameDriver` (and `StereoRenderer`) call it once per frame, just before `render`, with the
    /// time of the view about to be drawn (`EyeSource.sceneTime`): `HeadPose.time` — `MonotonicClock`
    /// seconds for the window's live frames, the frame time i / rate for replays, exports and the
    /// bench's figure-eight, 0 for `render`'s fixed eye; i / rate for a fixed camera. Content
    /// starts at the first time it is given (a clip's frame k is due k / fps later), so only
    /// differences matter. Must not block for long on the window's path and must not allocate in
    /// steady state; it runs between frames, so it may rewrite textures the renderers read.
    /// The default does nothing.
    func advance(to time: Double)
    /// One line for the window's HUD while the scene is still streaming in or has problems (e.g. a
    /// streamed SOG: `LOD: loading 0_0/meta.json — 38 % of 372000 wanted splats shown · 1 chunk
    /// unavailable: 4_0/meta.json`); nil when there is nothing to say. Cheap enough to read once a frame
    /// (it builds a string: not on allocation-free paths). The default is nil.
    var statusLine: String? { get }
    /// The stage columns of its own a scene reports beside the renderers' (`FrameStats`): `advance`
    /// (video walls' per-frame upload), `lod` (a streamed SOG's level-of-detail step). The bench
    /// shows them. The default is none.
    var ownStages: [SceneStage] { get }
}

/// A stage of a frame's cost that belongs to the scene rather than to a renderer.
public enum SceneStage: String, Sendable {
    /// `Scene.advance`: video walls uploading their due frames (`FrameStats.advanceMs`).
    case advance
    /// A streamed SOG choosing, stepping, requesting and re-assembling levels (`FrameStats.lodMs`).
    case lod

    /// This stage's time in a frame's statistics (ms).
    public func ms(_ stats: FrameStats) -> Double {
        switch self {
        case .advance: return stats.advanceMs
        case .lod: return stats.lodMs
        }
    }
}

extension Scene {
    /// Still scenes: nothing to advance.
    public func advance(to time: Double) {}
    /// Nothing to report.
    public var statusLine: String? { nil }
    /// No stages of its own.
    public var ownStages: [SceneStage] { [] }
}
