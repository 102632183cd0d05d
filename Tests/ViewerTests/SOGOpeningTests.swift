// SOG scenes open through the same loader as every other file: a .sog, a folder, its meta.json.
import Foundation
import Testing
import RenderCore
import TestSupport
@testable import Viewer

@Suite(.enabled(if: TestData.isAvailable, TestData.skipMessage))
struct SOGOpeningTests {
    @Test(arguments: ["splats/sog/monkey_0001.sog", "splats/sog/playcanvas-logo", "splats/sog/playcanvas-logo/meta.json"])
    func sogScenesOpenAsSplats(path: String) throws {
        let full = TestData.path(path)
        #expect(!SceneLoader.isSceneDescription(full))
        let scene = try SceneLoader(path: full).scene(screen: .fallback)
        #expect(scene.primitiveKind == .splats && scene.primitiveCount > 30_000 && scene.placement != nil)
    }

    @Test func ourSceneFilesAreStillSceneDescriptions() {
        #expect(SceneLoader.isSceneDescription("Scenes/cube.json"))
        #expect(!SceneLoader.isSceneDescription("x/lod-meta.json") && !SceneLoader.isSceneDescription("x/META.json"))
    }
}
