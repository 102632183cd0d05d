import Foundation
import ImageIO
import JSONInput
import Procedural
import RenderCore
import Media

/// A scene file (`Scenes/*.json`): which experience to show and its settings.
///
/// ```json
/// {"type": "cube", "depth": 0.6, "targets": true,
///  "walls": {"back": "photos/back.jpg", "left": "…", "right": "…", "top": "…", "bottom": "…"}}
/// ```
/// Paths are relative to the JSON file. `depth` is in metres (default: the screen width).
/// Walls that are not listed get a generated labelled grid. A wall's file is a picture (PNG or
/// JPEG, by its first bytes) or else a video (anything OpenCV/FFmpeg decodes: MP4, MKV, AVI,
/// WebM…), which loops on the wall in step with the frame clock (`VideoTexture`).
public struct SceneDescription: Sendable {
    /// The room (a scene JSON of `"type": "scene"`, meshes and splats placed together, is a `MixedSceneDescription`).
    public enum Kind: String, Sendable { case cube }

    public var kind: Kind
    /// Room depth in metres, or nil for the screen width.
    public var depth: Float?
    /// Picture or video paths per wall, already resolved against the JSON file's folder.
    public var walls: [CubeRoom.Wall: String]
    /// Whether the floating targets are shown.
    public var targets: Bool

    /// A description built in code (e.g. from command-line options).
    public init(kind: Kind = .cube, depth: Float? = nil, walls: [CubeRoom.Wall: String] = [:], targets: Bool = true) {
        self.kind = kind; self.depth = depth; self.walls = walls; self.targets = targets
    }

    /// Reads a room scene file (`"type": "cube"`; see `SceneJSON` for both kinds).
    public static func load(_ path: String) throws -> SceneDescription {
        guard case .room(let d) = try SceneJSON.load(path) else {
            throw ViewerError.badJSON(path: path, reason: "type: expected \"cube\" here, found \"scene\"")
        }
        return d
    }

    /// The room settings in `node` (`depth`, `walls`, `targets`), paths resolved against `base`.
    static func parseRoom(_ node: JSONNode, base: URL) throws -> SceneDescription {
        let depth = try node.optional("depth").map { Float(try $0.number(in: 1e-6...100, "a room depth in metres, (0, 100]")) }
        var walls: [CubeRoom.Wall: String] = [:]
        for (key, value) in (try node.optional("walls")?.members() ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let wall = CubeRoom.Wall(rawValue: key) else {
                throw value.fail("a wall name (back, left, right, top, bottom)", found: "an unknown wall")
            }
            let p = try value.string("a picture or video file path")
            walls[wall] = p.hasPrefix("/") ? p : base.appendingPathComponent(p).standardizedFileURL.path
        }
        let targets = try node.optional("targets")?.bool() ?? true
        return SceneDescription(kind: .cube, depth: depth, walls: walls, targets: targets)
    }

    /// This room with the command line's room options laid over it: each wall `overrides`
    /// names replaces this one's, its depth (when given) replaces this depth, and targets show
    /// only if both show them.
    public func overridden(by overrides: SceneDescription) -> SceneDescription {
        var d = self
        d.walls.merge(overrides.walls) { _, new in new }
        if let depth = overrides.depth { d.depth = depth }
        d.targets = targets && overrides.targets
        return d
    }

    /// The walls' files, opened: pictures decoded, videos opened with their first frame on
    /// their texture (decoding proper starts at the scene's first `advance`).
    public struct Walls: Sendable {
        public var pictures: [CubeRoom.Wall: RGBAImage] = [:]
        public var videos: [CubeRoom.Wall: VideoTexture] = [:]
        public init() {}
    }

    /// Opens every wall's file (errors name the file: missing, or neither a picture nor a video
    /// that can be decoded). Needs no screen, so commands call it before a window opens.
    public func openWalls(playback: VideoTexture.Playback = .realtime) throws -> Walls {
        var out = Walls()
        for wall in CubeRoom.Wall.allCases {
            guard let p = walls[wall] else { continue }
            switch try MediaFile.open(p, playback: playback) {
            case .picture(let image): out.pictures[wall] = image
            case .video(let video): out.videos[wall] = video
            }
        }
        return out
    }

    /// The room for `screen` with already opened walls (video walls share their textures).
    public func room(screen: ScreenGeometry, walls opened: Walls) -> CubeRoom {
        CubeRoom(screen: screen, depth: depth, pictures: opened.pictures, textures: opened.videos.mapValues(\.texture),
                 showTargets: targets)
    }

    /// The room as a scene: its video walls advance with the frame clock.
    public func scene(screen: ScreenGeometry, walls opened: Walls) -> MeshScene {
        MeshScene(room: room(screen: screen, walls: opened),
                  videos: CubeRoom.Wall.allCases.compactMap { opened.videos[$0] })
    }

    /// Opens the walls and builds the room for `screen` (video walls show their first frame
    /// unless the room is drawn through `scene(screen:walls:)`, which advances them).
    public func room(screen: ScreenGeometry) throws -> CubeRoom {
        room(screen: screen, walls: try openWalls())
    }
}
