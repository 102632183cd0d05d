// KeyBindings — every key and pointer input of the window in one table: which screen it acts
// on, what it does, and how it is described. The event loop maps keys through it; the help
// overlay, `--help` and README's controls table are printed from it (a test holds README to it).
import CSDL2
import Viewer
import Library

/// The window's screens: what is shown and what input means.
enum ScreenKind: Hashable, CaseIterable {
    /// The scene through the window (with the HUD, camera inset and the help overlay).
    case scene
    /// The scene library's grid.
    case library
    /// Screen calibration: an ID-1 bank card's outline to match.
    case card
}

/// What an input asks for. Pointer input (drag, wheel, the cursor, drops) is interpreted by
/// the screen it lands on; these are the actions keys name.
enum WindowAction: Equatable {
    case quit
    /// Esc: close the help or the calibration, return to the library, else quit.
    case back
    case toggleFullscreen, toggleHUD, toggleHelp, screenshot
    case startCardCalibration, toggleCameraInset, calibrateWebcam, showLibrary
    /// Model placement: turn by (yaw, pitch) steps, zoom by a factor, cycle the up axis, reset, save.
    case turnModel(yaw: Float, pitch: Float)
    case zoomModel(Float)
    case cycleUpAxis, resetPlacement, savePlacement
    /// Animated captures: play or pause; pause and step by frames.
    case togglePlaying
    case stepFrames(Int)
    /// Card calibration: grow or shrink the outline by steps (fine with Shift), save the size.
    case resizeCard(Double, fine: Bool)
    case saveCard
    /// Library grid: move the selection, open it.
    case moveSelection(LibraryGridLayout.Move)
    case openSelection
}

/// One key, as SDL names it, with or without Shift (nil: either).
struct Key: Equatable {
    var code: Int32
    var shift: Bool?

    static func char(_ c: Character, shift: Bool? = nil) -> Key { Key(code: Int32(c.asciiValue!), shift: shift) }
    static func sdl(_ k: SDL_KeyCode, shift: Bool? = nil) -> Key { Key(code: Int32(bitPattern: k.rawValue), shift: shift) }

    func matches(code: Int32, shift isShift: Bool) -> Bool { self.code == code && (shift == nil || shift == isShift) }
}

/// A row of the table: keys (or a pointer gesture, described only) that do one thing on some screens.
struct KeyBinding {
    /// How the help and README name the input ("Esc, q", "drag").
    var label: String
    /// The keys; empty for pointer input, which the screens interpret.
    var keys: [Key]
    /// The action; nil for pointer input.
    var action: WindowAction?
    var screens: Set<ScreenKind>
    /// What it does, for people.
    var help: String
}

enum KeyBindings {
    static let modelStep: Float = .pi / 36

    /// Every input, in the order the help shows it.
    static let all: [KeyBinding] = [
        KeyBinding(label: "Esc", keys: [.sdl(SDLK_ESCAPE)], action: .back, screens: [.scene, .library, .card],
                   help: "close the help or the screen calibration; in a scene opened from the library, return there; else quit"),
        KeyBinding(label: "q", keys: [.char("q")], action: .quit, screens: [.scene, .library], help: "quit"),
        KeyBinding(label: "F11, f", keys: [.sdl(SDLK_F11), .char("f")], action: .toggleFullscreen, screens: [.scene, .library],
                   help: "fullscreen on/off"),
        KeyBinding(label: "h", keys: [.char("h")], action: .toggleHUD, screens: [.scene],
                   help: "HUD on/off: frame time, head source and state, eye, latency, scene, stereo"),
        KeyBinding(label: "?, F1", keys: [.sdl(SDLK_F1), .sdl(SDLK_QUESTION), .char("/", shift: true)], action: .toggleHelp, screens: [.scene],
                   help: "this help"),
        KeyBinding(label: "l", keys: [.char("l")], action: .showLibrary, screens: [.scene],
                   help: "scene library: thumbnails of the scene files; arrows and Enter or a click open one"),
        KeyBinding(label: "F12", keys: [.sdl(SDLK_F12)], action: .screenshot, screens: [.scene],
                   help: "screenshot of the frame without the HUD: a PNG named by the time in $XDG_PICTURES_DIR/splatframe (else the current folder); the path is shown"),
        KeyBinding(label: "F2", keys: [.sdl(SDLK_F2)], action: .startCardCalibration, screens: [.scene],
                   help: "screen calibration: match an ID-1 bank card's outline, Enter saves the screen size"),
        KeyBinding(label: "c", keys: [.char("c")], action: .toggleCameraInset, screens: [.scene],
                   help: "camera inset: the webcam image with the face box, eyes and distance"),
        KeyBinding(label: "k", keys: [.char("k")], action: .calibrateWebcam, screens: [.scene],
                   help: "calibrate the webcam: sit centred, eyes 0.6 m from the camera, for 3 s"),
        KeyBinding(label: "mouse", keys: [], action: nil, screens: [.scene],
                   help: "moves your eye over the cursor's place on the screen (mouse head source)"),
        KeyBinding(label: "wheel", keys: [], action: nil, screens: [.scene, .library, .card],
                   help: "eye distance (mouse head source; else zooms a model); Ctrl+wheel zooms a model; scrolls the library; resizes the card"),
        KeyBinding(label: "drop a file", keys: [], action: nil, screens: [.scene, .library],
                   help: "opens a scene file or SOG folder dropped on the window: it loads in the background with a progress bar, errors show in the window"),
        KeyBinding(label: "drag", keys: [], action: nil, screens: [.scene], help: "orbit a model (right-drag pans)"),
        KeyBinding(label: "arrows", keys: [.sdl(SDLK_LEFT)], action: .turnModel(yaw: -modelStep, pitch: 0), screens: [.scene],
                   help: "rotate a model"),
        KeyBinding(label: "", keys: [.sdl(SDLK_RIGHT)], action: .turnModel(yaw: modelStep, pitch: 0), screens: [.scene], help: ""),
        KeyBinding(label: "", keys: [.sdl(SDLK_UP)], action: .turnModel(yaw: 0, pitch: -modelStep), screens: [.scene], help: ""),
        KeyBinding(label: "", keys: [.sdl(SDLK_DOWN)], action: .turnModel(yaw: 0, pitch: modelStep), screens: [.scene], help: ""),
        KeyBinding(label: "+, -", keys: [.char("="), .char("+"), .sdl(SDLK_KP_PLUS)], action: .zoomModel(1.1), screens: [.scene],
                   help: "zoom a model"),
        KeyBinding(label: "", keys: [.char("-"), .sdl(SDLK_KP_MINUS)], action: .zoomModel(1 / 1.1), screens: [.scene], help: ""),
        KeyBinding(label: "u", keys: [.char("u")], action: .cycleUpAxis, screens: [.scene], help: "cycle a model's up axis (3DGS captures are y-down: -y is the default for splats; --up sets it)"),
        KeyBinding(label: "0", keys: [.char("0")], action: .resetPlacement, screens: [.scene], help: "reset the model's placement"),
        KeyBinding(label: "s", keys: [.char("s")], action: .savePlacement, screens: [.scene], help: "save the model's placement next to its file (FILE.splatframe.json)"),
        KeyBinding(label: "Space, comma, period", keys: [.sdl(SDLK_SPACE)], action: .togglePlaying, screens: [.scene],
                   help: "animated capture: play/pause; step a frame back, forward (pauses)"),
        KeyBinding(label: "", keys: [.char(",")], action: .stepFrames(-1), screens: [.scene], help: ""),
        KeyBinding(label: "", keys: [.char(".")], action: .stepFrames(1), screens: [.scene], help: ""),
        KeyBinding(label: "arrows, Page Up/Down, Home, End", keys: [.sdl(SDLK_LEFT)], action: .moveSelection(.left), screens: [.library],
                   help: "library: move the selection"),
        KeyBinding(label: "", keys: [.sdl(SDLK_RIGHT)], action: .moveSelection(.right), screens: [.library], help: ""),
        KeyBinding(label: "", keys: [.sdl(SDLK_UP)], action: .moveSelection(.up), screens: [.library], help: ""),
        KeyBinding(label: "", keys: [.sdl(SDLK_DOWN)], action: .moveSelection(.down), screens: [.library], help: ""),
        KeyBinding(label: "", keys: [.sdl(SDLK_PAGEUP)], action: .moveSelection(.pageUp), screens: [.library], help: ""),
        KeyBinding(label: "", keys: [.sdl(SDLK_PAGEDOWN)], action: .moveSelection(.pageDown), screens: [.library], help: ""),
        KeyBinding(label: "", keys: [.sdl(SDLK_HOME)], action: .moveSelection(.home), screens: [.library], help: ""),
        KeyBinding(label: "", keys: [.sdl(SDLK_END)], action: .moveSelection(.end), screens: [.library], help: ""),
        KeyBinding(label: "Enter, click", keys: [.sdl(SDLK_RETURN), .sdl(SDLK_KP_ENTER)], action: .openSelection, screens: [.library],
                   help: "library: open the selected scene"),
        KeyBinding(label: "arrows (Shift: finely)", keys: [.sdl(SDLK_UP), .sdl(SDLK_RIGHT)], action: .resizeCard(1, fine: false),
                   screens: [.card], help: "screen calibration: grow or shrink the card outline"),
        KeyBinding(label: "", keys: [.sdl(SDLK_DOWN), .sdl(SDLK_LEFT)], action: .resizeCard(-1, fine: false), screens: [.card], help: ""),
        KeyBinding(label: "Enter", keys: [.sdl(SDLK_RETURN), .sdl(SDLK_KP_ENTER)], action: .saveCard, screens: [.card],
                   help: "screen calibration: save the screen size to the config file"),
    ]

    /// The action of key `code` (with `shift` held) on `screen`, if any. Resizing the card takes
    /// Shift as "finely".
    static func action(code: Int32, shift: Bool, on screen: ScreenKind) -> WindowAction? {
        for b in all where b.screens.contains(screen) {
            guard let action = b.action, b.keys.contains(where: { $0.matches(code: code, shift: shift) }) else { continue }
            if case .resizeCard(let steps, _) = action { return .resizeCard(steps, fine: shift) }
            return action
        }
        return nil
    }

    /// The described rows (those with a label), in order.
    static var rows: [(keys: String, action: String)] { all.filter { !$0.label.isEmpty }.map { ($0.label, $0.help) } }

    /// The rows as plain text lines (for `--help`).
    static var helpText: String {
        let width = rows.map(\.keys.count).max() ?? 0
        return rows.map { "  " + $0.keys.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.action }.joined(separator: "\n")
    }

    /// The rows as README's Markdown table (between its `controls` markers).
    static var markdown: String {
        (["| keys | action |", "|---|---|"] + rows.map { "| \($0.keys) | \($0.action) |" }).joined(separator: "\n")
    }
}
