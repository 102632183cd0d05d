// Which plain captures are drawn through levels of detail: the count rule (a named budget, a
// forced level, `none`), and a capture loaded for the window waiting for its tree while one
// loaded for render gets it at once.
import Foundation
import RenderCore
import SceneIO
import Testing
import TestSupport
@testable import Viewer

struct CaptureLevelsRuleTests {
    @Test func theCountRule() {
        var o = LODOptions()
        #expect(!o.drawsLevels(captureSplats: LODOptions.wholeCaptureLimit))
        #expect(o.drawsLevels(captureSplats: LODOptions.wholeCaptureLimit + 1))
        o.budgetNamed = true
        #expect(o.drawsLevels(captureSplats: 10))
        o.budget = nil; o.budgetNamed = false
        #expect(!o.drawsLevels(captureSplats: 50_000_000))
        o.forcedLevel = 2
        #expect(o.drawsLevels(captureSplats: 10))
    }

    @Test func theWindowWaitsForTheTreeAndRenderGetsItAtOnce() throws {
        let dir = TestData.temporaryDirectory("capturelevels")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var cloud = SplatCloud(shDegree: 0)
        for i in 0..<3000 {
            let t = Float(i) / 3000
            cloud.append(position: Vec3(cosf(t * 40), sinf(t * 40), t * 2 - 1), scale: Vec3(repeating: 0.02), rotation: .identity,
                         opacity: 0.8, dc: Vec3(t, 0.2, 1 - t))
        }
        let ply = dir.appendingPathComponent("c.ply").path
        try GaussianPLYWriter.write(cloud, to: ply)
        var options = SceneLoader.ModelOptions()
        options.lod.budget = 1000; options.lod.budgetNamed = true
        let screen = ScreenGeometry(width: 0.6, height: 0.34)
        options.videoPlayback = .realtime
        let window = try SceneLoader(path: ply, options: options)
        #expect(window.pendingLevels != nil && window.levelsFrom == nil)
        #expect(try window.scene(screen: screen) is ModelScene)
        let job = try #require(window.levelOfDetailJob(screen: screen))
        let upgraded = try job.run(cancelled: nil, progress: nil)
        #expect(upgraded.scene is LODSplatScene && upgraded.notes.isEmpty)
        // The tree is placed where the whole capture was: the same fit.
        #expect(upgraded.scene.placement == (try window.scene(screen: screen)).placement)
        options.videoPlayback = .frameExact
        let render = try SceneLoader(path: ply, options: options)
        #expect(render.pendingLevels == nil && render.levelsFrom == .memory)
        #expect(try render.scene(screen: screen) is LODSplatScene)
    }
}
