// SceneIO — scene-file readers and writers.
//
// Job: read PLY (meshes, point clouds, 3DGS, PlayCanvas compressed), .splat, .spz, OBJ and
// STL into `TriangleMesh` / `SplatCloud`; write 3DGS PLY and .splat.
// Contract: never renders; rejects malformed input with a one-line error naming the file,
// the line or byte offset and what was expected; never allocates more than the file justifies.
import RenderCore
