// A splat budget spent on what the eye sees: the selector's rule for measured visible areas
// (hidden leaves coarsest, splats in proportion to visible area, the budget filled), and a
// level-of-detail scene whose back wall hides behind its front wall.
import Foundation
import RenderCore
import SceneIO
@testable import SplatLOD
import Testing
import TestSupport
@testable import Viewer

struct LODVisibilityTests {
    /// A square wall of `side`² flat splats spanning [−1, 1]² at depth `z`.
    static func wall(into cloud: inout SplatCloud, z: Float, side: Int = 128, colour: Vec3) {
        for j in 0..<side {
            for i in 0..<side {
                let x = -1 + (Float(i) + 0.5) * 2 / Float(side), y = -1 + (Float(j) + 0.5) * 2 / Float(side)
                cloud.append(position: Vec3(x, y, z), scale: Vec3(1.2 / Float(side), 1.2 / Float(side), 0.001), rotation: .identity,
                             opacity: 0.95, dc: SplatCloud.dcFromColor(colour))
            }
        }
    }

    /// Two walls (orange at z = 0, blue 3 m behind it, so the tree splits them first), written as
    /// a PLY in a fresh temporary folder; returns its path.
    static func twoWalls() throws -> String {
        var cloud = SplatCloud(shDegree: 0)
        wall(into: &cloud, z: 0, colour: Vec3(0.9, 0.4, 0.1))
        wall(into: &cloud, z: -3, colour: Vec3(0.1, 0.4, 0.9))
        let dir = TestData.temporaryDirectory("lodvisibility")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let ply = dir.appendingPathComponent("walls.ply").path
        try GaussianPLYWriter.write(cloud, to: ply)
        return ply
    }

    /// 16 leaves of a wall seen face on from 3 m, in memory.
    static func wallSelector() throws -> (LODSelector, Camera) {
        var cloud = SplatCloud(shDegree: 0)
        wall(into: &cloud, z: 0, colour: Vec3(0.5, 0.5, 0.5))
        var o = LODBuilder.Options()
        o.levels = 6; o.leafSplats = 1024
        let sog = StreamedSOG.inMemory(try LODBuilder.build(cloud, options: o), chunkSplats: 16_000, name: "wall")
        let camera = Camera(width: 1280, height: 720, view: Matrix4.lookAt(eye: Vec3(0, 0, 3), target: .zero, up: Vec3(0, 1, 0)),
                            projection: Matrix4.perspective(fovY: 0.8, aspect: 16 / 9, near: 0.01, far: 100))
        return (LODSelector(sog), camera)
    }

    @Test func splatsGoWhereTheEyeSeesThem() throws {
        let (selector, camera) = try Self.wallSelector()
        selector.spendsByLevelErrors = false   // the spacing rule (level errors: LODLevelErrorTests)
        let leaves = selector.nodeCount
        #expect(leaves == 16, "\(leaves) leaves")
        // Leaf 0 shows four times the area of the others, leaf 1 nothing (hidden).
        var visible = [Float](repeating: 2000, count: leaves)
        visible[0] = 8000; visible[1] = 0
        let budget = 4000
        selector.choose(camera: camera, budget: budget, forced: nil, visibleArea: visible)
        let counts = (0..<leaves).map { selector.count($0, selector.wanted[$0]) }
        print("visible-area selection: levels \(selector.wanted), splats \(counts)")
        #expect(selector.wantedSplats <= budget)
        #expect(selector.wanted[1] == selector.coarsest(1), "the hidden leaf: \(selector.wanted)")
        // Splats in proportion to visible area: leaf 0 holds ~4× a typical leaf (levels halve,
        // so 2× to 8×).
        let typical = counts[2...].sorted()[(leaves - 2) / 2]
        #expect(counts[0] >= 2 * typical && counts[0] <= 8 * typical, "\(counts)")
        // The budget is filled: no leaf that shows anything can take its next finer level.
        for n in 0..<leaves where visible[n] > 0 {
            guard let finer = selector.next(n, from: selector.wanted[n], -1) else { continue }
            #expect(selector.wantedSplats - counts[n] + selector.count(n, finer) > budget, "leaf \(n) could refine: \(selector.wanted)")
        }
        // Without a binding budget the measured areas change nothing (the box rule holds).
        selector.choose(camera: camera, budget: nil, forced: nil)
        let free = selector.wanted
        selector.choose(camera: camera, budget: nil, forced: nil, visibleArea: visible)
        #expect(selector.wanted == free)
    }

    @Test func theHeapFillChoosesWhatScanningEveryLeafChooses() throws {
        var cloud = SplatCloud(shDegree: 0)
        Self.wall(into: &cloud, z: 0, colour: Vec3(0.5, 0.5, 0.5))
        var o = LODBuilder.Options()
        o.levels = 7; o.leafSplats = 128
        let sog = StreamedSOG.inMemory(try LODBuilder.build(cloud, options: o), chunkSplats: 16_000, name: "wall")
        let camera = Camera(width: 1280, height: 720, view: Matrix4.lookAt(eye: Vec3(0.3, 0.2, 2), target: .zero, up: Vec3(0, 1, 0)),
                            projection: Matrix4.perspective(fovY: 0.8, aspect: 16 / 9, near: 0.01, far: 100))
        let heap = LODSelector(sog), scan = LODSelector(sog)
        scan.fillsByScanning = true
        heap.spendsByLevelErrors = false; scan.spendsByLevelErrors = false
        #expect(heap.nodeCount == 128)
        var random = SeededRandom(seed: 5)
        for trial in 0..<40 {
            // Visible areas with ties (a few values) and hidden leaves; some trials by the box rule.
            let areas = (0..<heap.nodeCount).map { _ in Float([0, 500, 2000, 2000, 7000][Int(random.next() % 5)]) }
            let budget = 500 + Int(random.next() % 12_000)
            let visible: [Float]? = trial % 4 == 0 ? nil : areas
            heap.choose(camera: camera, budget: budget, forced: nil, visibleArea: visible)
            scan.choose(camera: camera, budget: budget, forced: nil, visibleArea: visible)
            #expect(heap.wanted == scan.wanted, "trial \(trial), budget \(budget)")
            #expect(heap.wantedSplats <= budget)
        }
    }

    @Test func theBudgetFillsWithoutMeasuredAreasToo() throws {
        let (selector, camera) = try Self.wallSelector()
        for budget in [15_000, 6_000, 2_500, 900] {
            selector.choose(camera: camera, budget: budget, forced: nil)
            #expect(selector.wantedSplats <= budget)
            for n in 0..<selector.nodeCount {
                guard let finer = selector.next(n, from: selector.wanted[n], -1) else { continue }
                let total = selector.wantedSplats - selector.count(n, selector.wanted[n]) + selector.count(n, finer)
                #expect(total > budget || selector.effectiveThreshold <= selector.pixelThreshold,
                        "budget \(budget): leaf \(n) could refine: \(selector.wanted)")
            }
        }
    }

    @Test func aWallHiddenBehindAnotherTakesOnlyWhatTheFrontCannotUse() throws {
        // Two walls 3 m apart (so the tree splits them first), seen face on: the back one wholly hidden.
        let ply = try Self.twoWalls()
        var o = SceneLoader.ModelOptions()
        o.videoPlayback = .frameExact
        o.lod.budget = 9000; o.lod.budgetNamed = true
        let loader = try SceneLoader.load(path: ply, options: o)
        let scene = try #require(try loader.sceneInOwnCoordinates(screen: ScreenGeometry(width: 0.6, height: 0.34)) as? LODSplatScene)
        let camera = Camera(width: 320, height: 180, view: Matrix4.lookAt(eye: Vec3(0, 0, 2.5), target: .zero, up: Vec3(0, 1, 0)),
                            projection: Matrix4.perspective(fovY: 0.9, aspect: 16 / 9, near: 0.01, far: 100))
        let fb = Framebuffer(width: 320, height: 180)
        _ = scene.render(camera: camera, into: fb, context: RenderContext(threads: 2))
        let sel = scene.selector
        let back = (0..<sel.nodeCount).filter { scene.sog.nodes[$0].bounds.max.z < -1 }
        let front = (0..<sel.nodeCount).filter { scene.sog.nodes[$0].bounds.min.z > -0.5 }
        print("walls: levels \(scene.wantedLevels), front leaves \(front), back leaves \(back), \(scene.primitiveCount) splats")
        #expect(!back.isEmpty && !front.isEmpty && back.count + front.count == sel.nodeCount)
        #expect(scene.primitiveCount <= 9000)
        // The hidden wall's leaves take their coarsest level, or one finer with what the budget
        // has left and no front leaf can use (each front leaf's next level is 512 splats more;
        // the back wall shows through its coarse measuring level's seams as slivers).
        for n in back { #expect(sel.wanted[n] >= sel.coarsest(n)! - 1, "hidden leaf \(n): \(scene.wantedLevels)") }
        for n in front {
            guard let finer = sel.next(n, from: sel.wanted[n], -1) else { continue }
            #expect(sel.wantedSplats - sel.count(n, sel.wanted[n]) + sel.count(n, finer) > 9000, "front leaf \(n) could refine")
        }
        // The box rule alone (what the budget bought before) leaves the front wall coarser.
        let fronts = { front.reduce(0) { $0 + sel.count($1, sel.wanted[$1]) } }
        let seen = fronts()
        sel.choose(camera: camera, budget: 9000, forced: nil)
        #expect(seen > fronts(), "front wall: \(seen) splats by visible area, \(fronts()) by the box rule")
    }
}
