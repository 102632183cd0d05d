// splatframe — `info`: load a scene file and print what it holds (text or JSON).
import ArgumentParser
import Downloads
import Foundation
import SceneIO

/// `splatframe info FILE [--json]`
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "info",
        abstract: "Print a scene file's format, elements, counts, bounds, SH degree, memory and load time.")

    @Argument(help: "Scene file (.ply, .splat, .ksplat, .spz, .sog, .obj, .stl, .gltf, .glb, .fbx, .dae, .3ds), a SOG folder, a streamed SOG's lod-meta.json (levels and per-level counts; no chunk is decoded), or an https:// URL of a file (downloaded to $XDG_CACHE_HOME/splatframe/downloads).")
    var file: String
    @OptionGroup var download: DownloadOptionGroup

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        let progress = TerminalProgress(label: "loading")
        do {
            var path = file
            if Downloader.isURL(file) {
                let fetching = TerminalProgress(label: "downloading")
                let result = try Downloader.fetch(file, options: download.options(defaultCache: DownloadOptions.defaultCacheFolder()),
                                                  progress: { done, total in fetching.callback(Int(done), Int(total ?? 0)) })
                fetching.finish()
                if let note = result.note { FileHandle.standardError.write(Data("warning: \(note)\n".utf8)) }
                path = result.path
            }
            var info = try SceneFile.info(path: path, progress: progress.callback)
            if path != file { info.path = file }
            progress.finish()
            print(json ? info.json : info.text, terminator: json ? "\n" : "")
        } catch {
            progress.finish()
            throw error
        }
    }
}

/// A one-line progress indicator on stderr for loads longer than half a second (TTY only).
final class TerminalProgress {
    let label: String
    let start = Date()
    var shown = false
    init(label: String) { self.label = label }

    /// The callback to hand to SceneIO.
    var callback: (Int, Int) -> Void {
        { [self] done, total in
            guard isatty(2) != 0, total > 0, Date().timeIntervalSince(start) > 0.5 else { return }
            shown = true
            FileHandle.standardError.write(Data("\r\(label) \(Int(Double(done) / Double(total) * 100))%".utf8))
        }
    }

    /// Clears the line if anything was shown.
    func finish() { if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) } }
}
