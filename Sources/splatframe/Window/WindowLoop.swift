// WindowLoop — the window's event loop: SDL events → key actions (through `KeyBindings`) or
// pointer input for the screen shown → one frame of that screen, continuously.
import CSDL2
import Downloads
import Foundation
import RenderCore
import Viewer

/// Everything the loop needs, fixed when it starts.
struct WindowConfiguration {
    /// `--frames N` (tests, soak): quit after N frames.
    var maxFrames: Int?
    /// `--stats-every S`: a line of frame-time and memory figures on stderr every S seconds.
    var statsEvery: Double?
    /// `--test-drop FRAME:PATH`: push an SDL drop event for PATH at that frame (the real drop path).
    var testDrop: TestDrop?
    /// The library's grid, and whether it is the home screen (`splatframe library`: Esc there quits).
    var library: LibraryView?
    var libraryIsHome = false
    /// `splatframe calibrate`: the window exists only to calibrate the screen; it closes after saving.
    var calibrationOnly = false
    /// Where F2's screen calibration saves.
    var configPath: String?
    /// Notices to show on the HUD at start (fall-backs of the head source, the font).
    var notices: [String] = []
}

/// The loop over the window's screens: the scene (with the help overlay), the library and the
/// card calibration. Each frame: events, then one frame of the screen shown.
final class WindowLoop {
    private enum Shown { case scene, help, library, card(CardCalibrationScreen) }

    let configuration: WindowConfiguration
    let scene: SceneScreen
    private var library: LibraryView?
    private var shown: Shown = .scene
    /// The scene was opened from the grid: Esc goes back to it (q still quits).
    private var openedFromLibrary = false

    init(scene: SceneScreen, configuration: WindowConfiguration) {
        self.scene = scene
        self.configuration = configuration
        library = configuration.library
        var all = configuration.notices
        if !scene.text.isTrueType { all.append("HUD text: \(scene.text.origin)") }
        for n in all where !configuration.notices.contains(n) { FileHandle.standardError.write(Data("splatframe: \(n)\n".utf8)) }
        if !all.isEmpty { scene.flash(all.joined(separator: "  "), seconds: 8) }
        if configuration.library != nil { showLibrary() }
        if configuration.calibrationOnly { startCardCalibration() }
    }

    private var screenKind: ScreenKind {
        switch shown {
        case .scene, .help: return .scene
        case .library: return .library
        case .card: return .card
        }
    }

    /// Runs until the user quits (or `maxFrames`).
    func run() throws {
        var frames = 0
        var lastSummary = MonotonicClock.now()
        let stats = configuration.statsEvery.map { SoakStats(every: $0) }
        var running = true
        while running {
            var event = SDL_Event()
            while SDL_PollEvent(&event) != 0 {
                // With frames drawn on their own thread, anything that may touch the scene waits
                // for the frame in flight; the mouse moving the head does not.
                var keep = true
                scene.idle(unless: scene.isHover(event)) { keep = handle(event) }
                if !keep { running = false }
            }
            if let d = configuration.testDrop, d.frame == frames { pushDrop(d.path) }
            let size = scene.window.drawableSize
            scene.prepareFrame(size: size)
            if let failure = scene.pollLoad(), openedFromLibrary {
                library?.flash("Cannot open: \(failure)")
                showLibrary()
            }
            switch shown {
            case .library:
                try scene.idle {
                    let fb = scene.driver.framebuffer
                    fb.resize(width: size.width, height: size.height)
                    library?.draw(into: fb, text: scene.text)
                    scene.text.endFrame()
                    try scene.window.present(fb)
                }
                SDL_Delay(15)   // the grid needs no more than ~60 fps
            case .card(let card):
                // Calibration shows only the card outline, on the whole display.
                try scene.idle {
                    let fb = scene.driver.framebuffer
                    fb.resize(width: size.width, height: size.height)
                    card.draw(into: fb, text: scene.text, message: scene.currentMessage)
                    scene.text.endFrame()
                    try scene.window.present(fb)
                }
            case .scene, .help:
                let ms = try scene.drawFrame(index: frames, help: { if case .help = shown { return true }; return false }())
                stats?.frame(ms: ms, governedBudget: scene.governedBudget, shown: scene.governedShown)
            }
            frames += 1
            if let m = configuration.maxFrames, frames >= m { running = false }
            let now = MonotonicClock.now()
            if now - lastSummary > 1, screenKind == .scene {
                scene.refreshSummary()
                lastSummary = now
            }
        }
    }

    /// Handles one event; false means quit.
    private func handle(_ event: SDL_Event) -> Bool {
        switch SDL_EventType(rawValue: event.type) {
        case SDL_QUIT:
            return false
        case SDL_DROPFILE:
            guard let file = event.drop.file else { return true }
            let path = String(cString: file)
            SDL_free(file)
            if case .library = shown { openFromLibrary(path) } else { scene.open(path) }
            return true
        case SDL_DROPTEXT:
            // A link dragged from a browser arrives as text: its first line, when it is a URL.
            guard let text = event.drop.file else { return true }
            let line = String(cString: text).split(whereSeparator: \.isNewline).first.map(String.init)?
                .trimmingCharacters(in: .whitespaces) ?? ""
            SDL_free(text)
            guard Downloader.isURL(line) else { return true }
            if case .library = shown { openFromLibrary(line) } else { scene.open(line) }
            return true
        case SDL_KEYDOWN:
            let shift = SDL_GetModState().rawValue & KMOD_SHIFT.rawValue != 0
            guard let action = KeyBindings.action(code: event.key.keysym.sym, shift: shift, on: screenKind) else { return true }
            return perform(action)
        case SDL_MOUSEWHEEL:
            if case .card(let card) = shown {
                card.wheel(Double(event.wheel.y), fine: SDL_GetModState().rawValue & KMOD_SHIFT.rawValue != 0)
                return true
            }
            fallthrough
        default:
            switch shown {
            case .library:
                if let library, case .open(let path) = library.pointer(event, window: scene.window) { openFromLibrary(path) }
            case .scene, .help:
                scene.pointer(event)
            case .card:
                break
            }
            return true
        }
    }

    /// Performs a key's action on the screen shown; false means quit.
    private func perform(_ action: WindowAction) -> Bool {
        switch (shown, action) {
        case (_, .quit):
            return false
        case (.help, .back), (.help, .toggleHelp):
            shown = .scene
        case (.scene, .back):
            if openedFromLibrary { showLibrary() } else { return false }
        case (.scene, .toggleHelp):
            shown = .help
        case (.scene, .showLibrary), (.help, .showLibrary):
            showLibrary()
        case (.scene, .startCardCalibration), (.help, .startCardCalibration):
            startCardCalibration()
        case (.library, .toggleFullscreen):
            scene.window.toggleFullscreen()
        case (.library, _):
            guard let library else { return true }
            switch library.perform(action) {
            case .none: break
            case .quit: return false
            case .back:
                if configuration.libraryIsHome { return false }
                hideLibrary()
            case .open(let path): openFromLibrary(path)
            }
        case (.card(let card), _):
            switch card.perform(action, setup: &scene.setup, flash: { scene.flash($0, seconds: $1) }) {
            case .stay: break
            case .close:
                if configuration.calibrationOnly { return false }
                scene.flash("SCREEN CALIBRATION CANCELLED")
                shown = .scene
            case .saved:
                if configuration.calibrationOnly { return false }
                shown = .scene
            }
        case (.scene, _), (.help, _):
            scene.perform(action)
        }
        return true
    }

    // MARK: screens

    /// Shows the grid (made on first use from the default folders).
    private func showLibrary() {
        if library == nil { library = LibraryView.start(threads: scene.driver.context.threads) }
        library?.activate()
        shown = .library
    }

    private func hideLibrary() {
        library?.deactivate()
        shown = .scene
    }

    private func openFromLibrary(_ path: String) {
        openedFromLibrary = true
        scene.open(path)
        hideLibrary()
    }

    private func startCardCalibration() {
        let p = scene.placement ?? scene.window.placement()
        let size = scene.window.windowSize
        let card = CardCalibration(screen: scene.setup.screen.value, displayWidth: p?.displayWidth ?? size.width,
                                   displayHeight: p?.displayHeight ?? size.height)
        shown = .card(CardCalibrationScreen(card: card, configPath: configuration.configPath))
        if !scene.window.isFullscreen { scene.window.toggleFullscreen() }
    }

    /// Pushes a drop event into SDL's own queue (tests: the same path a real drop takes).
    private func pushDrop(_ path: String) {
        var e = SDL_Event()
        e.type = SDL_DROPFILE.rawValue
        e.drop.file = SDL_strdup(path)
        e.drop.windowID = 0
        SDL_PushEvent(&e)
    }
}
