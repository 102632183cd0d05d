// SceneIO — scene-file readers and writers.
//
// Job: read PLY (meshes, point clouds, 3DGS, PlayCanvas compressed), .splat, .ksplat, .spz, PlayCanvas
// SOG (a .sog ZIP, read through ZipReading, or an unbundled folder), OBJ and STL (and glTF 2.0, FBX,
// COLLADA, 3DS through Assimp in a child process the program names — `ModelImporterProcess.command`,
// set at start-up; `ImportedModelReader`) into `TriangleMesh` / `SplatCloud` / `PointCloud` (a glTF
// holding meshes and `KHR_gaussian_splatting` splats: both, `LoadedScene.mixed`);
// write 3DGS PLY, .splat and .spz (v3 gzip, v4 zstd). Splat clouds keep SH up to degree 4; what a
// reader skipped or assumed is reported in `SceneInfo.warnings`; a PLY's `SplatRenderMode` comment
// is `SceneInfo.renderMode` (`mip` → `antialiased`, `2dgs` → surfels) and is written back.
// Contract: never renders; rejects malformed input with a one-line error naming the file,
// the line or byte offset and what was expected; never allocates more than the file justifies.
//
// Entry points: `SceneFile.load(path:progress:)`, `SceneFile.load(data:name:progress:)`,
// `SceneFile.loadWithInfo(...)`, `SceneFile.convert(input:output:)`, `SceneFormat.detect`.
// Frames: PLY, .splat, .ksplat and SOG keep the file's frame; .spz is converted RUB → RDF on load (or from
// the frame its SPZ_ADOBE_coordinate_system record names) and RDF → RUB on save.
import RenderCore

/// Progress callback: (bytes done, bytes total).
public typealias SceneLoadProgress = (Int, Int) -> Void
