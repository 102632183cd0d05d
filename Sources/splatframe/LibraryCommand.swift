// LibraryCommand — `splatframe library [DIR…]`: the scene files of some folders as a grid of
// thumbnails; the chosen one opens in the head-tracked window, Esc there comes back to the grid.
import ArgumentParser
import Downloads
import Foundation
import RenderCore
import Viewer
import Library

/// `splatframe library [DIR…]`.
struct LibraryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library", abstract: "Browse scene files as a grid of thumbnails; open one in the head-tracked window.",
        discussion: """
            An https:// argument is a feed: a JSON list of {"name", "url", "thumbnail"?} (or that list under "scenes"); its \
            scenes show their thumbnail pictures and download (to $XDG_CACHE_HOME/splatframe/downloads) when chosen.
            Lists every scene file in the folders (and one level of subfolders): PLY, .splat, .spz, .sog, SOG folders \
            (meta.json), streamed SOG folders (lod-meta.json), OBJ, STL, glTF/GLB, FBX, COLLADA, 3DS and scene JSON. With no folder: the bundled \
            Scenes/ and $XDG_DATA_HOME/splatframe (else ~/.local/share/splatframe). Thumbnails are rendered in the \
            background and cached in $XDG_CACHE_HOME/splatframe/thumbnails (else ~/.cache/…), keyed by path, size and \
            modification time.
            Grid: arrows select, Enter or a click opens, Esc or q quits. The scene opens in the same window as `open FILE` shows it (these options apply); Esc there comes back to the grid.
            """)

    @Argument(help: "Folders (or files) to show, or https:// feeds: JSON lists of {name, url, thumbnail?} (default: the bundled Scenes/ and $XDG_DATA_HOME/splatframe).")
    var folders: [String] = []
    @Option(name: .customLong("thumbnail-size"), help: "Thumbnail size WxH in pixels, 16x9…1024x1024.")
    var thumbnailSize = ThumbnailSize(width: 256, height: 144)
    @OptionGroup var model: ModelOptionGroup
    @OptionGroup var lod: LODOptionGroup
    @OptionGroup var screenOptions: ScreenOptions
    @OptionGroup var configOption: ConfigOption
    @OptionGroup var windowOptions: WindowOptions
    @OptionGroup var head: HeadOptions

    func validate() throws {
        for f in folders where !Downloader.isURL(f) && !FileManager.default.fileExists(atPath: f) {
            throw OptionError("<folders>", f, "no such file or folder")
        }
    }

    func run() throws {
        let thumb = (width: thumbnailSize.width, height: thumbnailSize.height)
        let options = model.options(lod: lod, window: true, config: configOption.fileIfValid)
        let threads = windowOptions.threads.count
        // Feeds are read before the window opens, so a broken one is the usual one-line error.
        let feeds = try folders.filter(Downloader.isURL).map { ($0, try LibraryFeed.entries(url: $0, options: options.download)) }
        let local = folders.filter { !Downloader.isURL($0) }
        let view = LibraryView.start(folders: local.isEmpty ? nil : local.map(LibraryScanner.absolute), feeds: feeds,
                                     thumbnail: thumb, threads: threads, downloads: options.download)
        // The grid is the window's home screen; a chosen scene opens in the same window.
        try WindowLauncher.run(windowOptions: windowOptions, screenOptions: screenOptions, configOption: configOption, head: head.resolved,
                               modelFile: nil, dropOptions: options, library: view) { _, _ in
            MeshScene(name: "library", items: [])
        }
    }
}

/// `--thumbnail-size WxH`: 16x9…1024x1024 pixels.
struct ThumbnailSize: ArgumentGrammar {
    var width: Int
    var height: Int

    static func parse(_ text: String) throws -> ThumbnailSize {
        guard let s = try? PixelSize.parse(text), (16...1024).contains(s.width), (9...1024).contains(s.height) else {
            throw ArgumentRule("expected WIDTHxHEIGHT in pixels, 16x9…1024x1024")
        }
        return ThumbnailSize(width: s.width, height: s.height)
    }
}
