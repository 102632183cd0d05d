import Foundation
import ImageIO
import Procedural
import RenderCore

/// A scene file (`Scenes/*.json`): which experience to show and its settings.
///
/// ```json
/// {"type": "cube", "depth": 0.6, "targets": true,
///  "walls": {"back": "photos/back.jpg", "left": "…", "right": "…", "top": "…", "bottom": "…"}}
/// ```
/// Paths are relative to the JSON file. `depth` is in metres (default: the screen width).
/// Walls that are not listed get a generated labelled grid.
public struct SceneDescription: Sendable {
    /// Only the cube room so far; mesh and splat files are opened directly.
    public enum Kind: String, Sendable { case cube }

    public var kind: Kind
    /// Room depth in metres, or nil for the screen width.
    public var depth: Float?
    /// Picture paths per wall, already resolved against the JSON file's folder.
    public var walls: [CubeRoom.Wall: String]
    /// Whether the floating targets are shown.
    public var targets: Bool

    /// A description built in code (e.g. from command-line options).
    public init(kind: Kind = .cube, depth: Float? = nil, walls: [CubeRoom.Wall: String] = [:], targets: Bool = true) {
        self.kind = kind; self.depth = depth; self.walls = walls; self.targets = targets
    }

    /// Reads a scene file.
    public static func load(_ path: String) throws -> SceneDescription {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ViewerError.badJSON(path: path, reason: "cannot read scene file")
        }
        let obj: Any
        do { obj = try JSONSerialization.jsonObject(with: data) } catch {
            throw ViewerError.badJSON(path: path, reason: "not valid JSON (\(CameraFile.jsonErrorDetail(error)))")
        }
        guard let dict = obj as? [String: Any] else { throw ViewerError.badJSON(path: path, reason: "expected a JSON object") }
        guard let t = dict["type"] as? String, let kind = Kind(rawValue: t) else {
            throw ViewerError.badJSON(path: path, reason: "\"type\" must be \"cube\"")
        }
        var depth: Float?
        if let d = dict["depth"] {
            guard let n = d as? NSNumber, n.doubleValue.isFinite, n.doubleValue > 0, n.doubleValue <= 100 else {
                throw ViewerError.badJSON(path: path, reason: "\"depth\" must be a number of metres in (0, 100]")
            }
            depth = Float(n.doubleValue)
        }
        var walls: [CubeRoom.Wall: String] = [:]
        if let w = dict["walls"] {
            guard let wd = w as? [String: Any] else { throw ViewerError.badJSON(path: path, reason: "\"walls\" must be an object") }
            let base = URL(fileURLWithPath: path).deletingLastPathComponent()
            for (key, value) in wd {
                guard let wall = CubeRoom.Wall(rawValue: key) else {
                    throw ViewerError.badJSON(path: path, reason: "unknown wall \"\(key)\" (use back, left, right, top, bottom)")
                }
                guard let p = value as? String else { throw ViewerError.badJSON(path: path, reason: "wall \"\(key)\" must be a file path") }
                walls[wall] = p.hasPrefix("/") ? p : base.appendingPathComponent(p).standardizedFileURL.path
            }
        }
        let targets = (dict["targets"] as? Bool) ?? true
        return SceneDescription(kind: kind, depth: depth, walls: walls, targets: targets)
    }

    /// Loads the wall pictures and builds the room for `screen`.
    public func room(screen: ScreenGeometry) throws -> CubeRoom {
        var pictures: [CubeRoom.Wall: RGBAImage] = [:]
        for (wall, p) in walls { pictures[wall] = try ImageFile.load(p) }
        return CubeRoom(screen: screen, depth: depth, pictures: pictures, showTargets: targets)
    }
}
