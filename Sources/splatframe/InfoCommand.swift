// splatframe — `info`: load a scene file and print what it holds (text or JSON).
import ArgumentParser
import Downloads
import Foundation
import SceneIO
import SplatLOD
import Viewer

/// `splatframe info FILE [--json]`
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "info",
        abstract: "Print a scene file's format, elements, counts, bounds, SH degree, memory and load time.")

    @Argument(help: "Scene file (.ply, .splat, .ksplat, .spz, .sog, .obj, .stl, .gltf, .glb, .fbx, .dae, .3ds), a SOG folder, an animated capture (a folder or .zip of splat files, a sequence JSON: frames, rate, splats per frame, decode time), a streamed SOG's lod-meta.json (levels and per-level counts, the memory drawing it needs; no chunk is decoded), or an https:// URL of a file (downloaded to $XDG_CACHE_HOME/splatframe/downloads).")
    var file: String
    @OptionGroup var download: DownloadOptionGroup

    @Flag(help: "Print JSON instead of text.")
    var json = false
    @Option(name: .customLong("splat-budget"),
            help: ArgumentHelp("A streamed SOG: the budget (e.g. 150k, none) at which to estimate the memory drawing it needs, besides the default \(LODOptions.defaultBudget).", valueName: "n"),
            transform: SplatBudget.parse)
    var splatBudget: SplatBudget?

    func run() throws {
        let progress = TerminalProgress(label: "loading")
        do {
            var path = file
            if Downloader.isURL(file) {
                let fetching = TerminalProgress(label: "downloading")
                let result = try Downloader.fetch(file, options: download.options(defaultCache: DownloadOptions.defaultCacheFolder(), config: ConfigOption(config: nil).fileIfValid),
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
            let streamed = StreamedSOG.metaPath(for: path) != nil
            if splatBudget != nil && !streamed {
                throw OptionError("--splat-budget", "", "estimates the memory a streamed SOG (lod-meta.json) needs; \(file) is not one")
            }
            var info = try SceneFile.info(path: path, progress: progress.callback)
            if path != file { info.path = file }
            if streamed { try Self.addDrawMemory(&info, path: path, budget: splatBudget) }
            progress.finish()
            print(json ? info.json : info.text, terminator: json ? "\n" : "")
        } catch {
            progress.finish()
            throw error
        }
    }

    /// Adds the memory drawing the streamed SOG at `path` needs: at the default budget, and at
    /// `budget` when one is named (`LODMemory`).
    static func addDrawMemory(_ info: inout SceneInfo, path: String, budget: SplatBudget?) throws {
        let sog = try StreamedSOG.open(path)
        let standard = LODMemory(sog: sog)
        var lines = [standard.text], bytes = standard.frameBytes
        if let budget, budget.splats != LODOptions.defaultBudget {
            var o = LODOptions()
            o.budget = budget.splats
            let named = LODMemory(sog: sog, options: o)
            lines.append(named.text)
            bytes = named.frameBytes
        }
        info.drawMemory = lines.joined(separator: "; ")
        info.drawMemoryBytes = bytes
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
