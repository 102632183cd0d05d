// SplatTunables — every constant of the splat renderer in one place.
//
// The numbers are those of the 3DGS reference rasterizer (diff-gaussian-rasterization,
// forward pass); changing one changes the image contract that the reference renderer in
// TestSupport encodes, so change both together.

/// The tunables of `SplatRenderer` (all in pixels, camera-space metres or plain ratios).
public enum SplatTunables {
    /// Tile edge in pixels. The blender's kernel assumes 16 (two 8-lane vectors per row).
    public static let tileSize = 16
    /// log2 of `tileSize`.
    static let tileShift = 4
    /// Low-pass dilation added to both diagonal entries of the 2D covariance (pixels²).
    public static let covarianceDilation: Float = 0.3
    /// Extra field of view, as a fraction of tan(fov/2), before the EWA Jacobian clamps.
    public static let frustumGuard: Float = 0.3
    /// Floor of (mid² − det) under the square root of the eigenvalue (pixels⁴).
    public static let eigenFloor: Float = 0.1
    /// Radius of the footprint square in standard deviations of the major axis.
    public static let radiusSigmas: Float = 3
    /// Largest alpha a single splat may contribute.
    public static let alphaMax: Float = 0.99
    /// Contributions below this alpha are skipped.
    public static let alphaMin: Float = 1.0 / 255.0
    /// A pixel is finished when its transmittance would fall below this.
    public static let transmittanceMin: Float = 0.0001
    /// Depth output: the depth of the splat where accumulated opacity first exceeds this.
    public static let depthOpacity: Float = 0.5
    /// Splats per preprocessing work item (claimed dynamically by the workers; a multiple of 8).
    static let preprocessChunk = 8192
    /// Pairs the 8-lane blender prefetches ahead of the one it blends (records are read by
    /// slot): 32 measured best on the 1M figure-eight (blend −0.8 to −1.0 ms against 8, Zen 5;
    /// 16 in between; the room the same within noise).
    static let blendPrefetchDistance = 32
    /// The same for the block kernel, whose sub-binning spends a few cycles a pair before
    /// blending (64 measured best; 16 and 32 were slower, 128 the same).
    static let blockPrefetchDistance = 64
    /// Preprocessing writes the records with non-temporal stores (no read of the lines first)
    /// when a frame's records could take more than this many bytes (~350k splats): beyond
    /// that they do not stay cached for the blender anyway (1M splats: preprocess −0.6 ms),
    /// below it they do and streaming them costs the blend more (150k splats: +0.2–0.4 ms).
    /// A fixed size, not the cache's: virtual machines report the host's whole L3 (384 MB
    /// through cpuid on this project's 32 MB machine).
    static let streamRecordsAbove = 16 << 20
}
