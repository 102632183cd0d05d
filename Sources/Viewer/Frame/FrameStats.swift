// FrameStats — what one frame cost, by stage.
import RenderCore
import SplatRender
import TriangleRaster

/// What one frame cost, in milliseconds, by stage.
public struct FrameStats: Sendable, Equatable {
    /// Triangle rasterizer stages (all draws of the frame).
    public var raster = RasterStats()
    /// Clearing the target.
    public var clearMs: Double = 0
    /// The whole frame (`Scene.render`).
    public var totalMs: Double = 0
    /// `Scene.advance` before the frame: video frames uploaded to their textures (and, in
    /// frame-exact playback, any wait for the decoder).
    public var advanceMs: Double = 0
    /// A streamed SOG's level-of-detail step inside `Scene.render`: choosing levels, stepping,
    /// requesting chunks (and, in frame-exact playback, decoding them), re-assembling the splats.
    public var lodMs: Double = 0
    /// Of `lodMs`, the frame-exact decoding of chunks (render, bench, export: the window decodes
    /// on loader threads, outside its frames).
    public var decodeMs: Double = 0
    /// Splat renderer stages, when the frame drew splats (stored inline: no allocation per frame).
    public var splat: SplatStageTimes?

    public init() {}

    /// Named extra stages (splats: clear, preprocess, sort, bin, blend — blend includes the
    /// resolve, each tile's write-out to the framebuffer), in order; builds an array, so read
    /// it outside allocation-sensitive loops.
    public var stages: [(name: String, ms: Double)] {
        guard let t = splat else { return [] }
        return [("clear", clearMs), ("preprocess", t.preprocess), ("sort", t.sort), ("bin", t.bin), ("blend", t.blend)]
    }

    public static func == (a: FrameStats, b: FrameStats) -> Bool {
        a.raster == b.raster && a.clearMs == b.clearMs && a.totalMs == b.totalMs && a.advanceMs == b.advanceMs && a.lodMs == b.lodMs && a.decodeMs == b.decodeMs && a.splat == b.splat
    }
}
