// BenchmarkSceneFactory — SCENE names for bench and export, through SceneLoader.
import Foundation
import RenderCore

/// Opens a scene for `bench` and `export` with `SceneLoader` (cube, sphere:N, generate:N,
/// scene JSON, mesh/splat/point files), applying the bench's lighting choice.
public enum BenchmarkSceneFactory {
    /// Largest `generate:N` (SceneLoader's limit).
    public static let maxGeneratedSplats = 20_000_000

    /// The scene named `name`. `ownCoordinates` for `--camera` (no placement behind the
    /// screen). Meshes get glref's semantics in camera mode — one-sided lighting unless
    /// `twoSided` (glref `--two-sided`); with an off-axis eye they keep the loader's default
    /// (two-sided) and `twoSided` forces it on for the room and `sphere:N` too. `room` is the
    /// room `cube` names (the command line's `--back` … options). Video walls play frame-exact:
    /// frame i of a run shows the clip at the frame clock's time, whatever the decoder's speed.
    /// A streamed SOG loads its chunks frame-exact too (on the frame's thread) under `lod`.
    public static func make(_ name: String, screen: ScreenGeometry, ownCoordinates: Bool, twoSided: Bool = false,
                            room: SceneDescription? = nil, lod: LODOptions = LODOptions()) throws -> Scene {
        var options = SceneLoader.ModelOptions()
        options.lod = lod
        options.videoPlayback = .frameExact
        options.cubeRoom = room
        if ownCoordinates || twoSided { options.twoSided = twoSided }
        options.twoSidedBuiltIns = twoSided
        let loader = try SceneLoader(path: name, options: options)
        return try ownCoordinates ? loader.sceneInOwnCoordinates(screen: screen) : loader.scene(screen: screen)
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
}
