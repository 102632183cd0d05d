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
            Grid: arrows select, Enter or a click opens, Esc or q quits. In the scene, leaving the window comes back to the grid.
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
        let options = try model.options()
        let threads = try windowOptions.validatedThreads()
        let view = LibraryView.start(folders: folders.isEmpty ? nil : folders.map(LibraryScanner.absolute), thumbnail: thumb, threads: threads)
        // Until the window hosts the grid itself, each scene gets a window of its own (the same
        // way `open` makes one) and the grid's window opens again when it closes.
        while let path = try LibraryWindow.run(view, width: size.width, height: size.height, fullscreen: windowOptions.fullscreen) {
            view.deactivate()
            defer { view.activate() }
            do {
                try OpenCommand.openWindow(file: path, options: options, screenOptions: screenOptions, configOption: configOption,
                                           windowOptions: windowOptions, head: head, frames: nil, announce: true)
            } catch {
                LibraryView.log("cannot open \(path): \(error)")
                view.flash("Cannot open \((path as NSString).lastPathComponent): \(error)")
            }
        }
    }
}

/// The grid in a window of its own: runs until a scene is chosen (its path) or the user leaves (nil).
enum LibraryWindow {
    static func run(_ view: LibraryView, width: Int, height: Int, fullscreen: Bool) throws -> String? {
        let window = try SDLWindow(title: "SplatFrame — scene library", width: width, height: height, fullscreen: fullscreen)
        let text = WindowText()
        let framebuffer = Framebuffer(width: 1, height: 1)
        while true {
            var event = SDL_Event()
            // Wait for input up to a frame's time: the grid repaints for thumbnails as they come.
            if SDL_WaitEventTimeout(&event, 30) != 0 {
                repeat {
                    switch view.handle(event, window: window) {
                    case .none: break
                    case .open(let path): return path
                    case .back, .quit: return nil
                    }
                } while SDL_PollEvent(&event) != 0
            }
            let size = window.drawableSize
            framebuffer.resize(width: size.width, height: size.height)
            view.draw(into: framebuffer, text: text)
            text.endFrame()
            try window.present(framebuffer)
        }
    }
}
