// PointerControl — the mouse on the scene screen: a left drag orbits a model, a right drag pans it,
// otherwise the cursor moves the mouse head source's eye; the wheel zooms a model (Ctrl, or with no
// mouse head source) or moves the eye in z. Its one state: which button drags.
import CSDL2
import Foundation
import HeadTracking
import RenderCore
import Viewer

/// The scene screen's pointer input. Frame loop only.
struct PointerControl {
    /// The SDL button held since a press on a placeable model (0: none).
    private var dragging: UInt8 = 0
    /// Whether a button drags the model (motion then turns or pans it).
    var isDragging: Bool { dragging != 0 }

    /// Applies `event`. `place` changes the model's placement (absent when it has none); the
    /// cursor maps to the display through `placement` (the window's place on it; nil: the window
    /// is the display), and a pan to the viewport (`viewport`, metres).
    mutating func handle(_ event: SDL_Event, windowSize size: (width: Int, height: Int), placement: WindowPlacement?,
                         viewport: ScreenRect, mouse: MouseSource?, place: ((inout Placement) -> Void) -> Bool) {
        // Whether the scene has a placement; asked only for events that can move it (so that the
        // mouse moving the head never touches the scene).
        var placeable: Bool { place { _ in } }
        switch SDL_EventType(rawValue: event.type) {
        case SDL_MOUSEMOTION:
            if dragging != 0, placeable {
                let dx = Float(event.motion.xrel), dy = Float(event.motion.yrel)
                if dragging == UInt8(SDL_BUTTON_LEFT) {
                    _ = place { $0.yaw += dx * 0.01; $0.pitch += dy * 0.01 }
                } else {
                    _ = place { $0.pan[0] += dx / Float(size.width) * viewport.width; $0.pan[1] -= dy / Float(size.height) * viewport.height }
                }
            } else {
                // The eye goes over the cursor's place on the display (the window is a part of it).
                let p = placement ?? WindowPlacement(windowX: 0, windowY: 0, windowWidth: size.width, windowHeight: size.height,
                                                     displayX: 0, displayY: 0, displayWidth: size.width, displayHeight: size.height)
                mouse?.update(
                    normalizedX: (Double(p.windowX - p.displayX) + Double(event.motion.x) + 0.5) / Double(max(1, p.displayWidth)),
                    normalizedY: (Double(p.windowY - p.displayY) + Double(event.motion.y) + 0.5) / Double(max(1, p.displayHeight)))
            }
        case SDL_MOUSEBUTTONDOWN:
            if placeable { dragging = event.button.button }
        case SDL_MOUSEBUTTONUP:
            dragging = 0
        case SDL_MOUSEWHEEL:
            let ctrl = SDL_GetModState().rawValue & KMOD_CTRL.rawValue != 0
            if placeable, ctrl || mouse == nil {
                _ = place { $0.zoom *= powf(1.1, Float(event.wheel.y)) }
            } else {
                mouse?.scroll(delta: Double(event.wheel.y))
            }
        default:
            break
        }
    }
}
