import Foundation
import Procedural
import RenderCore
import TriangleRaster

/// Opens what a user names on the command line: `cube`, `sphere:N` (a lit N-triangle sphere
/// for benchmarks), a scene JSON, and mesh or splat files through SceneIO. Validates up
/// front, so errors come before any window opens.
public struct SceneLoader {
    /// The scene as named.
    public let path: String
    private let kind: Kind

    private enum Kind {
        case description(SceneDescription)
        case sphere(triangles: Int)
    }

    /// Recognises built-in scene names and checks that files exist and parse.
    public init(path: String) throws {
        self.path = path
        if path == "cube" {
            kind = .description(SceneDescription())
        } else if path.hasPrefix("sphere:") {
            guard let n = Int(path.dropFirst(7)), n >= 8, n <= 20_000_000 else {
                throw ViewerError.sceneLoad(path: path, reason: "expected sphere:N with N = 8…20000000 triangles")
            }
            kind = .sphere(triangles: n)
        } else {
            guard FileManager.default.fileExists(atPath: path) else {
                throw ViewerError.sceneLoad(path: path, reason: "no such file")
            }
            if path.lowercased().hasSuffix(".json") {
                kind = .description(try SceneDescription.load(path))
            } else {
                throw ViewerError.sceneLoad(path: path, reason: "unsupported file type (scene JSON expected)")
            }
        }
    }

    /// The scene placed behind `screen` for viewing through the window.
    public func scene(screen: ScreenGeometry) throws -> Scene {
        switch kind {
        case let .description(d):
            return MeshScene(room: try d.room(screen: screen))
        case let .sphere(n):
            return Self.sphereScene(triangles: n, screen: screen)
        }
    }

    /// The scene in its file's own coordinates (for `--camera`): no re-centring or scaling.
    public func sceneInOwnCoordinates(screen: ScreenGeometry) throws -> Scene {
        try scene(screen: screen)
    }

    /// A lit grey sphere of about `triangles` triangles whose silhouette fills about a third of the
    /// screen seen from the neutral eye, with back faces culled (a closed mesh).
    static func sphereScene(triangles: Int, screen: ScreenGeometry) -> Scene {
        let res = MeshGenerator.sphereResolution(triangles: triangles)
        let radius = 0.19 * screen.height / 0.34
        var mesh = MeshGenerator.sphere(center: Vec3(0, 0, -radius), radius: radius, segments: res.segments, rings: res.rings)
        mesh.materials = [.init(name: "grey", baseColor: Vec4(0.8, 0.8, 0.8, 1))]
        return MeshScene(name: "sphere:\(mesh.triangleCount)", items: [(mesh, .identity, RasterSettings(cullBackFaces: true))])
    }
}
