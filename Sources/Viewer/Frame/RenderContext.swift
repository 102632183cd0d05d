// RenderContext — the renderers a session draws with, created once and reused.
import RenderCore
import SplatRender
import TriangleRaster
import Workers

/// The renderers a frame is drawn with, created once per session and reused.
public final class RenderContext {
    /// Threads each renderer uses (including the calling thread).
    public let threads: Int
    /// The triangle rasterizer.
    public let raster: TriangleRasterizer
    /// The splat renderer's blend kernel (the image is the same with either).
    public let blendKernel: BlendKernel
    /// Whether a frame leaves its depth (metres along −Z) in the framebuffer for the caller
    /// to read. Meshes always write depth (their own depth test needs it); splats drawn last
    /// write theirs only when this is true — 8–13 % of a million-splat frame. The window,
    /// `bench` and `export` show colour alone and pass false; `render --depth-out` needs true.
    /// It may change between frames (the window's `--reproject auto` turns it on when frames
    /// get slow enough for the warp to pay).
    public var producesDepth: Bool {
        didSet { if splatsMade { splats.writesDepth = producesDepth } }
    }
    private var splatsMade = false
    /// The Gaussian-splat renderer (created on first use).
    public private(set) lazy var splats: SplatRenderer = {
        let r = SplatRenderer(threads: threads)
        r.blendKernel = blendKernel
        r.writesDepth = producesDepth
        splatsMade = true
        return r
    }()

    /// Creates renderers on `threads` threads (default: one per core), splats blended by
    /// `blendKernel` (default: the one built for this CPU), frames leaving their depth in the
    /// framebuffer when `producesDepth` is true.
    public init(threads: Int = CoreCount.available, blendKernel: BlendKernel = .native, producesDepth: Bool = true) {
        self.threads = max(1, threads)
        self.blendKernel = blendKernel
        self.producesDepth = producesDepth
        raster = TriangleRasterizer(threads: self.threads)
    }

    /// Whether splats drawn alone leave nothing for a clear to do: they write every pixel's
    /// colour, and their depth either goes out with it or is not wanted.
    var splatsCoverTarget: Bool { splats.writesDepth || !producesDepth }
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
    /// (`splatsCoverTarget`) write every pixel's colour themselves and their depth unless
    /// nobody reads it, so then there is nothing to clear.
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
