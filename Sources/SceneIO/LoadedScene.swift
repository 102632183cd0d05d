// SceneIO — LoadedScene: what a scene file holds once read.
import RenderCore

/// The content of a scene file: a mesh, a splat cloud, a point cloud, or a mesh and splats together.
public enum LoadedScene: Sendable {
    /// A triangle mesh (PLY with faces or tristrips, OBJ, STL; glTF, FBX, COLLADA, 3DS through the importer child process), in the file's frame.
    case mesh(TriangleMesh)
    /// Gaussian splats (3DGS PLY, compressed PLY, .splat, .ksplat in the file's frame; .spz converted to RDF).
    case splats(SplatCloud)
    /// Coloured points (a PLY with vertices only), in the file's frame.
    case points(PointCloud)
    /// A glTF file holding meshes and `KHR_gaussian_splatting` splats: the meshes through the
    /// importer, the splats through our reader, both in the file's frame (glTF's: y up, unlike the
    /// splats of a glTF holding only splats, which are turned into the splat frame). Drawn as one
    /// depth-composited picture.
    case mixed(TriangleMesh, SplatCloud)

    /// Axis-aligned bounds of the positions / centres.
    public var bounds: Bounds {
        switch self {
        case .mesh(let m): return m.bounds
        case .splats(let s): return s.bounds
        case .points(let p): return p.bounds
        case let .mixed(m, s): return m.bounds.union(s.bounds)
        }
    }

    /// Approximate bytes held in memory by the arrays (payload only).
    public var bytesInMemory: Int {
        switch self {
        case .mesh(let m):
            var n = m.positions.count * 16 + m.normals.count * 16 + m.uvs.count * 8 + m.colors.count * 16 + m.indices.count * 4
            for mat in m.materials { if let t = mat.texture { n += t.texelCount * 4 } }
            return n
        case .splats(let s):
            return s.count * (16 + 16 + 16 + 4 + 16) + s.shRest.count * 4
        case .points(let p):
            return p.count * 32
        case let .mixed(m, s):
            return LoadedScene.mesh(m).bytesInMemory + LoadedScene.splats(s).bytesInMemory
        }
    }
}

/// A reader's output: the scene plus what the file said about itself (for `SceneInfo`).
struct ReadResult {
    var scene: LoadedScene
    /// Format name shown to users, e.g. "PLY binary_little_endian 1.0 (3DGS)".
    var format: SceneFormat
    var variant: String
    var version: String
    var elements: [SceneInfo.Element]
    /// Bytes of every file read when the scene spans several (an unbundled SOG folder); nil
    /// when the one file handed to the reader is the whole scene.
    var sourceBytes: Int? = nil
    /// What was skipped or assumed while reading, one line each (`SceneInfo.warnings`).
    var warnings: [String] = []
    /// The file's "train/render with antialiasing" flag; nil when the format has none.
    var antialiased: Bool? = nil
    /// The file's render mode (PLY `comment SplatRenderMode: …`); nil when it names none.
    var renderMode: SplatRenderMode? = nil
}
