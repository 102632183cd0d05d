import RenderCore

/// A vertex after the vertex stage: clip-space position and the attributes interpolated
/// across the triangle (world-space normal, texture coordinates, colour).
struct ClipVertex {
    var clip: Vec4
    var normal: Vec3
    var uv: Vec2
    var color: Vec4

    /// Linear interpolation in clip space (correct for homogeneous clipping).
    @inline(__always) static func lerp(_ a: ClipVertex, _ b: ClipVertex, _ t: Float) -> ClipVertex {
        ClipVertex(clip: a.clip + (b.clip - a.clip) * t, normal: a.normal + (b.normal - a.normal) * t,
                   uv: a.uv + (b.uv - a.uv) * t, color: a.color + (b.color - a.color) * t)
    }
}

/// Sutherland–Hodgman clipping of a triangle against the near and far planes and a guard band
/// in x and y (all as homogeneous half-spaces `dot(plane, clip) ≥ 0`).
enum HomogeneousClipper {
    /// The six planes: near (z ≥ −w), far (z ≤ w), and the guard band |x|, |y| ≤ g·w.
    static func planes(guardX: Float, guardY: Float) -> [Vec4] {
        [Vec4(0, 0, 1, 1), Vec4(0, 0, -1, 1), Vec4(1, 0, 0, guardX), Vec4(-1, 0, 0, guardX),
         Vec4(0, 1, 0, guardY), Vec4(0, -1, 0, guardY)]
    }

    /// Bit i set when the point is outside plane i.
    @inline(__always) static func outcode(_ c: Vec4, guardX: Float, guardY: Float) -> UInt8 {
        var code: UInt8 = 0
        if c.z < -c.w { code |= 1 }
        if c.z > c.w { code |= 2 }
        if c.x < -guardX * c.w { code |= 4 }
        if c.x > guardX * c.w { code |= 8 }
        if c.y < -guardY * c.w { code |= 16 }
        if c.y > guardY * c.w { code |= 32 }
        return code
    }

    /// Clips the polygon in place against the planes named in `mask`; the result is a convex
    /// polygon of 0 or ≥ 3 vertices (at most 9), written to `poly`.
    static func clip(_ poly: inout [ClipVertex], scratch: inout [ClipVertex], mask: UInt8, planes: [Vec4]) {
        for (i, plane) in planes.enumerated() where mask & (1 << i) != 0 {
            scratch.removeAll(keepingCapacity: true)
            let n = poly.count
            guard n > 0 else { return }
            for j in 0..<n {
                let a = poly[j], b = poly[(j + 1) % n]
                let da = (plane * a.clip).sum(), db = (plane * b.clip).sum()
                if da >= 0 { scratch.append(a) }
                if (da >= 0) != (db >= 0) {
                    scratch.append(ClipVertex.lerp(a, b, da / (da - db)))
                }
            }
            swap(&poly, &scratch)
            if poly.count < 3 { poly.removeAll(keepingCapacity: true); return }
        }
    }
}
