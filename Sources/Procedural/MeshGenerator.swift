import Foundation
import RenderCore

/// Procedural triangle meshes, counter-clockwise front faces, smooth normals, UVs in 0…1.
public enum MeshGenerator {
    /// A UV sphere of `radius` centred at `center` with `segments` around and `rings` from pole
    /// to pole: 2·segments·(rings − 1) triangles.
    public static func sphere(center: Vec3 = .zero, radius: Float, segments: Int, rings: Int,
                              color: Vec4? = nil) -> TriangleMesh {
        let segments = max(3, segments), rings = max(2, rings)
        var pos: [Vec3] = [], nrm: [Vec3] = [], uv: [Vec2] = []
        pos.reserveCapacity((segments + 1) * (rings + 1))
        for r in 0...rings {
            let phi = Float.pi * Float(r) / Float(rings)         // 0 at the north pole
            for s in 0...segments {
                let theta = 2 * Float.pi * Float(s) / Float(segments)
                let n = Vec3(sinf(phi) * cosf(theta), cosf(phi), -sinf(phi) * sinf(theta))
                pos.append(center + n * radius); nrm.append(n)
                uv.append(Vec2(Float(s) / Float(segments), 1 - Float(r) / Float(rings)))
            }
        }
        var idx: [UInt32] = []
        idx.reserveCapacity(segments * (rings - 1) * 6)
        let stride = segments + 1
        for r in 0..<rings {
            for s in 0..<segments {
                let a = UInt32(r * stride + s), b = UInt32(r * stride + s + 1)
                let c = UInt32((r + 1) * stride + s), d = UInt32((r + 1) * stride + s + 1)
                if r != 0 { idx += [a, c, b] }
                if r != rings - 1 { idx += [b, c, d] }
            }
        }
        let colors = color.map { [Vec4](repeating: $0, count: pos.count) } ?? []
        return TriangleMesh(positions: pos, indices: idx, normals: nrm, uvs: uv, colors: colors)
    }

    /// Segment and ring counts for a sphere of about `triangles` triangles.
    public static func sphereResolution(triangles: Int) -> (segments: Int, rings: Int) {
        // 2·s·(r − 1) ≈ n with s = 2r.
        let r = max(3, Int((Double(triangles) / 4).squareRoot().rounded()))
        return (2 * r, r + 1)
    }

    /// A planar quad with corners `origin`, `origin + uAxis`, `origin + uAxis + vAxis`, `origin + vAxis`,
    /// facing `uAxis × vAxis`, with UVs (0,0)…(1,1) along the axes, split into `divisions`² cells.
    public static func quad(origin: Vec3, uAxis: Vec3, vAxis: Vec3, divisions: Int = 1,
                            material: TriangleMesh.Material = .init()) -> TriangleMesh {
        let n = max(1, divisions)
        let normal = uAxis.cross(vAxis).normalized
        var pos: [Vec3] = [], nrm: [Vec3] = [], uv: [Vec2] = [], idx: [UInt32] = []
        for j in 0...n {
            for i in 0...n {
                let u = Float(i) / Float(n), v = Float(j) / Float(n)
                pos.append(origin + uAxis * u + vAxis * v); nrm.append(normal); uv.append(Vec2(u, v))
            }
        }
        for j in 0..<n {
            for i in 0..<n {
                let a = UInt32(j * (n + 1) + i), b = a + 1, c = a + UInt32(n + 1), d = c + 1
                idx += [a, b, d, a, d, c]
            }
        }
        return TriangleMesh(positions: pos, indices: idx, normals: nrm, uvs: uv, materials: [material])
    }

    /// A flat disc of `radius` at `center` facing `normal`, UVs mapping the disc onto the unit square.
    public static func disc(center: Vec3, normal: Vec3, radius: Float, segments: Int = 48,
                            material: TriangleMesh.Material = .init()) -> TriangleMesh {
        let n = normal.normalized
        let helper = abs(n.y) < 0.9 ? Vec3(0, 1, 0) : Vec3(1, 0, 0)
        let t = helper.cross(n).normalized       // local x
        let b = n.cross(t)                       // local y
        var pos = [center], nrm = [n], uv = [Vec2(0.5, 0.5)], idx: [UInt32] = []
        for s in 0...segments {
            let a = 2 * Float.pi * Float(s) / Float(segments)
            pos.append(center + (t * cosf(a) + b * sinf(a)) * radius)
            nrm.append(n)
            uv.append(Vec2(0.5 + 0.5 * cosf(a), 0.5 + 0.5 * sinf(a)))
        }
        for s in 0..<UInt32(segments) { idx += [0, s + 1, s + 2] }
        return TriangleMesh(positions: pos, indices: idx, normals: nrm, uvs: uv, materials: [material])
    }

    /// An open cylinder (a stick) from `a` to `b` with `radius`.
    public static func cylinder(from a: Vec3, to b: Vec3, radius: Float, segments: Int = 12,
                                material: TriangleMesh.Material = .init()) -> TriangleMesh {
        let axis = (b - a).normalized
        let helper = abs(axis.y) < 0.9 ? Vec3(0, 1, 0) : Vec3(1, 0, 0)
        let t = helper.cross(axis).normalized, bt = axis.cross(t)
        var pos: [Vec3] = [], nrm: [Vec3] = [], idx: [UInt32] = []
        for s in 0...segments {
            let ang = 2 * Float.pi * Float(s) / Float(segments)
            let dir = t * cosf(ang) + bt * sinf(ang)
            pos.append(a + dir * radius); nrm.append(dir)
            pos.append(b + dir * radius); nrm.append(dir)
        }
        for s in 0..<UInt32(segments) {
            let i = 2 * s
            idx += [i, i + 2, i + 1, i + 1, i + 2, i + 3]
        }
        return TriangleMesh(positions: pos, indices: idx, normals: nrm, materials: [material])
    }
}
