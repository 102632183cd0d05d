// WindowPlacement — where a window sits on its display, in pixels, and the part of the
// physical screen behind it.
import RenderCore

/// A window's rectangle on its display and the display's bounds, both in the desktop's pixel
/// coordinates (x right, y down, as SDL reports them), plus which display it is.
public struct WindowPlacement: Sendable, Equatable {
    /// The window's client area: top-left corner and size (pixels, desktop coordinates).
    public var windowX: Int, windowY: Int, windowWidth: Int, windowHeight: Int
    /// The display's bounds (pixels, desktop coordinates).
    public var displayX: Int, displayY: Int, displayWidth: Int, displayHeight: Int
    /// The display's index (multi-monitor: each display has its own physical size).
    public var display: Int

    /// Whether SDL's video driver `driver` (SDL_GetCurrentVideoDriver) can tell a window where it
    /// is on its display: not Wayland, whose windows never learn their position (SDL reports 0, 0),
    /// so a true window there falls back to the whole-screen mapping. X11 (and XWayland) can.
    public static func driverKnowsPosition(_ driver: String) -> Bool { driver.lowercased() != "wayland" }

    /// The one-line notice shown once when `driverKnowsPosition` is false.
    public static let positionUnknownNotice = "Wayland: a window cannot learn where it is on the display, so the view maps the whole screen "
        + "as if the window filled it (run under XWayland, SDL_VIDEODRIVER=x11, for a true window)"

    public init(windowX: Int, windowY: Int, windowWidth: Int, windowHeight: Int,
                displayX: Int, displayY: Int, displayWidth: Int, displayHeight: Int, display: Int = 0) {
        self.windowX = windowX; self.windowY = windowY; self.windowWidth = windowWidth; self.windowHeight = windowHeight
        self.displayX = displayX; self.displayY = displayY; self.displayWidth = displayWidth; self.displayHeight = displayHeight
        self.display = display
    }

    /// The part of `screen` (the display's physical rectangle, centred at the origin of screen
    /// space, y up) that the window covers: Kooima's screen corners become the window's corners.
    /// A window covering the whole display gives the whole screen.
    public func viewport(on screen: ScreenGeometry) -> ScreenRect {
        guard displayWidth > 0, displayHeight > 0, windowWidth > 0, windowHeight > 0 else { return ScreenRect(screen: screen) }
        let sx = screen.width / Float(displayWidth), sy = screen.height / Float(displayHeight)
        let left = Float(windowX - displayX) * sx - screen.width / 2
        let top = screen.height / 2 - Float(windowY - displayY) * sy
        return ScreenRect(minX: left, maxX: left + Float(windowWidth) * sx, minY: top - Float(windowHeight) * sy, maxY: top)
    }

    /// A point of the window (pixels from its top-left, y down) on the screen plane (metres).
    public func screenPoint(windowX x: Double, y: Double, on screen: ScreenGeometry) -> SIMD2<Double> {
        let v = viewport(on: screen)
        let w = Double(max(1, windowWidth)), h = Double(max(1, windowHeight))
        return SIMD2(Double(v.minX) + x / w * Double(v.width), Double(v.maxY) - y / h * Double(v.height))
    }
}
