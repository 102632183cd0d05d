// ProjectedSplat — one splat after preprocessing: what the blender needs, in 48 bytes.

/// A splat projected for one frame (image coordinates: x right, y down, pixel centres at
/// +0.5). The conic is stored pre-scaled so that the base-2 exponent is
/// `power₂ = ca·dx² + cb·dx·dy + cc·dy²` with `ca = −A/2·log2 e, cb = −B·log2 e,
/// cc = −C/2·log2 e`, i.e. exp(power) = 2^power₂.
struct ProjectedSplat {
    /// Projected mean (pixels).
    var mx, my: Float
    /// Pre-scaled conic (see the type's documentation).
    var ca, cb, cc: Float
    /// Opacity (after optional anti-aliasing compensation).
    var opacity: Float
    /// SH colour, clamped at ≥ 0 (not at 1).
    var r, g, b: Float
    /// Camera-space depth along −Z (metres), > near.
    var depth: Float
    /// Inclusive pixel rectangle of the footprint square, clipped to the image.
    var x0, y0, x1, y1: Int16

    /// A placeholder record (never blended).
    static let empty = ProjectedSplat(mx: 0, my: 0, ca: 0, cb: 0, cc: 0, opacity: 0, r: 0, g: 0, b: 0, depth: 0,
                                      x0: 0, y0: 0, x1: -1, y1: -1)
}
