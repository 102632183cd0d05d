// Levels of detail inside a mixed scene: a capture object that gets levels (here under a named
// budget) is drawn through them, the scene's one budget shared among such objects in proportion
// to their captures, and the frame-time governor can steer it like a capture alone.
import Foundation
import RenderCore
import SceneIO
import Testing
import TestSupport
@testable import Viewer

@Suite struct MixedSceneBudgetTests {
    @Test func theSceneBudgetIsSharedAmongItsLeveledObjects() throws {
        let dir = TestData.temporaryDirectory("mixed-budget")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        // Two walls of different sizes (16,384 and 4,096 splats) and a sphere.
        var big = SplatCloud(shDegree: 0), small = SplatCloud(shDegree: 0)
        LODVisibilityTests.wall(into: &big, z: 0, side: 128, colour: Vec3(0.9, 0.4, 0.1))
        LODVisibilityTests.wall(into: &small, z: 0, side: 64, colour: Vec3(0.1, 0.4, 0.9))
        try GaussianPLYWriter.write(big, to: dir.appendingPathComponent("big.ply").path)
        try GaussianPLYWriter.write(small, to: dir.appendingPathComponent("small.ply").path)
        let json = dir.appendingPathComponent("scene.json").path
        try Data(#"{"type":"scene","objects":[{"file":"big.ply","position":[-0.1,0,-0.2],"size":0.15},{"file":"small.ply","position":[0.1,0,-0.2],"size":0.1},{"file":"sphere:500","position":[0,0.08,-0.1],"size":0.05}]}"#.utf8)
            .write(to: URL(fileURLWithPath: json))
        var o = SceneLoader.ModelOptions()
        o.videoPlayback = .frameExact
        o.lod.budget = 8000; o.lod.budgetNamed = true; o.lod.automaticBudget = true   // `--splat-budget auto`: levels, not pinned
        let scene = try #require(try SceneLoader.load(path: json, options: o).scene(screen: MixedSceneTests.screen) as? MixedScene)
        #expect(scene.splatObjects.count == 2 && scene.splatObjects.allSatisfy { $0.levels != nil })
        #expect(scene.wholeSplats == big.count + small.count && !scene.budgetIsPinned)
        // Shares in proportion to the captures: 8000 · 16384/20480 and 8000 · 4096/20480.
        let budgets = scene.splatObjects.map { $0.levels?.options.budget }
        #expect(budgets == [6400, 1600])
        let fb = Framebuffer(width: 320, height: 180)
        let context = RenderContext(threads: 2)
        let camera = ViewingSetup(screen: MixedSceneTests.screen).camera(eye: Vec3(0, 0, 0.6), width: 320, height: 180)
        _ = scene.render(camera: camera, into: fb, context: context)
        #expect(scene.primitiveCount <= 8000 && scene.primitiveCount > 0, "\(scene.primitiveCount) shown")
        // The budget falls: met on the next frame, both objects within their shares.
        scene.splatBudget = 2000
        _ = scene.render(camera: camera, into: fb, context: context)
        #expect(scene.primitiveCount <= 2000, "\(scene.primitiveCount) shown under 2000")
        #expect(scene.splatObjects.map { $0.shownSplats }.allSatisfy { $0 > 0 })
        // The whole reference draws every splat.
        let whole = scene.wholeReference()
        _ = whole.render(camera: camera, into: fb, context: context)
        #expect(whole.primitiveCount == big.count + small.count)
    }
}
