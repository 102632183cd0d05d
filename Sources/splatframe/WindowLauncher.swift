import Foundation
import HeadTracking
import Procedural
import RenderCore
import Viewer

/// Opens the window, resolves the screen and head tracking, builds the scene, runs the loop.
enum WindowLauncher {
    static func run(windowOptions: WindowOptions, screenOptions: ScreenOptions, configOption: ConfigOption, head: HeadOptions,
                    frames: Int?, modelFile: String?,
                    makeScene: (ScreenGeometry, _ progress: @escaping (Int, Int) -> Void) throws -> Scene) throws {
        let size = try OptionParsing.size(windowOptions.size)
        let threads = try windowOptions.validatedThreads()
        if let s = windowOptions.statsEvery, !(s > 0 && s.isFinite) {
            throw ViewerError.badOption(name: "--stats-every", value: "\(s)", reason: "must be a number of seconds > 0")
        }
        let screenFlag = try screenOptions.flag()
        let headOptions = try head.resolved()
        let config = try configOption.interactive()
        let window = try SDLWindow(title: "SplatFrame", width: size.width, height: size.height, fullscreen: windowOptions.fullscreen)
        let setup = ViewingSetup.resolve(screenFlag: screenFlag, movementScaleFlag: headOptions.movementScale,
                                         config: config.file, display: window.physicalDisplaySize())
        let session = try HeadTrackingSession(options: headOptions, config: config.file, configPath: config.path,
                                              geometry: setup.trackingGeometry)
        FileHandle.standardError.write(Data("splatframe: \(setup.screenDescription), head \(session.settings.head.value)\n".utf8))
        let progress = LoadingScreen(window: window)
        let scene = try makeScene(setup.screen.value) { done, total in progress.show(done: done, total: total) }
        try session.start()
        defer { session.stop() }
        let driver = FrameDriver(scene: scene, setup: setup, context: RenderContext(threads: threads),
                                 width: window.drawableSize.width, height: window.drawableSize.height)
        let loop = WindowSession(window: window, driver: driver, tracking: session, modelFile: modelFile,
                                 statsEvery: windowOptions.statsEvery)
        try loop.run(maxFrames: frames)
        if let e = session.recordError { throw e }
    }
}

/// Draws a progress bar into the window while a scene file loads on the main thread
/// (throttled to about 20 updates a second; window events are pumped so it stays responsive).
final class LoadingScreen {
    let window: SDLWindow
    private let framebuffer = Framebuffer(width: 1, height: 1)
    private var last = -1.0

    init(window: SDLWindow) { self.window = window }

    func show(done: Int, total: Int) {
        let now = MonotonicClock.now()
        guard total > 0, now - last > 0.05 || done >= total else { return }
        last = now
        window.pumpEvents()
        let size = window.drawableSize
        framebuffer.resize(width: size.width, height: size.height)
        framebuffer.clear(color: 0xFF20_1810)
        let fraction = min(1, max(0, Double(done) / Double(total)))
        let w = size.width * 3 / 5, h = max(6, size.height / 60)
        let x0 = (size.width - w) / 2, y0 = size.height / 2
        for y in y0..<min(size.height, y0 + h) {
            for x in x0..<(x0 + w) {
                framebuffer.color[y * size.width + x] = x - x0 < Int(Double(w) * fraction) ? 0xFFF0_C060 : 0xFF50_4030
            }
        }
        let text = String(format: "LOADING %.0f%%  %.1f / %.1f MB", fraction * 100, Double(done) / 1e6, Double(total) / 1e6)
        let scale = size.width >= 1600 ? 3 : 2
        BitmapFont.draw(text, x: x0, y: y0 - (BitmapFont.glyphHeight + 4) * scale, scale: scale, color: 0xFFFF_FFFF,
                        into: framebuffer.color, width: size.width, height: size.height)
        try? window.present(framebuffer)
    }
}
