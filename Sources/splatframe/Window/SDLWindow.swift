import CSDL2
import Foundation
import RenderCore
import Viewer

/// Errors from the window system.
enum WindowError: Error, CustomStringConvertible {
    case noDisplay(String)
    case sdl(String)

    var description: String {
        switch self {
        case let .noDisplay(detail):
            return "no display (\(detail)): set DISPLAY to open a window, or use `splatframe render` for headless output"
        case let .sdl(what): return "SDL: \(what)"
        }
    }
}

/// An SDL2 window showing a CPU `Framebuffer` through a streaming RGBA texture.
/// Owns the SDL window, renderer and texture and frees them in `deinit`.
final class SDLWindow {
    private let window: OpaquePointer
    private let renderer: OpaquePointer
    private var texture: OpaquePointer?
    private var textureSize = (0, 0)
    private(set) var isFullscreen = false
    /// SDL's video driver ("x11", "wayland", …).
    let videoDriver: String
    /// Whether the driver tells the window where it is (`WindowPlacement.driverKnowsPosition`).
    var knowsPosition: Bool { WindowPlacement.driverKnowsPosition(videoDriver) }

    /// SDL's video drivers that draw to no screen: chosen only when SDL_VIDEODRIVER names them.
    static let screenlessDrivers: Set<String> = ["offscreen", "dummy", "evdev"]

    /// Opens a resizable window of `width`×`height` pixels.
    init(title: String, width: Int, height: Int, fullscreen: Bool) throws {
        let env = ProcessInfo.processInfo.environment
        if (env["DISPLAY"] ?? "").isEmpty && (env["WAYLAND_DISPLAY"] ?? "").isEmpty {
            throw WindowError.noDisplay("DISPLAY is not set")
        }
        // SDL hands X11 the title through the C library's locale: in the "C" locale a program
        // starts in, a title with any non-ASCII character never reaches _NET_WM_NAME (what window
        // managers show), which keeps its first value. The user's character set fixes that (only
        // LC_CTYPE: numbers keep their "C" formatting); titles keep to ASCII separators, so they
        // read right whatever the locale.
        setlocale(LC_CTYPE, "")
        SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
        guard SDL_Init(SDL_INIT_VIDEO) == 0 else {
            throw WindowError.noDisplay(String(cString: SDL_GetError()))
        }
        // When neither X11 nor Wayland answers, SDL falls back to a driver with no screen
        // (offscreen, dummy) and the window would run unseen: refuse unless it was asked for.
        let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? ""
        if Self.screenlessDrivers.contains(driver.lowercased()), (env["SDL_VIDEODRIVER"] ?? "").lowercased() != driver.lowercased() {
            SDL_Quit()
            let tried = [("X server", "DISPLAY"), ("Wayland", "WAYLAND_DISPLAY")]
                .compactMap { what, key in env[key].flatMap { $0.isEmpty ? nil : "\(what) \(key)=\($0)" } }.joined(separator: " or ")
            throw WindowError.noDisplay("cannot connect to the \(tried)")
        }
        var flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        if fullscreen { flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue }
        let centered = Int32(bitPattern: 0x2FFF_0000) // SDL_WINDOWPOS_CENTERED
        guard let w = SDL_CreateWindow(title, centered, centered, Int32(width), Int32(height), flags) else {
            let e = String(cString: SDL_GetError()); SDL_Quit()
            throw WindowError.noDisplay(e)
        }
        window = w
        videoDriver = driver
        // Prefer a vsync-free accelerated renderer; fall back to SDL's software renderer.
        if let r = SDL_CreateRenderer(w, -1, SDL_RENDERER_ACCELERATED.rawValue) ?? SDL_CreateRenderer(w, -1, SDL_RENDERER_SOFTWARE.rawValue) {
            renderer = r
        } else {
            let e = String(cString: SDL_GetError()); SDL_DestroyWindow(w); SDL_Quit()
            throw WindowError.sdl("cannot create a renderer: \(e)")
        }
        isFullscreen = fullscreen
    }

    deinit {
        if let texture { SDL_DestroyTexture(texture) }
        SDL_DestroyRenderer(renderer)
        SDL_DestroyWindow(window)
        SDL_Quit()
    }

    /// The size of the drawable area in pixels.
    var drawableSize: (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &w, &h)
        return (max(1, Int(w)), max(1, Int(h)))
    }

    /// The window size in screen coordinates (what mouse positions are measured in).
    var windowSize: (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowSize(window, &w, &h)
        return (max(1, Int(w)), max(1, Int(h)))
    }

    /// Lets the window system process pending events (keeps the window responsive during long work).
    func pumpEvents() { SDL_PumpEvents() }

    /// Sets the title bar text.
    func setTitle(_ title: String) { SDL_SetWindowTitle(window, title) }

    /// Switches between windowed and desktop fullscreen.
    func toggleFullscreen() {
        isFullscreen.toggle()
        SDL_SetWindowFullscreen(window, isFullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue : 0)
    }

    /// Uploads the framebuffer and shows it stretched over the window.
    func present(_ fb: Framebuffer) throws {
        if texture == nil || textureSize != (fb.width, fb.height) {
            if let texture { SDL_DestroyTexture(texture) }
            texture = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_RGBA32.rawValue, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                        Int32(fb.width), Int32(fb.height))
            guard texture != nil else { throw WindowError.sdl("cannot create texture: \(String(cString: SDL_GetError()))") }
            textureSize = (fb.width, fb.height)
        }
        SDL_UpdateTexture(texture, nil, fb.color, Int32(fb.width * 4))
        SDL_RenderClear(renderer)
        SDL_RenderCopy(renderer, texture, nil, nil)
        SDL_RenderPresent(renderer)
    }

    /// Where the window is: its client rectangle and its display's bounds (desktop pixels); nil
    /// when unknown (Wayland: the view then keeps the whole-screen mapping).
    func placement() -> WindowPlacement? {
        guard knowsPosition else { return nil }
        var x: Int32 = 0, y: Int32 = 0, w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowPosition(window, &x, &y)
        SDL_GetWindowSize(window, &w, &h)
        let index = SDL_GetWindowDisplayIndex(window)
        var bounds = SDL_Rect()
        guard index >= 0, SDL_GetDisplayBounds(index, &bounds) == 0 else { return nil }
        return WindowPlacement(windowX: Int(x), windowY: Int(y), windowWidth: Int(w), windowHeight: Int(h),
                               displayX: Int(bounds.x), displayY: Int(bounds.y), displayWidth: Int(bounds.w),
                               displayHeight: Int(bounds.h), display: Int(index))
    }

    /// The refresh rate (Hz) of the display the window is on, as SDL reports its current mode;
    /// 60 when it reports none (Xvfb, some drivers).
    func refreshRate() -> Double {
        var mode = SDL_DisplayMode()
        let index = SDL_GetWindowDisplayIndex(window)
        guard index >= 0, SDL_GetCurrentDisplayMode(index, &mode) == 0, mode.refresh_rate > 0 else { return 60 }
        return Double(mode.refresh_rate)
    }

    /// The physical size of the display the window is on, from SDL's reported DPI, or nil when
    /// SDL reports none or an implausible value.
    func physicalDisplaySize() -> ScreenGeometry? {
        physicalSize(display: SDL_GetWindowDisplayIndex(window))
    }

    /// The physical size of display `index` from SDL's DPI, or nil.
    func physicalSize(display index: Int32) -> ScreenGeometry? {
        var mode = SDL_DisplayMode()
        var hdpi: Float = 0, vdpi: Float = 0
        guard index >= 0, SDL_GetCurrentDisplayMode(index, &mode) == 0, SDL_GetDisplayDPI(index, nil, &hdpi, &vdpi) == 0,
              hdpi > 20, vdpi > 20 else { return nil }
        let w = Float(mode.w) / hdpi * 0.0254, h = Float(mode.h) / vdpi * 0.0254
        guard w > 0.05, h > 0.05, w < 20, h < 20 else { return nil }
        return ScreenGeometry(width: w, height: h)
    }
}
