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
    static func planes(guardX: Float, guardY: Float) -> (Vec4, Vec4, Vec4, Vec4, Vec4, Vec4) {
        (Vec4(0, 0, 1, 1), Vec4(0, 0, -1, 1), Vec4(1, 0, 0, guardX), Vec4(-1, 0, 0, guardX),
         Vec4(0, 1, 0, guardY), Vec4(0, -1, 0, guardY))
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

    /// Clips the convex polygon `poly[0..<count]` against the planes named in `mask`, using
    /// `scratch` as the second buffer; returns the result's buffer and vertex count (0, or 3…9).
    /// Both buffers hold at least 16 vertices.
    static func clip(_ poly: UnsafeMutablePointer<ClipVertex>, count: Int, scratch: UnsafeMutablePointer<ClipVertex>,
                     mask: UInt8, planes: UnsafePointer<Vec4>) -> (UnsafeMutablePointer<ClipVertex>, Int) {
        var src = poly, dst = scratch, n = count
        for i in 0..<6 where mask & (1 << i) != 0 {
            let plane = planes[i]
            var m = 0
            for j in 0..<n {
                let a = src[j], b = src[j + 1 == n ? 0 : j + 1]
                let da = (plane * a.clip).sum(), db = (plane * b.clip).sum()
                if da >= 0 { dst[m] = a; m += 1 }
                if (da >= 0) != (db >= 0) { dst[m] = ClipVertex.lerp(a, b, da / (da - db)); m += 1 }
            }
            swap(&src, &dst)
            n = m
            if n < 3 { return (src, 0) }
        }
        return (src, n)
    }
}
