// WindowViewport — a true window: the framebuffer shows the part of the physical screen behind
// the window's own rectangle, found again every frame (moves, resizes, other displays). Its state:
// the display the set-up's screen size describes (where the window opened) and the window's place.
import Foundation
import Viewer

/// Where the window is on which display. Frame loop only.
struct WindowViewport {
    /// The display the window opened on: the set-up's screen size is that display's.
    private var homeDisplay: Int?
    /// The window's place on its display, as of the last `update`.
    private(set) var placement: WindowPlacement?

    /// Sets `setup.viewport` to the screen rectangle behind `window` (on another display, that
    /// display's physical size when SDL knows it).
    mutating func update(_ window: SDLWindow, setup: inout ViewingSetup) {
        guard let p = window.placement() else { return }
        if homeDisplay == nil { homeDisplay = p.display }
        placement = p
        let screen = p.display == homeDisplay ? setup.screen.value
            : (window.physicalSize(display: Int32(p.display)) ?? setup.screen.value)
        setup.viewport = p.viewport(on: screen)
    }
}
