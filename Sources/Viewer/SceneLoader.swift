import Foundation
import RenderCore

/// Opens what a user names on the command line: a scene JSON today; mesh and splat files
/// through SceneIO. Validates the file up front so errors come before any window opens.
public struct SceneLoader {
    /// The file as given.
    public let path: String
    let description: SceneDescription?

    /// Checks that `path` exists and reads scene JSON eagerly.
    public init(path: String) throws {
        self.path = path
        guard FileManager.default.fileExists(atPath: path) else {
            throw ViewerError.sceneLoad(path: path, reason: "no such file")
        }
        if path.lowercased().hasSuffix(".json") {
            description = try SceneDescription.load(path)
        } else {
            throw ViewerError.sceneLoad(path: path, reason: "unsupported file type (scene JSON expected)")
        }
    }

    /// The scene placed behind `screen` for viewing through the window.
    public func scene(screen: ScreenGeometry) throws -> Scene {
        if let d = description { return MeshScene(room: try d.room(screen: screen)) }
        throw ViewerError.sceneLoad(path: path, reason: "unsupported file type")
    }

    /// The scene in its file's own coordinates (for `--camera`): no re-centring or scaling.
    public func sceneInOwnCoordinates(screen: ScreenGeometry) throws -> Scene {
        try scene(screen: screen)
    }
}
