// SphericalHarmonics — the real SH basis of the 3DGS reference (degrees 0…3).
//
// Constants and sign conventions as in diff-gaussian-rasterization's forward pass
// (computeColorFromSH): colour = Σ_k basis_k(dir) · sh_k + 0.5, then clamped at ≥ 0.
// The renderer evaluates the basis 8 splats at a time (SplatRenderer+Preprocess); `basis` is the
// plain one-direction form (the level-of-detail builder fits merged colours with it).

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

    /// The 16 basis values at unit direction `d` (bands 0…3, in the order the coefficients are
    /// stored: dc, then the rest), so that colour = Σ basis[k]·sh[k] + 0.5. `d` points from the
    /// eye to the splat, in the splat's own frame, as the renderer evaluates it.
    public static func basis(_ d: SIMD3<Double>) -> [Double] {
        let (x, y, z) = (d.x, d.y, d.z)
        let xx = x * x, yy = y * y, zz = z * z
        let b1 = Double(c1)
        let b2 = (Double(c2.0), Double(c2.1), Double(c2.2), Double(c2.3), Double(c2.4))
        let b3 = (Double(c3.0), Double(c3.1), Double(c3.2), Double(c3.3), Double(c3.4), Double(c3.5), Double(c3.6))
        return [Double(c0), -b1 * y, b1 * z, -b1 * x,
                b2.0 * x * y, b2.1 * y * z, b2.2 * (2 * zz - xx - yy), b2.3 * x * z, b2.4 * (xx - yy),
                b3.0 * y * (3 * xx - yy), b3.1 * x * y * z, b3.2 * y * (4 * zz - xx - yy), b3.3 * z * (2 * zz - 3 * xx - 3 * yy),
                b3.4 * x * (4 * zz - xx - yy), b3.5 * z * (xx - yy), b3.6 * x * (xx - 3 * yy)]
    }
}
