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

/// What one frame cost, in milliseconds, by stage.
public struct FrameStats: Sendable, Equatable {
    /// Triangle rasterizer stages (all draws of the frame).
    public var raster = RasterStats()
    /// Clearing the target.
    public var clearMs: Double = 0
    /// The whole frame.
    public var totalMs: Double = 0
    /// Named extra stages (e.g. splat preprocess/bin/sort/blend), in order.
    public var stages: [(name: String, ms: Double)] = []

    public init() {}

    public static func == (a: FrameStats, b: FrameStats) -> Bool {
        a.raster == b.raster && a.clearMs == b.clearMs && a.totalMs == b.totalMs
            && a.stages.map(\.name) == b.stages.map(\.name) && a.stages.map(\.ms) == b.stages.map(\.ms)
    }
}

/// Something that can be drawn through the window: the parallax-cube room, a mesh, a splat capture.
/// Scenes live in screen space (metres, the screen rectangle centred at the origin in z = 0,
/// +z toward the viewer); content "through the window" sits at z < 0.
public protocol Scene: AnyObject {
    /// A short name for titles and logs.
    var name: String { get }
    /// Number of primitives (triangles or splats) drawn per frame.
    var primitiveCount: Int { get }
    /// Draws the scene for `camera` into `target` (already sized to the camera), clearing it first.
    func render(camera: Camera, into target: Framebuffer, context: RenderContext) -> FrameStats
}
