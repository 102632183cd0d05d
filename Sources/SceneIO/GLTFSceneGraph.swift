// SceneIO — GLTFSceneGraph: where a glTF scene instantiates its meshes — each mesh-carrying
// node's global matrix (parents' matrices times its own, TRS or `matrix`) — and the affine map
// that carries a splat (centre, covariance, SH) through such a matrix.
//
// Contract: the hierarchy is walked without recursion; a node reached twice (a cycle, or a node
// with two parents: glTF requires a tree) or a child index out of range is a one-line error
// naming the node. The scene is `scene` (default 0) of `scenes`; without `scenes`, every root
// node; without `nodes`, every mesh once, unmoved.
import Foundation
import JSONInput
import RenderCore

/// A 4×4 matrix in Double, column-major (`m[column][row]`).
struct GLTFMatrix: Equatable {
    var m: [[Double]]

    static let identity = GLTFMatrix(m: [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])

    static func * (a: GLTFMatrix, b: GLTFMatrix) -> GLTFMatrix {
        var out = [[Double]](repeating: [0, 0, 0, 0], count: 4)
        for c in 0..<4 { for r in 0..<4 { out[c][r] = (0..<4).reduce(0) { $0 + a.m[$1][r] * b.m[c][$1] } } }
        return GLTFMatrix(m: out)
    }

    /// T·R·S from a translation, a unit quaternion (x, y, z, w) and a scale.
    static func trs(_ t: [Double], _ q: [Double], _ s: [Double]) -> GLTFMatrix {
        let (x, y, z, w) = (q[0], q[1], q[2], q[3])
        let r: [[Double]] = [[1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)],
                             [2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)],
                             [2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)]]
        var m = identity.m
        for c in 0..<3 { for row in 0..<3 { m[c][row] = r[c][row] * s[c] } }
        m[3][0] = t[0]; m[3][1] = t[1]; m[3][2] = t[2]
        return GLTFMatrix(m: m)
    }

    /// glTF's frame (y up, +z toward the viewer: RUB) to SplatFrame's splat frame (RDF, the 3DGS
    /// PLY's): a half turn about x, (x, y, z) → (x, −y, −z).
    static let gltfToSplatFrame = GLTFMatrix(m: [[1, 0, 0, 0], [0, -1, 0, 0], [0, 0, -1, 0], [0, 0, 0, 1]])
}

/// The mesh instances of a glTF scene.
enum GLTFSceneGraph {
    /// One placed mesh: its index, the node that places it (nil when there are no nodes) and
    /// the node's global matrix.
    struct Instance {
        var mesh: Int
        var node: Int?
        var matrix: GLTFMatrix
    }

    /// Every mesh instance of the document's scene, in traversal order.
    static func instances(_ root: JSONNode, meshCount: Int) throws -> [Instance] {
        let nodes = try root.optional("nodes")?.array() ?? []
        if nodes.isEmpty { return (0..<meshCount).map { Instance(mesh: $0, node: nil, matrix: .identity) } }
        var roots: [Int]
        if let scenes = try root.optional("scenes")?.array(), !scenes.isEmpty {
            let i = try root.optional("scene")?.integer(in: 0...(scenes.count - 1), "a scene index below \(scenes.count)") ?? 0
            roots = try scenes[i].optional("nodes")?.array().map { try $0.integer() } ?? []
        } else {
            var isChild = Set<Int>()
            for n in nodes { for c in try n.optional("children")?.array() ?? [] { isChild.insert(try c.integer()) } }
            roots = nodes.indices.filter { !isChild.contains($0) }
        }
        var out: [Instance] = []
        var seen = Set<Int>()
        var stack: [(Int, GLTFMatrix)] = roots.reversed().map { ($0, .identity) }
        while let (i, parent) = stack.popLast() {
            guard i >= 0, i < nodes.count else {
                throw JSONPathError(path: "nodes", expected: "node indices below \(nodes.count)", found: "\(i)")
            }
            guard seen.insert(i).inserted else {
                throw nodes[i].fail("a tree of nodes (each reached once)", found: "node \(i) reached twice")
            }
            let node = nodes[i]
            let global = parent * (try local(node))
            if let mesh = try node.optional("mesh") {
                out.append(Instance(mesh: try mesh.integer(in: 0...max(0, meshCount - 1), "a mesh index below \(meshCount)"), node: i, matrix: global))
            }
            for c in (try node.optional("children")?.array() ?? []).reversed() { stack.append((try c.integer(), global)) }
        }
        return out
    }

    /// A node's own matrix: `matrix`, else translation · rotation · scale.
    static func local(_ node: JSONNode) throws -> GLTFMatrix {
        if let m = try node.optional("matrix") {
            let v = try m.numbers(16)
            return GLTFMatrix(m: (0..<4).map { c in Array(v[c * 4..<c * 4 + 4]) })
        }
        let t = try node.optional("translation")?.numbers(3) ?? [0, 0, 0]
        var q = try node.optional("rotation")?.numbers(4) ?? [0, 0, 0, 1]
        let n = q.reduce(0) { $0 + $1 * $1 }.squareRoot()
        q = n > 0 ? q.map { $0 / n } : [0, 0, 0, 1]
        let s = try node.optional("scale")?.numbers(3) ?? [1, 1, 1]
        return .trs(t, q, s)
    }
}
