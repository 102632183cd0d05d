// splatframe — `convert`: read any scene file and write it in the format the output extension names.
import ArgumentParser
import Foundation
import RenderCore
import SceneIO
import SplatLOD

/// `splatframe convert IN (--out OUT | OUT)`
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "convert",
        abstract: "Convert a scene file (splats → .ply, .splat, .spz, .glb/.gltf (KHR_gaussian_splatting) or SOG v2; meshes and points → .ply).")

    @Argument(help: "Input scene file.")
    var input: String

    @Argument(help: ArgumentHelp("Output file, as --out gives it.", valueName: "out"))
    var positionalOutput: String?

    @Option(help: "Output file; its extension picks the format (.ply, .splat, .spz, .glb, .gltf, .sog; DIR/meta.json: an unbundled SOG; DIR/lod-meta.json: a streamed SOG with levels of detail).")
    var out: String?

    @Option(name: .customLong("lod-levels"), parsing: .unconditional, help: "Streamed SOG: levels of detail, each about half the splats of the one below (1…16; default: enough that the coarsest holds at most 16384 splats, at least 6).",
            transform: Checked.integer(in: 1...16, "levels"))
    var lodLevels: Int?

    @Option(name: .customLong("chunk-splats"), parsing: .unconditional, help: "Streamed SOG: most splats per chunk file (1024…16777216; default 65536).",
            transform: Checked.integer(in: 1024...16_777_216, "splat counts"))
    var chunkSplats: Int = StreamedSOGWriter.defaultChunkSplats

    @Option(name: .customLong("max-memory"), parsing: .unconditional,
            help: "Streamed SOG: most memory the level-of-detail build may hold, in bytes or with K, M, G (default 2G). A capture whose in-memory build would need more is built out of core: read in a stream, split on disk, built region by region; an interrupted build continues where it stopped when run again.",
            transform: Checked.bytes(in: (256 << 20)...(1 << 50)))
    var maxMemory: Int = OutOfCoreBuilder.defaultMaxMemory

    @Flag(name: .customLong("out-of-core"), help: "Streamed SOG: build out of core even when the in-memory build would fit --max-memory.")
    var outOfCore = false

    @Option(name: .customLong("spz-version"), help: "SPZ version to write: 3 is gzip, read everywhere; 4 has zstd streams.")
    var spzVersion: SPZVersion = .v3

    @Flag(inversion: .prefixedNo, help: "SPZ: set the 'render antialiased' flag (default: copy the input's).")
    var antialiased: Bool?

    @Flag(help: ".glb/.gltf: hold the splats as one SPZ payload (KHR_gaussian_splatting_compression_spz_2, SPZ version 3) instead of float accessors.")
    var spz = false

    func validate() throws {
        _ = try OutputPath.resolve(out: out, positional: positionalOutput, name: "OUT")
        if spz {
            let ext = (output as NSString).pathExtension.lowercased()
            guard ext == "glb" || ext == "gltf" else { throw ValidationError("--spz compresses glTF splats: the output must be .glb or .gltf, not \(output)") }
            guard spzVersion == .v3 else { throw ValidationError("--spz writes SPZ version 3 (what the glTF extension holds); drop --spz-version 4") }
        }
    }

    /// The output file (`validate()` saw exactly one).
    var output: String { out ?? positionalOutput ?? "" }

    func run() throws {
        if (output as NSString).lastPathComponent.lowercased() == "lod-meta.json" { return try writeStreamed() }
        let progress = TerminalProgress(label: "converting")
        do {
            var spz = SPZWriteOptions(version: spzVersion.number)
            spz.antialiased = antialiased
            let info = try SceneFile.convert(input: input, output: output, spz: spz, compressGLTF: self.spz, progress: progress.callback)
            progress.finish()
            for w in info.warnings { FileHandle.standardError.write(Data("warning: \(w)\n".utf8)) }
            print("wrote \(output) (\(info.count) \(info.kind))")
        } catch {
            progress.finish()
            throw error
        }
    }

    /// Builds levels of detail for the input's splats and writes them as a streamed SOG: in
    /// memory when the build fits `--max-memory`, else (or with `--out-of-core`) out of core.
    func writeStreamed() throws {
        // A capture a bounded stream reads is sized from its header first: an .spz or SOG stream
        // decompresses its whole payload to disk when opened, wasted on an in-memory build, and
        // the out-of-core build opens it only if its records are not already on disk (a resume).
        var stream: (any SplatStream)?
        if let size = SplatStreams.probe(input) {
            if outOfCore || !OutOfCoreBuilder.inMemoryFits(splats: size.splats, shDegree: size.shDegree, maxMemory: maxMemory) {
                return try writeOutOfCore(nil)
            }
        } else {
            let loading = TerminalProgress(label: "reading")
            let opened = try SplatStreams.open(input, progress: loading.callback)
            loading.finish()
            if outOfCore || !OutOfCoreBuilder.inMemoryFits(splats: opened.count, shDegree: opened.shDegree, maxMemory: maxMemory) {
                return try writeOutOfCore(opened)
            }
            stream = opened
        }
        // A file read whole already is the capture; a streamed one is read whole as before.
        var cloud: SplatCloud
        if let whole = (stream as? WholeCloudStream)?.take() {
            cloud = whole
        } else {
            let reading = TerminalProgress(label: "reading")
            let (scene, info) = try SceneFile.loadWithInfo(path: input, progress: reading.callback)
            reading.finish()
            guard case .splats(let c) = scene else {
                throw SceneIOError.unsupported(file: input, reason: "a streamed SOG holds splats; this file holds \(info.kind)")
            }
            cloud = c
        }
        let started = Date()
        var options = CaptureLOD.buildOptions(splats: cloud.count, chunkSplats: chunkSplats)
        if let lodLevels { options.levels = lodLevels }
        // Progress comes from the builder's workers: a @Sendable closure (TerminalProgress is not Sendable).
        let tty = isatty(2) != 0
        let pyramid = try LODBuilder.build(cloud, options: options, progress: { done, total in
            if tty { FileHandle.standardError.write(Data("\rbuilding levels of detail \(done * 100 / max(1, total))%".utf8)) }
        })
        if tty { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        let built = Date().timeIntervalSince(started)
        let writing = TerminalProgress(label: "writing chunks")
        try StreamedSOGWriter.write(pyramid, to: output, chunkSplats: chunkSplats, progress: writing.callback)
        writing.finish()
        let counts = pyramid.counts.map(String.init).joined(separator: ", ")
        print(String(format: "wrote %@ (%d levels: %@ splats; %d leaves; built in %.1f s, written in %.1f s)", output,
                     pyramid.levels.count, counts, pyramid.leaves.count, built, Date().timeIntervalSince(started) - built))
    }

    /// The out-of-core build, its progress on one line: regions done and the time left.
    func writeOutOfCore(_ stream: (any SplatStream)?) throws {
        var options = OutOfCoreBuilder.Options()
        options.levels = lodLevels; options.chunkSplats = chunkSplats; options.maxMemoryBytes = maxMemory
        let started = Date()
        let tty = isatty(2) != 0
        let result = try OutOfCoreBuilder.build(input: input, output: output, options: options, stream: stream, progress: { p in
            guard tty else { return }
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + Self.progressLine(p)).utf8))
        })
        if tty { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        for w in result.warnings { FileHandle.standardError.write(Data("warning: \(w)\n".utf8)) }
        let counts = result.counts.map(String.init).joined(separator: ", ")
        var how = "out of core, \(result.regions) region\(result.regions == 1 ? "" : "s")"
        if result.regionsReused > 0 { how += ", \(result.regionsReused) from an earlier run" }
        if !result.streamedInput { how += "; the input was read whole" }
        print(String(format: "wrote %@ (%d levels: %@ splats; %d leaves; built and written in %.1f s, %@)", output,
                     result.counts.count, counts, result.leaves, Date().timeIntervalSince(started), how))
    }

    /// `building levels of detail: region 3/8, 41 %, about 2 min left`.
    static func progressLine(_ p: OutOfCoreBuilder.Progress) -> String {
        var line = "building levels of detail: "
        switch p.phase {
        case .reading: line += "reading"
        case .partitioning: line += "splitting on disk"
        case .building: line += "region \(min(p.regions, p.regionsDone + 1))/\(p.regions)"
        }
        line += String(format: ", %.0f %%", p.fraction * 100)
        if let s = p.secondsLeft {
            line += s < 90 ? ", about \(Int(s.rounded())) s left" : ", about \(Int((s / 60).rounded())) min left"
        }
        return line
    }
}
