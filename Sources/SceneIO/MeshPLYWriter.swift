// SceneIO — MeshPLYWriter: TriangleMesh / PointCloud → binary little-endian PLY.
import Foundation
import RenderCore

/// Writes meshes (vertex + face) and point clouds (vertex only) as binary PLY with float
/// positions, optional normals, uchar colours and s/t texture coordinates.
public enum MeshPLYWriter {
    /// The file bytes for a mesh.
    public static func encode(_ m: TriangleMesh) -> [UInt8] {
        encode(positions: m.positions, normals: m.normals, uvs: m.uvs, colors: m.colors, indices: m.indices)
    }

    /// The file bytes for a point cloud.
    public static func encode(_ p: PointCloud) -> [UInt8] {
        encode(positions: p.positions, normals: [], uvs: [], colors: p.colors, indices: nil)
    }

    static func encode(positions: [Vec3], normals: [Vec3], uvs: [Vec2], colors: [Vec4], indices: [UInt32]?) -> [UInt8] {
        let n = positions.count
        var h = "ply\nformat binary_little_endian 1.0\ncomment written by SplatFrame SceneIO\nelement vertex \(n)\n"
        h += "property float x\nproperty float y\nproperty float z\n"
        let hasN = normals.count == n && n > 0, hasUV = uvs.count == n && n > 0, hasC = colors.count == n && n > 0
        if hasN { h += "property float nx\nproperty float ny\nproperty float nz\n" }
        if hasUV { h += "property float s\nproperty float t\n" }
        if hasC { h += "property uchar red\nproperty uchar green\nproperty uchar blue\nproperty uchar alpha\n" }
        if let idx = indices { h += "element face \(idx.count / 3)\nproperty list uchar int vertex_indices\n" }
        h += "end_header\n"
        var out = Array(h.utf8)
        out.reserveCapacity(out.count + n * 36 + (indices?.count ?? 0) / 3 * 13)
        func f(_ v: Float) { withUnsafeBytes(of: v.bitPattern.littleEndian) { out += $0 } }
        for i in 0..<n {
            f(positions[i].x); f(positions[i].y); f(positions[i].z)
            if hasN { f(normals[i].x); f(normals[i].y); f(normals[i].z) }
            if hasUV { f(uvs[i].x); f(uvs[i].y) }
            if hasC {
                for k in 0..<4 { let v = (colors[i][k] * 255).rounded(); out.append(v.isNaN ? 0 : UInt8(min(255, max(0, v)))) }
            }
        }
        if let idx = indices {
            var t = 0
            while t + 2 < idx.count {
                out.append(3)
                for k in 0..<3 { withUnsafeBytes(of: Int32(truncatingIfNeeded: idx[t + k]).littleEndian) { out += $0 } }
                t += 3
            }
        }
        return out
    }
}
