// splatframe — `generate`: write a deterministic procedural 3DGS scene as a PLY file.
import ArgumentParser
import Foundation
import Procedural
import SceneIO

/// `splatframe generate N OUT.ply [--seed S] [--scene object|room] [--sh-degree D]`
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "generate",
        abstract: "Write a procedural Gaussian-splat scene (3DGS binary PLY), deterministic for a seed.")

    @Argument(help: "Number of splats.")
    var count: Int

    @Argument(help: "Output .ply file.")
    var output: String

    @Option(help: "Random seed.")
    var seed: UInt64 = 1

    @Option(help: "object (a torus and a ball on a floor in a 1 m box) or room (the benchmark room, y up).")
    var scene: String = "object"

    @Option(help: "Spherical-harmonics degree 0…3.")
    var shDegree: Int = 3

    func validate() throws {
        guard count > 0 else { throw ValidationError("N must be positive") }
        guard ["object", "room"].contains(scene) else { throw ValidationError("--scene must be object or room") }
        guard (0...3).contains(shDegree) else { throw ValidationError("--sh-degree must be 0…3") }
    }

    func run() throws {
        let cloud = scene == "room"
            ? SplatSceneGenerator.room(count: count, seed: seed, shDegree: shDegree)
            : SplatSceneGenerator.object(count: count, seed: seed, shDegree: shDegree)
        do {
            try GaussianPLYWriter.write(cloud, to: output)
            print("wrote \(output) (\(count) splats, \(scene), SH degree \(shDegree))")
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}
