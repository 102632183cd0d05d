// splatframe — `convert`: read any scene file and write it in the format the output extension names.
import ArgumentParser
import Foundation
import SceneIO

/// `splatframe convert IN OUT`
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "convert",
        abstract: "Convert a scene file (splats → .ply, .splat, .spz or SOG v2; meshes and points → .ply).")

    @Argument(help: "Input scene file.")
    var input: String

    @Argument(help: "Output file; its extension picks the format (.ply, .splat, .spz, .sog; DIR/meta.json: an unbundled SOG).")
    var output: String

    @Option(name: .customLong("spz-version"), help: "SPZ version to write: 3 (gzip, read everywhere) or 4 (zstd streams).",
            transform: Checked.integer(in: 3...4, "versions"))
    var spzVersion: Int = 3

    @Flag(inversion: .prefixedNo, help: "SPZ: set the 'render antialiased' flag (default: copy the input's).")
    var antialiased: Bool?

    func run() throws {
        let progress = TerminalProgress(label: "converting")
        do {
            var spz = SPZWriteOptions(version: spzVersion)
            spz.antialiased = antialiased
            let info = try SceneFile.convert(input: input, output: output, spz: spz, progress: progress.callback)
            progress.finish()
            for w in info.warnings { FileHandle.standardError.write(Data("warning: \(w)\n".utf8)) }
            print("wrote \(output) (\(info.count) \(info.kind))")
        } catch {
            progress.finish()
            throw error
        }
    }
}
