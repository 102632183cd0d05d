// A scene that mixes meshes and splats through the real binary: the shipped Scenes/mixed.json
// (the room, a splat capture, a sphere and a generated object) rendered and benchmarked, a
// glTF model placed beside a splat capture, and a broken object named in a one-line error.
import Foundation
import ImageIO
import RenderCore
import TestSupport
import Testing

@Suite("Scenes that mix meshes and splats")
struct MixedSceneCommandTests {
    @Test func theShippedMixedSceneRendersAndBenches() throws {
        let bin = try #require(BinaryLocator.splatframe(), "build the package first (swift build)")
        let scene = TestData.projectRoot.appendingPathComponent("Scenes/mixed.json").path
        let dir = TestData.temporaryDirectory("mixed-cli").path
        let r = try BinaryLocator.run(bin, ["render", scene, "--eye", "0.05,0.03,0.6", "--size", "320x180", "--out", dir + "/m.png"],
                                      environment: BinaryLocator.hermetic())
        #expect(r.status == 0, "\(r.stderr)")
        let image = try ImageFile.load(dir + "/m.png")
        #expect(Set(image.pixels).count > 200, "the frame looks empty")
        let b = try BinaryLocator.run(bin, ["bench", scene, "--frames", "3", "--warmup", "1", "--size", "160x90", "--json", dir + "/b.json"],
                                      environment: BinaryLocator.hermetic())
        #expect(b.status == 0, "\(b.stderr)")
    }

    @Test func aGLTFModelBesideASplatCaptureAndABrokenObject() throws {
        let bin = try #require(BinaryLocator.splatframe(), "build the package first (swift build)")
        let dir = TestData.temporaryDirectory("mixed-gltf").path
        try ImportedModelCommandTests.quad().writeBinary(to: dir, name: "quad")
        let g = try BinaryLocator.run(bin, ["generate", "2000", dir + "/cap.ply"])
        try #require(g.status == 0, "\(g.stderr)")
        let json = #"{"type":"scene","objects":[{"file":"quad.glb","position":[-0.1,0,-0.1],"size":0.12},{"file":"cap.ply","position":[0.1,0,-0.2],"size":0.15}]}"#
        try Data(json.utf8).write(to: URL(fileURLWithPath: dir + "/s.json"))
        let r = try BinaryLocator.run(bin, ["render", dir + "/s.json", "--eye", "0,0,0.6", "--size", "320x180", "--out", dir + "/s.png"],
                                      environment: BinaryLocator.hermetic())
        #expect(r.status == 0 && r.stderr.contains("2000 primitives"), "\(r.stderr)")
        try Data("broken".utf8).write(to: URL(fileURLWithPath: dir + "/quad.glb"))
        let bad = try BinaryLocator.run(bin, ["render", dir + "/s.json", "--eye", "0,0,0.6", "--size", "64x36", "--out", dir + "/b.png"],
                                        environment: BinaryLocator.hermetic())
        #expect(bad.status == 2 && bad.stderr.contains("quad.glb") && bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
    }
}
