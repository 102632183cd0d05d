// splatframe — `generate`: write a deterministic procedural 3DGS scene as a PLY file.
import ArgumentParser
import Foundation
import Procedural
import SceneIO
import Viewer

/// `splatframe generate N (--out OUT.ply | OUT.ply) [--seed S] [--scene object|room] [--sh-degree D]`
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "generate",
        abstract: "Write a procedural Gaussian-splat scene (3DGS binary PLY), deterministic for a seed.")

    @Argument(help: "Number of splats, 1…\(maxSplats / 1_000_000)M (150k, 1.5M and 64M allowed); written a block at a time, so any count fits in memory.",
              transform: Checked.count(in: 1...maxSplats, "splats"))
    var count: Int

    @Argument(help: ArgumentHelp("Output .ply file, as --out gives it.", valueName: "out.ply"))
    var positionalOutput: String?

    @Option(help: "Output .ply file.")
    var out: String?

    @Option(parsing: .unconditional, help: "Random seed.")
    var seed: UInt64 = 1

    @Option(help: "What to make: object is a torus and a ball on a floor in a 1 m box, room the benchmark room (y up).")
    var scene: GeneratedScene = .object

    @Option(parsing: .unconditional, help: "Spherical-harmonics degree 0…3.", transform: Checked.integer(in: 0...3, "degrees"))
    var shDegree: Int = 3

    enum GeneratedScene: String, ArgumentChoice { case object, room }

    /// The most splats a file may get: what a PLY reader's 32-bit index still counts.
    static let maxSplats = 2_000_000_000
    /// Splats made and written at a time (~16 MB of SH-3 rows).
    static let blockSplats = 65_536

    func validate() throws { _ = try OutputPath.resolve(out: out, positional: positionalOutput, name: "OUT.ply") }

    /// The output file (`validate()` saw exactly one).
    var output: String { out ?? positionalOutput ?? "" }

    func run() throws {
        var blocks = scene == .room
            ? SplatSceneGenerator.roomBlocks(count: count, seed: seed, shDegree: shDegree)
            : SplatSceneGenerator.objectBlocks(count: count, seed: seed, shDegree: shDegree)
        let progress = count > 4 * Self.blockSplats ? TerminalProgress(label: "generating") : nil
        do {
            let writer = try GaussianPLYStreamWriter(path: output, count: count, shDegree: blocks.shDegree)
            while let block = blocks.next(maxSplats: Self.blockSplats) {
                try writer.append(block)
                progress?.callback(writer.written, count)
            }
            try writer.finish()
            progress?.finish()
        } catch {
            progress?.finish()
            try? FileManager.default.removeItem(atPath: output)
            throw error
        }
        print("wrote \(output) (\(count) splats, \(scene.rawValue), SH degree \(shDegree))")
    }
}
