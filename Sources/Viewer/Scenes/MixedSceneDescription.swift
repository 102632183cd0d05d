// MixedSceneDescription — a scene JSON of `"type": "scene"`: model files (meshes, splat
// captures, point clouds) placed in screen space, optionally inside the parallax-cube room.
import Downloads
import Foundation
import JSONInput
import RenderCore

/// Meshes and splats placed together:
///
/// ```json
/// {"type": "scene",
///  "room": {"depth": 0.5, "walls": {"back": "photos/back.jpg"}},
///  "objects": [{"file": "Fox.glb", "position": [-0.1, -0.05, -0.2], "size": 0.15, "yaw": 30},
///              {"file": "plant.spz", "position": [0.12, 0, -0.25], "size": 0.2, "up": "-y"}]}
/// ```
/// `room` takes the cube JSON's keys (`depth`, `walls`, `targets`); without it there is no room.
/// Paths are relative to the JSON file; `sphere:N` and `generate:N` name built-in models.
public struct MixedSceneDescription: Sendable {
    /// One model file and where it goes.
    public struct Object: Sendable, Equatable {
        /// The model file, resolved against the JSON's folder, or a built-in model as the command
        /// line names it: `sphere:N` (a lit grey sphere of about N triangles), `generate:N` (our
        /// procedural splat object of N splats, y up), or an `https://` URL (downloaded as a
        /// scene named by URL is).
        public var file: String
        /// Where the centre of the object's bounds goes, screen-space metres (x right, y up, z
        /// toward the viewer; the screen is z = 0). Nil: the middle of the box behind the screen.
        public var position: Vec3?
        /// The object's largest extent in metres (after `up`). Nil: fitted into the box behind
        /// the screen as a model opened alone is.
        public var size: Float?
        /// Which model axis points up; nil: y for meshes, −y for splats (3DGS captures are y-down).
        public var up: UpAxis?
        /// Turn about the vertical axis through the object's centre, degrees (positive: its front turns right).
        public var yaw: Float
        /// Tilt about the horizontal axis through its centre, degrees (positive: its top comes toward the viewer).
        public var pitch: Float

        public init(file: String, position: Vec3? = nil, size: Float? = nil, up: UpAxis? = nil, yaw: Float = 0, pitch: Float = 0) {
            self.file = file; self.position = position; self.size = size; self.up = up; self.yaw = yaw; self.pitch = pitch
        }

        /// Model → screen-space matrix for a model with `bounds` (model space), for `screen`.
        public func matrix(bounds: Bounds, up defaultUp: UpAxis, screen: ScreenGeometry) -> Matrix4 {
            var placement = Placement(up: up ?? defaultUp)
            placement.yaw = yaw * .pi / 180
            placement.pitch = pitch * .pi / 180
            var fit = SceneFit(bounds: bounds, screen: screen, depth: screen.width)
            if let size {
                // The fit scales the largest extent to `size` when the box is a cube of that side.
                fit.fill = 1
                fit.screen = ScreenGeometry(width: size, height: size)
                fit.depth = size
            }
            let centre = position ?? Vec3(0, 0, -screen.width / 2)
            placement.pan = [centre.x - fit.boxCenter.x, centre.y - fit.boxCenter.y, centre.z - fit.boxCenter.z]
            return fit.modelMatrix(placement)
        }
    }

    /// The room around the objects, or nil for none.
    public var room: SceneDescription?
    public var objects: [Object]

    public init(room: SceneDescription?, objects: [Object]) { self.room = room; self.objects = objects }

    /// Parses the JSON object (`type` already read); paths resolved against `base`.
    static func parse(_ root: JSONNode, base: URL) throws -> MixedSceneDescription {
        let room = try root.optional("room").map { try SceneDescription.parseRoom($0, base: base) }
        let list = try root.required("objects", "a list of objects").array(count: 1...1000, "a list of 1…1000 objects")
        let objects = try list.map { node -> Object in
            let p = try node.required("file", "a model file path").string("a model file path")
            let builtIn = p.hasPrefix("sphere:") || p.hasPrefix("generate:") || Downloader.isURL(p)
            let file = p.hasPrefix("/") || builtIn ? p : base.appendingPathComponent(p).standardizedFileURL.path
            var o = Object(file: file)
            if let n = try node.optional("position") {
                let v = try n.numbers(3)
                guard v.allSatisfy({ abs($0) <= 100 }) else { throw n.fail("x, y, z in metres within ±100") }
                o.position = Vec3(Float(v[0]), Float(v[1]), Float(v[2]))
            }
            o.size = try node.optional("size").map { Float(try $0.number(in: 1e-4...100, "a size in metres, 0.0001…100")) }
            if let n = try node.optional("up") {
                guard let up = UpAxis(parsing: try n.string("an up axis")) else { throw n.fail("an up axis (y, -y, z, -z, x or -x)") }
                o.up = up
            }
            o.yaw = Float(try node.optional("yaw")?.number(in: -3600...3600, "an angle in degrees") ?? 0)
            o.pitch = Float(try node.optional("pitch")?.number(in: -3600...3600, "an angle in degrees") ?? 0)
            for key in try node.members().keys where !["file", "position", "size", "up", "yaw", "pitch"].contains(key) {
                throw try node.required(key, "").fail("one of file, position, size, up, yaw, pitch", found: "an unknown key")
            }
            return o
        }
        return MixedSceneDescription(room: room, objects: objects)
    }
}
