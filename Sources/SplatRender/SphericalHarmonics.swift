// SphericalHarmonics — the real SH basis of the 3DGS reference (degrees 0…3).
//
// Constants and sign conventions as in diff-gaussian-rasterization's forward pass
// (computeColorFromSH): colour = Σ_k basis_k(dir) · sh_k + 0.5, then clamped at ≥ 0.

/// The SH basis used for splat colours.
public enum SphericalHarmonics {
    /// Band 0.
    public static let c0: Float = 0.28209479177387814
    /// Band 1.
    public static let c1: Float = 0.4886025119029199
    /// Band 2, terms xy, yz, 2zz−xx−yy, xz, xx−yy.
    public static let c2: (Float, Float, Float, Float, Float) =
        (1.0925484305920792, -1.0925484305920792, 0.31539156525252005, -1.0925484305920792, 0.5462742152960396)
    /// Band 3, terms y(3xx−yy), xyz, y(4zz−xx−yy), z(2zz−3xx−3yy), x(4zz−xx−yy), z(xx−yy), x(xx−3yy).
    public static let c3: (Float, Float, Float, Float, Float, Float, Float) =
        (-0.5900435899266435, 2.890611442640554, -0.4570457994644658, 0.3731763325901154,
         -0.4570457994644658, 1.445305721320277, -0.5900435899266435)

    /// The basis values of bands 1–3 as two 8-lane vectors (lanes past the degree's count
    /// are 0), matching `PreparedSplats`' zero-padded channel-major halves.
    @inline(__always)
    static func restBasis8(x: Float, y: Float, z: Float, degree: Int) -> (SIMD8<Float>, SIMD8<Float>) {
        let b1x = -c1 * y, b1y = c1 * z, b1z = -c1 * x
        guard degree > 1 else { return (SIMD8(b1x, b1y, b1z, 0, 0, 0, 0, 0), .zero) }
        let xx = x * x, yy = y * y, zz = z * z, xy = x * y, yz = y * z, xz = x * z
        let lo = SIMD8<Float>(b1x, b1y, b1z, c2.0 * xy, c2.1 * yz, c2.2 * (2 * zz - xx - yy), c2.3 * xz, c2.4 * (xx - yy))
        guard degree > 2 else { return (lo, .zero) }
        let hi = SIMD8<Float>(c3.0 * y * (3 * xx - yy), c3.1 * xy * z, c3.2 * y * (4 * zz - xx - yy),
                              c3.3 * z * (2 * zz - 3 * xx - 3 * yy), c3.4 * x * (4 * zz - xx - yy),
                              c3.5 * z * (xx - yy), c3.6 * x * (xx - 3 * yy), 0)
        return (lo, hi)
    }

    /// The 15 basis values of bands 1–3 for a unit direction (x, y, z), in 3DGS rest order,
    /// written to `out[0..<15]` (only the first `restCount` are meaningful for lower degrees).
    @inline(__always)
    static func restBasis(x: Float, y: Float, z: Float, degree: Int, into out: UnsafeMutablePointer<Float>) {
        out[0] = -c1 * y; out[1] = c1 * z; out[2] = -c1 * x
        guard degree > 1 else { return }
        let xx = x * x, yy = y * y, zz = z * z, xy = x * y, yz = y * z, xz = x * z
        out[3] = c2.0 * xy; out[4] = c2.1 * yz; out[5] = c2.2 * (2 * zz - xx - yy)
        out[6] = c2.3 * xz; out[7] = c2.4 * (xx - yy)
        guard degree > 2 else { return }
        out[8] = c3.0 * y * (3 * xx - yy)
        out[9] = c3.1 * xy * z
        out[10] = c3.2 * y * (4 * zz - xx - yy)
        out[11] = c3.3 * z * (2 * zz - 3 * xx - 3 * yy)
        out[12] = c3.4 * x * (4 * zz - xx - yy)
        out[13] = c3.5 * z * (xx - yy)
        out[14] = c3.6 * x * (xx - 3 * yy)
    }
}
