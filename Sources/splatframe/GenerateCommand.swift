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

    @Argument(help: "Number of splats, 1…\(SceneSource.maxGeneratedSplats) (150k and 1.5M allowed).",
              transform: Checked.count(in: 1...SceneSource.maxGeneratedSplats, "splats"))
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

    func validate() throws { _ = try OutputPath.resolve(out: out, positional: positionalOutput, name: "OUT.ply") }

    /// The output file (`validate()` saw exactly one).
    var output: String { out ?? positionalOutput ?? "" }

    func run() throws {
        let cloud = scene == .room
            ? SplatSceneGenerator.room(count: count, seed: seed, shDegree: shDegree)
            : SplatSceneGenerator.object(count: count, seed: seed, shDegree: shDegree)
        try GaussianPLYWriter.write(cloud, to: output)
        print("wrote \(output) (\(count) splats, \(scene.rawValue), SH degree \(shDegree))")
    }
}
