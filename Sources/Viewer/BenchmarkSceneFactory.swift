// BenchmarkSceneFactory — SCENE names for bench and export: SceneLoader first, then stand-ins.
import Foundation
import Procedural
import RenderCore
import SceneIO
import TriangleRaster

/// Opens a scene for `bench` and `export`. Everything `SceneLoader` accepts goes through it;
/// until the loader handles them itself, this also opens `generate:N` (N-splat procedural
/// room), splat files and mesh files (glref's semantics: 0.8 grey, lit, no culling).
public enum BenchmarkSceneFactory {
    /// Largest `generate:N`.
    public static let maxGeneratedSplats = 50_000_000

    /// The scene named `name`; `ownCoordinates` for `--camera` (no placement behind the screen);
    /// `twoSided` turns on two-sided lighting for meshes (glref's `--two-sided`).
    public static func make(_ name: String, screen: ScreenGeometry, ownCoordinates: Bool, twoSided: Bool = false) throws -> Scene {
        let scene: Scene
        do {
            let loader = try SceneLoader(path: name)
            scene = try ownCoordinates ? loader.sceneInOwnCoordinates(screen: screen) : loader.scene(screen: screen)
        } catch let loaderError {
            guard let s = try standIn(name, screen: screen, ownCoordinates: ownCoordinates) else { throw loaderError }
            scene = s
        }
        if twoSided, let mesh = scene as? MeshScene {
            for i in mesh.items.indices { mesh.items[i].settings.twoSidedLighting = true }
        }
        return scene
    }

    /// What the bench measures in a scene: `splats` or `triangles`.
    public static func primitiveKind(_ scene: Scene) -> String {
        scene is MeshScene ? "triangles" : "splats"
    }

    /// `generate:N` and files SceneLoader does not open yet; nil when `name` is neither.
    static func standIn(_ name: String, screen: ScreenGeometry, ownCoordinates: Bool) throws -> Scene? {
        if name.hasPrefix("generate:") {
            guard let n = parseCount(String(name.dropFirst(9))), n >= 1, n <= maxGeneratedSplats else {
                throw ViewerError.sceneLoad(path: name, reason: "expected generate:N with N = 1…\(maxGeneratedSplats) splats (k and M suffixes allowed)")
            }
            let cloud = SplatSceneGenerator.room(count: n)
            return BenchmarkSplatScene(name: "generate:\(n)", cloud: cloud,
                                       placement: ownCoordinates ? .identity : fit(boundsOf: cloud.positions, screen: screen))
        }
        guard FileManager.default.fileExists(atPath: name), !name.lowercased().hasSuffix(".json") else { return nil }
        let label = URL(fileURLWithPath: name).lastPathComponent
        switch try SceneFile.load(path: name) {
        case .splats(let cloud):
            return BenchmarkSplatScene(name: label, cloud: cloud,
                                       placement: ownCoordinates ? .identity : fit(boundsOf: cloud.positions, screen: screen))
        case .mesh(var mesh):
            if mesh.materials.isEmpty { mesh.materials = [.init(name: "grey", baseColor: Vec4(0.8, 0.8, 0.8, 1))] }
            let placement = ownCoordinates ? Matrix4.identity : fit(boundsOf: mesh.positions, screen: screen)
            return MeshScene(name: label, items: [(mesh, placement, RasterSettings())])
        case .points:
            throw ViewerError.sceneLoad(path: name, reason: "a point cloud (no splat or mesh data) cannot be benchmarked")
        }
    }

    /// "150000", "150k", "1M" → count.
    public static func parseCount(_ s: String) -> Int? {
        let t = s.trimmingCharacters(in: .whitespaces).lowercased()
        if let v = Int(t) { return v }
        let mult: Double
        switch t.last {
        case "k": mult = 1e3
        case "m": mult = 1e6
        default: return nil
        }
        guard let v = Double(t.dropLast()), v.isFinite, v >= 0, v * mult < 1e12 else { return nil }
        return Int((v * mult).rounded())
    }

    /// Model → screen space: the points' box centred behind the screen, its largest side 0.8 × the screen height.
    static func fit(boundsOf points: [Vec3], screen: ScreenGeometry) -> Matrix4 {
        let b = Bounds(points: points)
        guard !b.isEmpty else { return .identity }
        let side = max(b.size.x, b.size.y, b.size.z, 1e-6)
        let s = 0.8 * screen.height / side
        return Matrix4.translation(Vec3(0, 0, -0.5 * b.size.z * s - 0.02)) * Matrix4.scale(Vec3(repeating: s))
            * Matrix4.translation(-b.center)
    }
}
