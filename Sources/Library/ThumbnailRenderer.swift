// ThumbnailRenderer — one scene drawn headless, small, the way `open` shows it first: placed
// behind a screen of the thumbnail's aspect and seen from the neutral eye.
import Downloads
import ImageIO
import Viewer
import Foundation
import RenderCore
import Workers

/// Renders thumbnails with our renderers through `FrameDriver` (no display). Not thread-safe:
/// one renderer per thread (it keeps its `RenderContext`).
public final class ThumbnailRenderer {
    /// The eye (metres, screen space): the neutral eye, straight in front of the screen's centre.
    public var eye = Vec3(0, 0, 0.6)
    /// Width of the screen the scene is placed behind (metres); its height follows the thumbnail's aspect.
    public var screenWidth: Float = 0.6
    /// Rendered at this many times the size, then averaged down (smooth edges).
    public var supersample = 2
    /// Where online entries' pictures are downloaded.
    public var downloads = DownloadOptions(cacheFolder: nil)
    /// The splat budget of captures with levels of detail whose budget nobody pinned: chosen per
    /// thumbnail from the cost of those before it (`ThumbnailBudget`).
    public var budget = ThumbnailBudget()
    private let context: RenderContext

    /// - Parameter threads: render threads (the library uses one less than the cores, so the grid stays smooth).
    public init(threads: Int = max(1, CoreCount.available - 1)) {
        context = RenderContext(threads: threads, producesDepth: false)
    }

    /// Loads `entry` with the `open` command's model defaults, places it and renders it at
    /// `width`×`height`. `progress` hears (bytes done, bytes total) of long loads.
    /// - Throws: the loader's one-line error (a broken file, an unsupported format…).
    public func render(_ entry: LibraryEntry, width: Int, height: Int,
                       progress: ((Int, Int) -> Void)? = nil) throws -> (image: RGBAImage, info: LibraryItemInfo) {
        if entry.kind == .online { return try online(entry, width: width, height: height) }
        var options = SceneLoader.ModelOptions()
        options.videoPlayback = .frameExact   // a video wall shows its first frame, not a black one
        let loader = try SceneLoader.load(path: entry.path, options: options, progress: progress)
        let screen = ScreenGeometry(width: screenWidth, height: screenWidth * Float(height) / Float(max(1, width)))
        let scene = try loader.scene(screen: screen)
        var governed: BudgetedScene?
        if let b = scene as? BudgetedScene, !b.budgetIsPinned, b.wholeSplats > 0 {
            // The window's governor's ladder: the coarsest picture up to what memory allows.
            let top = b.governedTop
            b.pixelThreshold = FrameTimeGovernor.governedPixelThreshold
            b.splatBudget = budget.budget(floor: min(b.coarsestSplats, top), whole: top, start: b.splatBudget ?? top)
            governed = b
        }
        let s = max(1, supersample)
        let driver = FrameDriver(scene: scene, setup: ViewingSetup(screen: screen), context: context,
                                 width: width * s, height: height * s)
        let record = driver.renderFrame(from: FixedEyeSource(eye: eye), index: 0)
        if let governed { budget.record(ms: record.renderMs - record.stats.decodeMs, splats: governed.primitiveCount) }
        let image = Self.downsample(driver.framebuffer, by: s)
        let info: LibraryItemInfo
        if let i = loader.info {
            let kind = i.kind == "mesh" ? "triangles" : i.kind
            info = LibraryItemInfo(format: i.format.rawValue.uppercased(), kind: kind, count: i.kind == "mesh" ? i.triangles : i.count)
        } else {
            info = LibraryItemInfo(format: entry.formatHint, kind: scene.primitiveKind.rawValue, count: scene.primitiveCount)
        }
        return (image, info)
    }

    /// An online entry: its feed's picture fitted into the cell (letterboxed), else a plain card;
    /// the scene itself is downloaded only when chosen.
    func online(_ entry: LibraryEntry, width: Int, height: Int) throws -> (image: RGBAImage, info: LibraryItemInfo) {
        let info = LibraryItemInfo(format: entry.formatHint, kind: "online", count: 0)
        var out = RGBAImage(width: width, height: height, fill: 0xFF40_3020)
        guard let url = entry.thumbnailURL else { return (out, info) }
        let result = try Downloader.fetch(url, options: downloads)
        defer { if let t = result.temporaryFolder { try? FileManager.default.removeItem(atPath: t) } }
        let picture = try ImageFile.load(result.path)
        let scale = min(Double(width) / Double(picture.width), Double(height) / Double(picture.height))
        let w = max(1, Int(Double(picture.width) * scale)), h = max(1, Int(Double(picture.height) * scale))
        let x0 = (width - w) / 2, y0 = (height - h) / 2
        for y in 0..<h {
            for x in 0..<w {
                // Nearest texel at the cell pixel's centre.
                let sx = min(picture.width - 1, Int((Double(x) + 0.5) / scale)), sy = min(picture.height - 1, Int((Double(y) + 0.5) / scale))
                out.pixels[(y0 + y) * width + x0 + x] = picture.pixels[sy * picture.width + sx]
            }
        }
        return (out, info)
    }

    /// The framebuffer averaged over `s`×`s` blocks (sRGB values averaged directly: a thumbnail).
    static func downsample(_ fb: Framebuffer, by s: Int) -> RGBAImage {
        let w = fb.width / s, h = fb.height / s
        guard s > 1 else { return fb.image() }
        var pixels = [UInt32](repeating: 0, count: w * h)
        let n = UInt32(s * s)
        for y in 0..<h {
            for x in 0..<w {
                var r: UInt32 = 0, g: UInt32 = 0, b: UInt32 = 0
                for dy in 0..<s {
                    let row = (y * s + dy) * fb.width + x * s
                    for dx in 0..<s {
                        let p = fb.color[row + dx]
                        r += p & 0xFF; g += p >> 8 & 0xFF; b += p >> 16 & 0xFF
                    }
                }
                pixels[y * w + x] = 0xFF00_0000 | (b / n) << 16 | (g / n) << 8 | (r / n)
            }
        }
        return RGBAImage(width: w, height: h, pixels: pixels)
    }
}
