// LibraryCommand — `splatframe library [DIR…]`: the scene files of some folders as a grid of
// thumbnails; the chosen one opens in the head-tracked window, Esc there comes back to the grid.
import ArgumentParser
import CSDL2
import Foundation
import RenderCore
import Viewer

/// `splatframe library [DIR…]`.
struct LibraryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library", abstract: "Browse scene files as a grid of thumbnails; open one in the head-tracked window.",
        discussion: """
            Lists every scene file in the folders (and one level of subfolders): PLY, .splat, .spz, .sog, SOG folders \
            (meta.json), streamed SOG folders (lod-meta.json), OBJ, STL and scene JSON. With no folder: the bundled \
            Scenes/ and $XDG_DATA_HOME/splatframe (else ~/.local/share/splatframe). Thumbnails are rendered in the \
            background and cached in $XDG_CACHE_HOME/splatframe/thumbnails (else ~/.cache/…), keyed by path, size and \
            modification time.
            Grid: arrows select, Enter or a click opens, Esc or q quits. The scene opens as `open FILE` does, with these options; Esc there comes back to the grid.
            """)

    @Argument(help: "Folders (or files) to show (default: the bundled Scenes/ and $XDG_DATA_HOME/splatframe).")
    var folders: [String] = []
    @Option(name: .customLong("thumbnail-size"), help: "Thumbnail size WxH in pixels.") var thumbnailSize = "256x144"
    @OptionGroup var model: ModelOptionGroup
    @OptionGroup var screenOptions: ScreenOptions
    @OptionGroup var configOption: ConfigOption
    @OptionGroup var windowOptions: WindowOptions
    @OptionGroup var head: HeadOptions

    func run() throws {
        for f in folders where !FileManager.default.fileExists(atPath: f) {
            throw ViewerError.badOption(name: "library", value: f, reason: "no such file or folder")
        }
        let thumb = try OptionParsing.size(thumbnailSize, option: "--thumbnail-size")
        guard thumb.width <= 1024, thumb.height <= 1024, thumb.width >= 16, thumb.height >= 9 else {
            throw ViewerError.badOption(name: "--thumbnail-size", value: thumbnailSize, reason: "must be 16x9…1024x1024 pixels")
        }
        let size = try OptionParsing.size(windowOptions.size)
        _ = try model.options()
        let threads = try windowOptions.validatedThreads()
        let view = LibraryView.start(folders: folders.isEmpty ? nil : folders.map(LibraryScanner.absolute), thumbnail: thumb, threads: threads)
        // Until the window can host the grid itself, a chosen scene runs as `splatframe open FILE`
        // with this command's options, in its own window, and the grid comes back when it closes.
        // (One process must not close SDL and open it again: SDL may then come back without X11
        // and fall back to its invisible offscreen driver.)
        let passthrough = Self.passthroughArguments(CommandLine.arguments, folders: folders)
        try LibraryWindow.run(view, width: size.width, height: size.height, fullscreen: windowOptions.fullscreen) { path in
            try SceneProcess(path: path, arguments: passthrough)
        }
    }

    /// The command line after `library`, without the folders and `--thumbnail-size`: the options
    /// `open` shares with this command.
    static func passthroughArguments(_ arguments: [String], folders: [String]) -> [String] {
        guard let start = arguments.firstIndex(of: "library") else { return [] }
        var rest = Array(arguments[(start + 1)...])
        var out: [String] = []
        var positional = folders
        while !rest.isEmpty {
            let a = rest.removeFirst()
            if a == "--thumbnail-size" { if !rest.isEmpty { rest.removeFirst() }; continue }
            if a.hasPrefix("--thumbnail-size=") { continue }
            if let k = positional.firstIndex(of: a) { positional.remove(at: k); continue }
            out.append(a)
        }
        return out
    }
}

/// A chosen scene in its own `splatframe open FILE` process; its stderr is passed on.
final class SceneProcess: @unchecked Sendable {
    let path: String
    private let process = Process()
    private let lock = NSLock()
    private var lastErrorLine: String?

    init(path: String, arguments: [String]) throws {
        self.path = path
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        process.executableURL = URL(fileURLWithPath: FileManager.default.isExecutableFile(atPath: me) ? me : (Bundle.main.executablePath ?? me))
        process.arguments = ["open", path, "--announce-opened"] + arguments
        let err = Pipe()
        process.standardError = err
        err.fileHandleForReading.readabilityHandler = { [weak self] h in
            let data = h.availableData
            guard !data.isEmpty else { return }
            FileHandle.standardError.write(data)
            let text = String(decoding: data, as: UTF8.self)
            if let line = text.split(separator: "\n").last(where: { $0.contains("error:") }) {
                self?.lock.lock(); self?.lastErrorLine = String(line); self?.lock.unlock()
            }
        }
        try process.run()
    }

    var isRunning: Bool { process.isRunning }

    /// Why the scene did not open, when its process failed.
    var failure: String? {
        guard !process.isRunning, process.terminationStatus != 0 else { return nil }
        lock.lock(); defer { lock.unlock() }
        return lastErrorLine.map { $0.replacingOccurrences(of: "splatframe: error: ", with: "") } ?? "exit status \(process.terminationStatus)"
    }

    func terminate() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}

/// The grid's window: runs until the user leaves the grid. While a chosen scene's window is
/// open the grid waits (thumbnails paused), and takes over again when it closes.
enum LibraryWindow {
    static func run(_ view: LibraryView, width: Int, height: Int, fullscreen: Bool, open: (String) throws -> SceneProcess) throws {
        let window = try SDLWindow(title: "SplatFrame — scene library", width: width, height: height, fullscreen: fullscreen)
        let text = WindowText()
        let framebuffer = Framebuffer(width: 1, height: 1)
        var scene: SceneProcess?
        defer { scene?.terminate() }
        while true {
            var event = SDL_Event()
            // Wait for input up to a frame's time: the grid repaints for thumbnails as they come.
            if SDL_WaitEventTimeout(&event, scene == nil ? 30 : 100) != 0 {
                repeat {
                    switch view.handle(event, window: window) {
                    case .none: break
                    case .open(let path):
                        guard scene == nil else { break }
                        do {
                            scene = try open(path)
                            view.deactivate()
                        } catch { view.flash("Cannot open \((path as NSString).lastPathComponent): \(error)") }
                    case .back, .quit: return
                    }
                } while SDL_PollEvent(&event) != 0
            }
            if let s = scene, !s.isRunning {
                if let f = s.failure { view.flash("Cannot open \((s.path as NSString).lastPathComponent): \(f)") }
                scene = nil
                view.activate()
            }
            let size = window.drawableSize
            framebuffer.resize(width: size.width, height: size.height)
            view.draw(into: framebuffer, text: text)
            if let s = scene { view.drawNotice("\((s.path as NSString).lastPathComponent) is open in its own window: Esc there comes back", into: framebuffer, text: text) }
            text.endFrame()
            try window.present(framebuffer)
        }
    }
}
