import Foundation
import RenderCore
import TestSupport
import Testing
import Viewer

@Suite("Scene files")
struct SceneDescriptionTests {
    @Test func theShippedCubeSceneLoads() throws {
        let d = try SceneDescription.load(TestData.projectRoot.appendingPathComponent("Scenes/cube.json").path)
        #expect(d.kind == .cube)
        let room = try d.room(screen: .fallback)
        #expect(room.mesh().triangleCount > 10)
    }

    @Test func badScenesAreReported() throws {
        let dir = TestData.temporaryDirectory()
        let bad = dir.appendingPathComponent("bad.json")
        try Data("{\"type\":\"cube\",\"walls\":{\"sideways\":\"x.png\"}}".utf8).write(to: bad)
        #expect(throws: ViewerError.self) { try SceneDescription.load(bad.path) }
        let missing = dir.appendingPathComponent("missing.json")
        try Data("{\"type\":\"cube\",\"walls\":{\"back\":\"nope.png\"}}".utf8).write(to: missing)
        let d = try SceneDescription.load(missing.path)
        do {
            _ = try d.room(screen: .fallback)
            Issue.record("missing picture accepted")
        } catch {
            #expect("\(error)".contains("nope.png") && "\(error)".contains("no such file"))
        }
    }
}
