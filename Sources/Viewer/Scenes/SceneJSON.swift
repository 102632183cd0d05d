// SceneJSON — a scene JSON file read once and classified by its `type`: the room (`cube`) or
// meshes and splats placed together (`scene`).
import Foundation
import JSONInput

/// What a scene JSON file describes.
public enum SceneJSON: Sendable {
    /// `"type": "cube"`: the parallax-cube room with its walls.
    case room(SceneDescription)
    /// `"type": "scene"`: model files placed in screen space, with or without the room.
    case mixed(MixedSceneDescription)

    /// Reads `path`; errors name the file and the key path.
    public static func load(_ path: String) throws -> SceneJSON {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ViewerError.badJSON(path: path, reason: "cannot read scene file")
        }
        let base = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            let root = try JSONNode.parse(data)
            let typeNode = try root.required("type", "\"cube\" or \"scene\"")
            switch try typeNode.string("\"cube\" or \"scene\"") {
            case "cube": return .room(try SceneDescription.parseRoom(root, base: base))
            case "scene": return .mixed(try MixedSceneDescription.parse(root, base: base))
            default: throw typeNode.fail("\"cube\" or \"scene\"")
            }
        } catch let e as JSONPathError {
            throw ViewerError.badJSON(path: path, reason: e.description)
        }
    }
}
