// RenderContext — the renderers a session draws with, created once and reused.
import RenderCore
import SplatRender
import TriangleRaster
import Workers

/// The renderers a frame is drawn with, created once per session and reused.
public final class RenderContext: @unchecked Sendable {
    /// Threads each renderer uses (including the calling thread).
    public let threads: Int
    /// The triangle rasterizer.
    public let raster: TriangleRasterizer
    /// The splat renderer's blend kernel (the image is the same with either).
    public let blendKernel: BlendKernel
    /// The Gaussian-splat renderer (created on first use).
    public private(set) lazy var splats: SplatRenderer = {
        let r = SplatRenderer(threads: threads)
        r.blendKernel = blendKernel
        return r
    }()

    /// Creates renderers on `threads` threads (default: one per core), splats blended by
    /// `blendKernel` (default: the one built for this CPU).
    public init(threads: Int = CoreCount.available, blendKernel: BlendKernel = .native) {
        self.threads = max(1, threads)
        self.blendKernel = blendKernel
        raster = TriangleRasterizer(threads: self.threads)
    }
}

extension RenderContext {
    /// Clears `target` to `background` (colour) and +inf (depth) on the render threads and
    /// returns the milliseconds it took.
    func clear(_ target: Framebuffer, background: Vec3) -> Double {
        let t0 = MonotonicClock.now()
        raster.clear(target, color: PackedColor.pack(Vec4(background.x, background.y, background.z, 1)))
        return (MonotonicClock.now() - t0) * 1000
    }

    /// The start every model scene's frame shares: clear `target` to `background` (timed as
    /// `clearMs`) and draw the cube `room` around the model, when there is one. Splats alone
    /// (`splatsCoverTarget`) write every pixel's colour and depth themselves, so then there is
    /// nothing to clear.
    func beginFrame(_ target: Framebuffer, background: Vec3, room: TriangleMesh?, camera: Camera,
                    splatsCoverTarget: Bool = false) -> FrameStats {
        var stats = FrameStats()
        if room != nil || !splatsCoverTarget {
            stats.clearMs = clear(target, background: background)
        }
        if let room {
            raster.settings = RasterSettings()
            stats.raster += raster.draw(room, camera: camera, into: target)
        }
        return stats
    }
}
