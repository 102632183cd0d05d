// splatframe — `info`: load a scene file and print what it holds (text or JSON).
import ArgumentParser
import Downloads
import Foundation
import SceneIO
import Viewer

/// `splatframe info FILE [--json]`
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "info",
        abstract: "Print a scene file's format, elements, counts, bounds, SH degree, memory and load time.")

    @Argument(help: "Scene file (.ply, .splat, .ksplat, .spz, .sog, .obj, .stl, .gltf, .glb, .fbx, .dae, .3ds), a SOG folder, an animated capture (a folder or .zip of splat files, a sequence JSON: frames, rate, splats per frame, decode time), a streamed SOG's lod-meta.json (levels and per-level counts; no chunk is decoded), or an https:// URL of a file (downloaded to $XDG_CACHE_HOME/splatframe/downloads).")
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
            if let sequence = try Self.sequence(path) {
                let summary = try SequenceSummary.of(sequence, progress: progress.callback)
                progress.finish()
                print(json ? summary.json : summary.text, terminator: json ? "\n" : "")
                return
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

    /// The animated capture `path` names (a folder or ZIP of splat files, a sequence JSON), if it is one.
    static func sequence(_ path: String) throws -> SplatSequence? {
        switch try? SceneSource.resolve(path) {
        case .sequence(let p)?: return try SplatSequence.open(p)
        case .sceneJSON(let p)?:
            if case .sequence(let s) = try SceneJSON.load(p) { return s }
            return nil
        default: return nil
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
