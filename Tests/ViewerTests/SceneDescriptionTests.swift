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
        for (text, says) in [(#"{"type":"cube","walls":{"back":3}}"#, "walls.back: expected a picture or video file path, found 3"),
                             (#"{"type":"room"}"#, "type: expected \"cube\", \"scene\" or \"sequence\", found the string \"room\""),
                             (#"{"type":"cube","depth":-1}"#, "depth: expected a room depth in metres"),
                             (#"{"type":"cube","targets":1}"#, "targets: expected true or false, found 1")] {
            try Data(text.utf8).write(to: bad)
            do {
                _ = try SceneDescription.load(bad.path)
                Issue.record("accepted \(text)")
            } catch {
                #expect("\(error)" == "\(bad.path): \(says)" || "\(error)".hasPrefix("\(bad.path): \(says)"), "\(error)")
            }
        }
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
