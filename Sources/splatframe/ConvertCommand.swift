// splatframe — `convert`: read any scene file and write it in the format the output extension names.
import ArgumentParser
import Foundation
import SceneIO

/// `splatframe convert IN OUT`
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "convert",
        abstract: "Convert a scene file (splats → .ply or .splat; meshes and points → .ply).")

    @Argument(help: "Input scene file.")
    var input: String

    @Argument(help: "Output file; its extension picks the format.")
    var output: String

    func run() throws {
        let progress = TerminalProgress(label: "converting")
        do {
            let info = try SceneFile.convert(input: input, output: output, progress: progress.callback)
            progress.finish()
            print("wrote \(output) (\(info.count) \(info.kind))")
        } catch {
            progress.finish()
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}
