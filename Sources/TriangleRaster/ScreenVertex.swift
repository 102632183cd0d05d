import RenderCore

/// A vertex's clip-volume outcode and snapped viewport position, computed once per vertex in
/// the vertex stage so that setup can reject the many triangles that cover no pixel centre
/// (a dense mesh far away: most of them) from 12 bytes per vertex, without reading the
/// 64-byte `ClipVertex` or dividing by w three times per triangle.
struct ScreenVertex {
    /// Position in 1/256 pixel, y down (valid when `code == 0`).
    var x: Int32, y: Int32
    /// `HomogeneousClipper.outcode` bits, or `ScreenVertex.unsnappable` when the position
    /// could not be snapped (NaN, or far beyond the guard band).
    var code: UInt32

    /// Set in `code` when `snap` failed.
    static let unsnappable: UInt32 = 1 << 8

    init(_ c: Vec4, width: Float, height: Float, guardX: Float, guardY: Float) {
        code = UInt32(HomogeneousClipper.outcode(c, guardX: guardX, guardY: guardY))
        if code == 0, let p = Self.snap(c, width: width, height: height) {
            x = Int32(truncatingIfNeeded: p.x); y = Int32(truncatingIfNeeded: p.y)
        } else {
            x = 0; y = 0
            if code == 0 { code = Self.unsnappable }
        }
    }

    /// The viewport position of clip-space `c` in 1/256 pixel (x right, y down), rounded to
    /// nearest; nil when not finite or beyond ±1e9 (only possible outside the guard band).
    @inline(__always)
    static func snap(_ c: Vec4, width: Float, height: Float) -> SIMD2<Int64>? {
        let iw = 1 / c.w
        let x = ((c.x * iw + 1) * 0.5 * width * 256).rounded()
        let y = ((1 - c.y * iw) * 0.5 * height * 256).rounded()
        guard x.isFinite, y.isFinite, abs(x) < 1e9, abs(y) < 1e9 else { return nil }
        return SIMD2<Int64>(Int64(x), Int64(y))
    }
}
