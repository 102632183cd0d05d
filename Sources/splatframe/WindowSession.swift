import CSDL2
import Foundation
import Procedural
import RenderCore
import Viewer

/// The interactive loop: events → eye position → off-axis camera → scene → window, continuously.
///
/// Keys: Esc/q quit, F11/f fullscreen, h HUD, r reset the eye. The mouse over the window moves
/// the eye in x/y (window edge = screen edge) at the current distance; the wheel moves it in z.
final class WindowSession {
    let window: SDLWindow
    let scene: Scene
    let context: RenderContext
    let screen: ScreenGeometry
    let movementScale: Float
    let fixedEye: Vec3?
    let framebuffer = Framebuffer(width: 1, height: 1)
    /// The neutral eye: centred, 0.6 m in front of the screen.
    static let neutralEye = Vec3(0, 0, 0.6)

    private var mouseEye = WindowSession.neutralEye
    private var showHUD = true
    private var frameTimes: [Double] = []

    init(window: SDLWindow, scene: Scene, context: RenderContext, screen: ScreenGeometry, movementScale: Float, fixedEye: Vec3?) {
        self.window = window; self.scene = scene; self.context = context
        self.screen = screen; self.movementScale = movementScale; self.fixedEye = fixedEye
    }

    /// The eye for this frame: the head position with its offset from neutral scaled.
    var eye: Vec3 {
        let head = fixedEye ?? mouseEye
        var e = WindowSession.neutralEye + (head - WindowSession.neutralEye) * movementScale
        e.z = max(e.z, 0.05)
        return e
    }

    /// Runs until the user quits; `maxFrames` (for tests) stops earlier.
    func run(maxFrames: Int? = nil) throws {
        var running = true
        var frames = 0
        var lastTitle = MonotonicClock.now()
        while running {
            var event = SDL_Event()
            while SDL_PollEvent(&event) != 0 {
                switch SDL_EventType(rawValue: event.type) {
                case SDL_QUIT: running = false
                case SDL_KEYDOWN:
                    let key = event.key.keysym.sym
                    if key == SDLK_ESCAPE.rawValue || key == Int32(UInt8(ascii: "q")) { running = false }
                    else if key == SDLK_F11.rawValue || key == Int32(UInt8(ascii: "f")) { window.toggleFullscreen() }
                    else if key == Int32(UInt8(ascii: "h")) { showHUD.toggle() }
                    else if key == Int32(UInt8(ascii: "r")) { mouseEye = WindowSession.neutralEye }
                case SDL_MOUSEMOTION:
                    let size = window.windowSize
                    let nx = (Float(event.motion.x) + 0.5) / Float(size.width) * 2 - 1
                    let ny = (Float(event.motion.y) + 0.5) / Float(size.height) * 2 - 1
                    mouseEye.x = nx * screen.width / 2
                    mouseEye.y = -ny * screen.height / 2
                case SDL_MOUSEWHEEL:
                    let factor = powf(0.92, Float(event.wheel.y))
                    mouseEye.z = min(3, max(0.1, mouseEye.z * factor))
                default: break
                }
            }
            let size = window.drawableSize
            framebuffer.resize(width: size.width, height: size.height)
            let start = MonotonicClock.now()
            let camera = OffAxisFrustum.camera(eye: eye, screen: screen, width: size.width, height: size.height)
            let stats = scene.render(camera: camera, into: framebuffer, context: context)
            let renderMs = (MonotonicClock.now() - start) * 1000
            frameTimes.append(renderMs)
            if frameTimes.count > 120 { frameTimes.removeFirst(frameTimes.count - 120) }
            if showHUD { drawHUD(stats: stats) }
            try window.present(framebuffer)
            frames += 1
            if let maxFrames, frames >= maxFrames { running = false }
            let now = MonotonicClock.now()
            if now - lastTitle > 1 {
                window.setTitle("SplatFrame — \(scene.name) — \(String(format: "%.0f", 1000 / median(frameTimes))) fps")
                lastTitle = now
            }
        }
    }

    private func median(_ v: [Double]) -> Double {
        guard !v.isEmpty else { return 1 }
        let s = v.sorted()
        return max(0.001, s[s.count / 2])
    }

    private func drawHUD(stats: FrameStats) {
        let e = eye
        let lines = [
            String(format: "%.1f MS  %.0f FPS  %dX%d  %d THREADS", median(frameTimes), 1000 / median(frameTimes),
                   framebuffer.width, framebuffer.height, context.pool.threadCount),
            String(format: "EYE %+.3f %+.3f %+.3f M   SCREEN %.3fX%.3f M", e.x, e.y, e.z, screen.width, screen.height),
            "\(scene.name.uppercased())  \(scene.primitiveCount) PRIMITIVES   H HUD  F FULLSCREEN  Q QUIT",
        ]
        let scale = framebuffer.width >= 1600 ? 2 : 1
        for (i, line) in lines.enumerated() {
            let y = 6 + i * (BitmapFont.glyphHeight + 3) * scale
            BitmapFont.draw(line, x: 7, y: y + 1, scale: scale, color: 0xFF00_0000, into: framebuffer.color,
                            width: framebuffer.width, height: framebuffer.height)
            BitmapFont.draw(line, x: 6, y: y, scale: scale, color: 0xFFFF_FFFF, into: framebuffer.color,
                            width: framebuffer.width, height: framebuffer.height)
        }
    }
}
