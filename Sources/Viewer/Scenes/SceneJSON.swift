// SceneJSON — a scene JSON file read once and classified by its `type`: the room (`cube`),
// meshes and splats placed together (`scene`), or an animated capture (`sequence`).
import Foundation
import JSONInput

/// What a scene JSON file describes.
public enum SceneJSON: Sendable {
    /// `"type": "cube"`: the parallax-cube room with its walls.
    case room(SceneDescription)
    /// `"type": "scene"`: model files placed in screen space, with or without the room.
    case mixed(MixedSceneDescription)
    /// `"type": "sequence"`: splat files played one after another (`SplatSequence`).
    case sequence(SplatSequence)

    /// Reads `path`; errors name the file and the key path.
    public static func load(_ path: String) throws -> SceneJSON {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ViewerError.badJSON(path: path, reason: "cannot read scene file")
        }
        let base = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            let root = try JSONNode.parse(data)
            let kinds = "\"cube\", \"scene\" or \"sequence\""
            let typeNode = try root.required("type", kinds)
            switch try typeNode.string(kinds) {
            case "cube": return .room(try SceneDescription.parseRoom(root, base: base))
            case "scene": return .mixed(try MixedSceneDescription.parse(root, base: base))
            case "sequence": return .sequence(try SplatSequence.parse(root, base: base, path: path))
            default: throw typeNode.fail(kinds)
            }
        } catch let e as JSONPathError {
            throw ViewerError.badJSON(path: path, reason: e.description)
        }
    }
}
