// RenderContext — the renderers a session draws with, created once and reused.
import RenderCore
import SplatRender
import TriangleRaster

/// The renderers a frame is drawn with, created once per session and reused.
public final class RenderContext: @unchecked Sendable {
    /// Threads each renderer uses (including the calling thread).
    public let threads: Int
    /// The triangle rasterizer.
    public let raster: TriangleRasterizer
    /// The Gaussian-splat renderer (created on first use).
    public private(set) lazy var splats = SplatRenderer(threads: threads)

    /// Creates renderers on `threads` threads (default: one per core).
    public init(threads: Int = CoreCount.available) {
        self.threads = max(1, threads)
        raster = TriangleRasterizer(threads: self.threads)
    }
}
