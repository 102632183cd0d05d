// SphericalHarmonics — the real SH basis of the 3DGS reference (degrees 0…3).
//
// Constants and sign conventions as in diff-gaussian-rasterization's forward pass
// (computeColorFromSH): colour = Σ_k basis_k(dir) · sh_k + 0.5, then clamped at ≥ 0.
// The basis itself is evaluated 8 splats at a time in SplatRenderer+Preprocess.

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
}
