// Which plain captures are drawn through levels of detail: the count rule (a named budget, a
// forced level, `none`), and a capture loaded for the window waiting for its tree while one
// loaded for render gets it at once.
import Foundation
import RenderCore
import SceneIO
@testable import SplatLOD
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
        let window = try SceneLoader.load(path: ply, options: options)
        #expect(window.pendingLevels != nil && window.levelsFrom == nil)
        #expect(try window.scene(screen: screen) is ModelScene)
        let job = try #require(window.levelOfDetailJob(screen: screen))
        let upgraded = try job.run(cancelled: nil, progress: nil)
        #expect(upgraded.scene is LODSplatScene && upgraded.notes.isEmpty)
        // The tree is placed where the whole capture was: the same fit.
        #expect(upgraded.scene.placement == (try window.scene(screen: screen)).placement)
        options.videoPlayback = .frameExact
        let render = try SceneLoader.load(path: ply, options: options)
        #expect(render.pendingLevels == nil && render.levelsFrom == .memory)
        #expect(try render.scene(screen: screen) is LODSplatScene)
    }

    @Test func aBudgetUpCloseCoarsensGraduallyInsteadOfCollapsing() throws {
        // A wall of splats in 16 leaves; the eye stands inside the first leaf's box.
        var cloud = SplatCloud(shDegree: 0)
        for i in 0..<64_000 {
            let x = Float(i % 400) / 400 * 4 - 2, y = Float(i / 400) / 160 * 2 - 1
            cloud.append(position: Vec3(x, y, Float(i % 7) * 0.01), scale: Vec3(0.01, 0.01, 0.002), rotation: .identity,
                         opacity: 0.8, dc: Vec3(0.5, 0.5, 0.5))
        }
        var o = LODBuilder.Options()
        o.levels = 6; o.leafSplats = 4000
        let sog = StreamedSOG.inMemory(try LODBuilder.build(cloud, options: o), chunkSplats: 16_000, name: "wall")
        let selector = LODSelector(sog)
        let box = sog.nodes[0].bounds
        let eye = (box.min + box.max) * 0.5
        let camera = Camera(width: 1280, height: 720, view: Matrix4.lookAt(eye: eye + Vec3(0, 0, 0.001), target: eye - Vec3(0, 0, 1), up: Vec3(0, 1, 0)),
                            projection: Matrix4.perspective(fovY: 1, aspect: 16 / 9, near: 0.001, far: 100))
        let coarsest = (0..<selector.nodeCount).reduce(0) { $0 + selector.count($1, selector.coarsest($1) ?? 0) }
        // Below what the eye's own leaf holds at its finest (4,000): only coarsening it too can fit.
        let budget = 3_500
        selector.choose(camera: camera, budget: budget, forced: nil)
        #expect(selector.wantedSplats <= budget, "\(selector.wantedSplats)")
        #expect(selector.wantedSplats > coarsest + 500, "collapsed to \(selector.wantedSplats) splats (coarsest \(coarsest))")
        #expect(selector.wanted[0] < (selector.coarsest(0) ?? 0), "\(selector.wanted)")
        // The leaf around the eye is drawn at least as finely as any other.
        #expect(selector.wanted.allSatisfy { $0 >= selector.wanted[0] }, "\(selector.wanted)")
    }
}
