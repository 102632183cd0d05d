// WarpMapping — where a source pixel at a given depth lands in the target, as one affine form.
import RenderCore

/// The map from a source pixel (i, j) at depth d (metres along the source camera's −Z) to the
/// target's homogeneous pixel position (X, Y, W):
///
///     (X, Y, W) = d · (origin + perColumn·i + perRow·j) + offset     (d finite)
///     (X, Y, W) =      origin + perColumn·i + perRow·j               (d = +inf: a direction)
///
/// The target pixel is (X/W, Y/W) (x right, y down, pixel centres at +0.5) and W is the point's
/// depth in the target camera (metres along its −Z); W ≤ 0 means behind the target eye.
///
/// Derivation: with a perspective projection P (bottom row (0, 0, −1, 0)) the source clip
/// w is d, so NDC (u, v) at depth d gives camera-space x, y from the 2×2 system
/// Q·(x, y) = (u + P02, v + P12)·d − (P03, P13), Q = P's top-left 2×2; the homogeneous camera
/// point is d·g(u, v) + δ with g = (Q⁻¹(u + P02, v + P12), −1, 0) and δ = (−Q⁻¹(P03, P13), 0, 1).
/// u and v are affine in (i, j), and N = S·P_B·V_B·V_A⁻¹ (S: clip → (X, Y, W) of the target
/// viewport) is linear, so origin, perColumn, perRow = N applied to g's parts and offset = N·δ.
/// g has w = 0, so for d = +inf N·g is the direction's projection: points at infinity move by
/// the change of rotation and projection only.
public struct WarpMapping: Sendable, Equatable {
    /// (X, Y, W, 0) per metre of depth at source pixel (0, 0).
    public var origin: SIMD4<Float>
    /// Change of `origin` per source column.
    public var perColumn: SIMD4<Float>
    /// Change of `origin` per source row.
    public var perRow: SIMD4<Float>
    /// (X, Y, W, 0) added for a finite depth: the source eye seen from the target camera.
    public var offset: SIMD4<Float>

    /// The mapping from pixels of `source`'s image to pixels of `target`'s image.
    /// - Throws: `ReprojectionError.unsupportedProjection` unless both projections are
    ///   perspective (bottom row (0, 0, −1, 0)) and the source's view and projection invert.
    public init(from source: Camera, to target: Camera) throws(ReprojectionError) {
        guard Self.isPerspective(source.projection) else { throw .unsupportedProjection(what: "source") }
        guard Self.isPerspective(target.projection) else { throw .unsupportedProjection(what: "target") }
        guard let viewInverse = source.view.inverse else { throw .unsupportedProjection(what: "source") }
        let p = source.projection
        let det = Double(p[0, 0]) * Double(p[1, 1]) - Double(p[0, 1]) * Double(p[1, 0])
        guard det != 0, det.isFinite else { throw .unsupportedProjection(what: "source") }
        // Q⁻¹ (row-major entries).
        let q00 = Double(p[1, 1]) / det, q01 = -Double(p[0, 1]) / det
        let q10 = -Double(p[1, 0]) / det, q11 = Double(p[0, 0]) / det
        func qInv(_ a: Double, _ b: Double) -> (Double, Double) { (q00 * a + q01 * b, q10 * a + q11 * b) }
        let (g0x, g0y) = qInv(Double(p[0, 2]), Double(p[1, 2]))
        let (dx, dy) = qInv(-Double(p[0, 3]), -Double(p[1, 3]))
        let g0 = SIMD4<Double>(g0x, g0y, -1, 0)
        let gu = SIMD4<Double>(q00, q10, 0, 0), gv = SIMD4<Double>(q01, q11, 0, 0)
        let delta = SIMD4<Double>(dx, dy, 0, 1)
        // u = su·i + u0, v = sv·j + v0 (pixel centres at +0.5; v points up, rows down).
        let wa = Double(source.width), ha = Double(source.height)
        let su = 2 / wa, u0 = 1 / wa - 1, sv = -2 / ha, v0 = 1 - 1 / ha
        // N = S · P_B · V_B · V_A⁻¹, in double precision.
        let wb = Double(target.width), hb = Double(target.height)
        let s = Matrix4d(SIMD4(wb / 2, 0, 0, 0), SIMD4(0, -hb / 2, 0, 0), SIMD4(0, 0, 0, 0), SIMD4(wb / 2, hb / 2, 1, 0))
        let n = s * Matrix4d(target.projection) * Matrix4d(target.view) * Matrix4d(viewInverse)
        origin = SIMD4<Float>(n * (g0 + gu * u0 + gv * v0))
        perColumn = SIMD4<Float>(n * (gu * su))
        perRow = SIMD4<Float>(n * (gv * sv))
        offset = SIMD4<Float>(n * delta)
    }

    /// Target (X, Y, W) of source pixel (i, j) at depth `depth` (+inf: a point at infinity),
    /// one pixel at a time (the kernel does the same in SIMD lanes).
    @inlinable public func homogeneous(column i: Int, row j: Int, depth: Float) -> SIMD4<Float> {
        let dir = origin + perColumn * Float(i) + perRow * Float(j)
        return depth == .infinity ? dir : dir * depth + offset
    }

    static func isPerspective(_ m: Matrix4) -> Bool {
        let eps: Float = 1e-6
        return abs(m[3, 0]) < eps && abs(m[3, 1]) < eps && abs(m[3, 2] + 1) < eps && abs(m[3, 3]) < eps
    }
}

/// A 4×4 double-precision matrix (columns), for composing the warp's matrices once per frame.
struct Matrix4d {
    var c0, c1, c2, c3: SIMD4<Double>

    init(_ c0: SIMD4<Double>, _ c1: SIMD4<Double>, _ c2: SIMD4<Double>, _ c3: SIMD4<Double>) {
        self.c0 = c0; self.c1 = c1; self.c2 = c2; self.c3 = c3
    }

    init(_ m: Matrix4) {
        self.init(SIMD4<Double>(m.c0), SIMD4<Double>(m.c1), SIMD4<Double>(m.c2), SIMD4<Double>(m.c3))
    }

    static func * (m: Matrix4d, v: SIMD4<Double>) -> SIMD4<Double> { m.c0 * v.x + m.c1 * v.y + m.c2 * v.z + m.c3 * v.w }
    static func * (a: Matrix4d, b: Matrix4d) -> Matrix4d { Matrix4d(a * b.c0, a * b.c1, a * b.c2, a * b.c3) }
}
