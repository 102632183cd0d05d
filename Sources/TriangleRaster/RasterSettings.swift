import RenderCore

/// Every tunable of the triangle rasterizer in one place.
public struct RasterSettings: Sendable {
    /// Tile edge in pixels; triangles are binned per tile and tiles are the unit of parallel work.
    public static let tileSize = 64
    /// log2(tileSize).
    public static let tileShift = 6
    /// Sub-pixel precision of vertex positions: 8 bits (1/256 px).
    public static let subpixelBits = 8
    /// Vertices beyond this many pixels outside the viewport are clipped (keeps fixed-point products in Int64).
    public static let guardBandPixels: Float = 8192
    /// Triangles per setup/binning work item.
    public static let setupChunk = 2048
    /// Vertices per vertex-stage work item.
    public static let vertexChunk = 8192
    /// Survivors ahead whose vertices setup asks the cache for (64 bytes each, read at random
    /// in a dense mesh).
    static let setupPrefetchDistance = 8

    /// Skip triangles whose front (counter-clockwise in OpenGL's sense) faces away.
    public var cullBackFaces: Bool
    /// Flip the normal of back-facing triangles before lighting (meshes wound inside out).
    public var twoSidedLighting: Bool
    /// Lighting for materials marked `lit`.
    public var lighting: Lighting

    /// Creates settings; the defaults draw everything (no culling) with two-sided lighting off.
    public init(cullBackFaces: Bool = false, twoSidedLighting: Bool = false, lighting: Lighting = Lighting()) {
        self.cullBackFaces = cullBackFaces; self.twoSidedLighting = twoSidedLighting; self.lighting = lighting
    }
}

/// Lambert + ambient lighting with one directional light, in world space:
/// `colour · (ambient + diffuse · max(0, n·L))`. The defaults match the llvmpipe baseline
/// in `../shared/bench` (L = normalize(0.3, 0.5, 0.8), 0.15 ambient, 0.85 diffuse).
public struct Lighting: Sendable {
    /// Unit direction toward the light (world space).
    public var direction: Vec3
    /// Ambient term.
    public var ambient: Float
    /// Diffuse weight.
    public var diffuse: Float

    public init(direction: Vec3 = Vec3(0.3, 0.5, 0.8).normalized, ambient: Float = 0.15, diffuse: Float = 0.85) {
        self.direction = direction.normalized; self.ambient = ambient; self.diffuse = diffuse
    }
}
