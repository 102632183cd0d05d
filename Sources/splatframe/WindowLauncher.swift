import Foundation
import HeadTracking
import Procedural
import RenderCore
import Viewer

/// Opens the window, resolves the screen and head tracking, builds the scene, runs the loop.
enum WindowLauncher {
    static func run(windowOptions: WindowOptions, screenOptions: ScreenOptions, head: HeadOptions, frames: Int?,
                    modelFile: String?, makeScene: (ScreenGeometry, _ progress: @escaping (Int, Int) -> Void) throws -> Scene) throws {
        let size = try OptionParsing.size(windowOptions.size)
        let threads = try windowOptions.validatedThreads()
        let screenFlag = try screenOptions.flag()
        let headOptions = try head.resolved()
        let window = try SDLWindow(title: "SplatFrame", width: size.width, height: size.height, fullscreen: windowOptions.fullscreen)
        let session = try HeadTrackingSession(options: headOptions, screenFlag: screenFlag, displayScreen: window.physicalDisplaySize())
        let screen = session.screen
        FileHandle.standardError.write(Data(String(format: "splatframe: screen %.3f×%.3f m (from %@), head %@\n",
                                                   screen.width, screen.height, session.settings.screen.origin.rawValue,
                                                   "\(session.settings.head.value)").utf8))
        let progress = LoadingScreen(window: window)
        let scene = try makeScene(screen) { done, total in progress.show(done: done, total: total) }
        try session.start()
        defer { session.stop() }
        let loop = WindowSession(window: window, scene: scene, context: RenderContext(threads: threads), tracking: session,
                                 modelFile: modelFile)
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
