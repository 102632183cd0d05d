// BenchmarkSceneFactory — SCENE names for bench and export, through SceneLoader.
import SplatLOD
import Viewer
import Foundation
import RenderCore

/// Opens a scene for `bench` and `export` with `SceneLoader` (cube, sphere:N, generate:N,
/// scene JSON, mesh/splat/point files), applying the bench's lighting choice.
public enum BenchmarkSceneFactory {
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
        let loader = try SceneLoader.load(path: name, options: options)
        return try ownCoordinates ? loader.sceneInOwnCoordinates(screen: screen) : loader.scene(screen: screen)
    }
}
