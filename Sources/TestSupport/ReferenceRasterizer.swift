import Foundation
import RenderCore

/// The slow, obvious triangle renderer the fast rasterizer is tested against: for every pixel
/// centre, cast a ray from the camera, intersect every triangle (in world space), keep the
/// nearest hit in front of the near plane, and shade it with the hit's barycentric
/// coordinates — perspective-correct by construction. Same shading formula as the fast path:
/// base colour × vertex colour × texture (nearest mip level 0, bilinear) × lighting.
/// Pixels exactly on a shared edge may go to either triangle, so compare with a tolerance.
public enum ReferenceRasterizer {
    /// Renders `mesh` (already in world space) and returns colour and depth (camera-space −Z, +inf empty).
    public static func render(_ mesh: TriangleMesh, camera: Camera, cullBackFaces: Bool = false,
                              lightDirection: Vec3 = Vec3(0.3, 0.5, 0.8).normalized,
                              ambient: Float = 0.15, diffuse: Float = 0.85) -> (image: RGBAImage, depth: [Float]) {
        let w = camera.width, h = camera.height
        guard let invVP = camera.viewProjection.inverse, let invView = camera.view.inverse else {
            return (RGBAImage(width: w, height: h, fill: 0), [])
        }
        let origin = Vec3(invView.c3.x, invView.c3.y, invView.c3.z)
        let near = camera.near
        var image = RGBAImage(width: w, height: h, fill: PackedColor.pack(Vec4(camera.background, 1)))
        var depth = [Float](repeating: .infinity, count: w * h)
        let material = { (t: Int) -> TriangleMesh.Material in
            for g in mesh.effectiveGroups where t >= g.firstTriangle && t < g.firstTriangle + g.triangleCount {
                return mesh.materials.isEmpty ? .init() : mesh.materials[g.material]
            }
            return .init()
        }
        let triMaterials = (0..<mesh.triangleCount).map(material)
        for py in 0..<h {
            for px in 0..<w {
                // A point on the far side of the pixel centre's ray, unprojected from NDC.
                let ndc = Vec4((Float(px) + 0.5) / Float(w) * 2 - 1, 1 - (Float(py) + 0.5) / Float(h) * 2, 0.5, 1)
                let p = invVP * ndc
                let dir = (Vec3(p.x, p.y, p.z) / p.w - origin).normalized
                var best: (t: Float, tri: Int, b: Vec3, d: Float)?
                for t in 0..<mesh.triangleCount {
                    let i0 = Int(mesh.indices[3 * t]), i1 = Int(mesh.indices[3 * t + 1]), i2 = Int(mesh.indices[3 * t + 2])
                    let a = mesh.positions[i0], b = mesh.positions[i1], c = mesh.positions[i2]
                    // Möller–Trumbore in Double for robustness.
                    let e1 = SIMD3<Double>(b - a), e2 = SIMD3<Double>(c - a), dd = SIMD3<Double>(dir)
                    let pv = SIMD3(dd.y * e2.z - dd.z * e2.y, dd.z * e2.x - dd.x * e2.z, dd.x * e2.y - dd.y * e2.x)
                    let det = (e1 * pv).sum()
                    if abs(det) < 1e-14 { continue }
                    if cullBackFaces && det < 0 { continue }   // det > 0 when the counter-clockwise front faces the ray
                    let tv = SIMD3<Double>(origin - a)
                    let u = (tv * pv).sum() / det
                    if u < 0 || u > 1 { continue }
                    let q = SIMD3(tv.y * e1.z - tv.z * e1.y, tv.z * e1.x - tv.x * e1.z, tv.x * e1.y - tv.y * e1.x)
                    let v = (dd * q).sum() / det
                    if v < 0 || u + v > 1 { continue }
                    let dist = (e2 * q).sum() / det
                    if dist <= 0 { continue }
                    let hit = SIMD3<Double>(origin) + dd * dist
                    let cam = camera.view.transform(point: Vec3(hit))
                    let d = -cam.z
                    if d < near { continue }
                    if best == nil || d < best!.d {
                        best = (Float(dist), t, Vec3(Float(1 - u - v), Float(u), Float(v)), d)
                    }
                }
                guard let hit = best else { continue }
                let t = hit.tri
                let i0 = Int(mesh.indices[3 * t]), i1 = Int(mesh.indices[3 * t + 1]), i2 = Int(mesh.indices[3 * t + 2])
                let bc = hit.b
                let m = triMaterials[t]
                var color = m.baseColor
                if mesh.colors.count == mesh.vertexCount {
                    let c = mesh.colors[i0] * bc.x + mesh.colors[i1] * bc.y + mesh.colors[i2] * bc.z
                    color *= Vec4(c.x, c.y, c.z, 1)
                }
                if let tex = m.texture, mesh.uvs.count == mesh.vertexCount {
                    let uvAt = { (b: Vec3) in mesh.uvs[i0] * b.x + mesh.uvs[i1] * b.y + mesh.uvs[i2] * b.z }
                    let uv = uvAt(bc)
                    // Mip level from the texture footprint: UVs where the neighbouring pixels' rays meet
                    // this triangle's plane, in texels; nearest level round(log2 ρ) as the fast path.
                    var rho2: Float = 0
                    for (nx, ny) in [(px + 1, py), (px, py + 1)] {
                        if let nb = planeBarycentrics(mesh, triangle: t, camera: camera, invVP: invVP, origin: origin, x: nx, y: ny) {
                            let d = (uvAt(nb) - uv) * Vec2(Float(tex.width), Float(tex.height))
                            rho2 = max(rho2, (d * d).sum())
                        }
                    }
                    var level = 0
                    if rho2 > 1 { level = min((Int(log2(rho2).rounded(.down)) + 1) / 2, tex.levels.count - 1) }
                    color *= bilinear(tex.image(level: level), uv)
                }
                if m.lit {
                    var n = Vec3(0, 0, 1)
                    if mesh.normals.count == mesh.vertexCount {
                        n = mesh.normals[i0] * bc.x + mesh.normals[i1] * bc.y + mesh.normals[i2] * bc.z
                    }
                    let k = ambient + diffuse * max(0, n.normalized.dot(lightDirection))
                    color *= Vec4(k, k, k, 1)
                }
                color.w = 1
                image[px, py] = PackedColor.pack(color)
                depth[py * w + px] = hit.d
            }
        }
        return (image, depth)
    }

    /// Barycentric coordinates where the ray through pixel centre (x, y) meets the plane of triangle t.
    static func planeBarycentrics(_ mesh: TriangleMesh, triangle t: Int, camera: Camera, invVP: Matrix4, origin: Vec3,
                                  x: Int, y: Int) -> Vec3? {
        let ndc = Vec4((Float(x) + 0.5) / Float(camera.width) * 2 - 1, 1 - (Float(y) + 0.5) / Float(camera.height) * 2, 0.5, 1)
        let p = invVP * ndc
        let dir = SIMD3<Double>((Vec3(p.x, p.y, p.z) / p.w - origin).normalized)
        let a = SIMD3<Double>(mesh.positions[Int(mesh.indices[3 * t])])
        let e1 = SIMD3<Double>(mesh.positions[Int(mesh.indices[3 * t + 1])]) - a
        let e2 = SIMD3<Double>(mesh.positions[Int(mesh.indices[3 * t + 2])]) - a
        let pv = SIMD3(dir.y * e2.z - dir.z * e2.y, dir.z * e2.x - dir.x * e2.z, dir.x * e2.y - dir.y * e2.x)
        let det = (e1 * pv).sum()
        guard abs(det) > 1e-14 else { return nil }
        let tv = SIMD3<Double>(origin) - a
        let u = (tv * pv).sum() / det
        let q = SIMD3(tv.y * e1.z - tv.z * e1.y, tv.z * e1.x - tv.x * e1.z, tv.x * e1.y - tv.y * e1.x)
        let v = (dir * q).sum() / det
        return Vec3(Float(1 - u - v), Float(u), Float(v))
    }

    /// Bilinear lookup with repeat wrapping; v up.
    static func bilinear(_ img: RGBAImage, _ uv: Vec2) -> Vec4 {
        let u = uv.x - uv.x.rounded(.down), v = uv.y - uv.y.rounded(.down)
        let fx = u * Float(img.width) - 0.5, fy = (1 - v) * Float(img.height) - 0.5
        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
        let tx = fx - Float(x0), ty = fy - Float(y0)
        func texel(_ x: Int, _ y: Int) -> Vec4 {
            PackedColor.unpack(img[(x % img.width + img.width) % img.width, (y % img.height + img.height) % img.height])
        }
        let top = texel(x0, y0) * (1 - tx) + texel(x0 + 1, y0) * tx
        let bottom = texel(x0, y0 + 1) * (1 - tx) + texel(x0 + 1, y0 + 1) * tx
        return top * (1 - ty) + bottom * ty
    }
}
