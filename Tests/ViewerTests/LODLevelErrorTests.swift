// A budget spent by what each leaf's levels lose (`LevelErrorTable`): the selector's choice
// against every combination of levels, on a small tree with made-up tables.
import Foundation
import RenderCore
import SceneIO
@testable import SplatLOD
import Testing
import TestSupport
@testable import Viewer

struct LODLevelErrorTests {
    @Test func theChoiceLosesNoMoreThanTheBestCombinationOfLevels() throws {
        var cloud = SplatCloud(shDegree: 0)
        LODVisibilityTests.wall(into: &cloud, z: 0, side: 64, colour: Vec3(0.5, 0.5, 0.5))
        var o = LODBuilder.Options()
        o.levels = 5; o.leafSplats = 1024
        var pyramid = try LODBuilder.build(cloud, options: o)
        #expect(pyramid.leaves.allSatisfy { $0.levelErrors != nil }, "the builder measures every leaf")
        let leaves = pyramid.leaves.count, levels = o.levels
        #expect(leaves == 4)
        let camera = Camera(width: 1280, height: 720, view: Matrix4.lookAt(eye: Vec3(0, 0, 3), target: .zero, up: Vec3(0, 1, 0)),
                            projection: Matrix4.perspective(fovY: 0.8, aspect: 16 / 9, near: 0.01, far: 100))
        var random = SeededRandom(seed: 11)
        func uniform() -> Float { Float(random.next() % 10_000) / 10_000 }
        for trial in 0..<30 {
            // Per leaf: errors growing level by level at made-up rates, the same at every size.
            var perLevel: [[Float]] = []
            for i in 0..<leaves {
                var row: [Float] = [0]
                for _ in 1..<levels { row.append(row.last! + 0.01 + uniform() * uniform()) }
                perLevel.append(row)
                pyramid.leaves[i].levelErrors = LevelErrorTable(values: Array([[Float]](repeating: row, count: LevelErrorTable.sizes.count).joined()), levels: levels)
            }
            let selector = LODSelector(StreamedSOG.inMemory(pyramid, chunkSplats: 16_000, name: "wall"))
            #expect(selector.hasLevelErrors)
            let visible = (0..<leaves).map { i in i == trial % 5 ? 0 : 500 + uniform() * 20_000 }
            let budget = 300 + Int(random.next() % 3_000)
            selector.choose(camera: camera, budget: budget, forced: nil, visibleArea: visible)
            let chosen = selector.wanted
            func error(_ levels: [Int]) -> Float { (0..<leaves).reduce(0) { $0 + visible[$1] * perLevel[$1][levels[$1]] } }
            func splats(_ levels: [Int]) -> Int { (0..<leaves).reduce(0) { $0 + selector.count($1, levels[$1]) } }
            #expect(splats(chosen) <= budget, "trial \(trial)")
            for n in 0..<leaves where visible[n] == 0 { #expect(chosen[n] == selector.coarsest(n)) }
            // Nothing that still fits would lose less.
            for n in 0..<leaves where visible[n] > 0 {
                guard let finer = selector.next(n, from: chosen[n], -1) else { continue }
                var t = chosen; t[n] = finer
                #expect(splats(t) > budget || error(t) >= error(chosen), "trial \(trial): leaf \(n) could refine")
            }
            // Every combination: the choice loses no more than the best one that leaves room for
            // the largest jump of a leaf (the Lagrangian point is optimal for its own total, which
            // lies within one such jump of the budget), and no less than the best within the budget.
            let span = (0..<leaves).map { selector.count($0, 0) - selector.count($0, levels - 1) }.max()!
            var bestWithin = Float.infinity, bestShort = Float.infinity
            var combination = [Int](repeating: 0, count: leaves)
            for code in 0..<Int(pow(Double(levels), Double(leaves))) {
                var c = code
                for n in 0..<leaves { combination[n] = c % levels; c /= levels }
                let s = splats(combination), e = error(combination)
                if s <= budget { bestWithin = min(bestWithin, e) }
                if s <= budget - span { bestShort = min(bestShort, e) }
            }
            #expect(error(chosen) >= bestWithin * (1 - 1e-5) - 1e-3, "trial \(trial)")
            #expect(error(chosen) <= bestShort * (1 + 1e-5) + 1e-3, "trial \(trial): \(error(chosen)) against \(bestShort)")
        }
    }

    @Test func theBreakpointsFindTheBisectionsChoice() throws {
        var cloud = SplatCloud(shDegree: 0)
        LODVisibilityTests.wall(into: &cloud, z: 0, colour: Vec3(0.5, 0.5, 0.5))
        var o = LODBuilder.Options()
        o.levels = 7; o.leafSplats = 128
        var pyramid = try LODBuilder.build(cloud, options: o)
        let leaves = pyramid.leaves.count, levels = o.levels
        #expect(leaves == 128)
        let camera = Camera(width: 1280, height: 720, view: Matrix4.lookAt(eye: Vec3(0.3, 0.2, 2), target: .zero, up: Vec3(0, 1, 0)),
                            projection: Matrix4.perspective(fovY: 0.8, aspect: 16 / 9, near: 0.01, far: 100))
        var random = SeededRandom(seed: 29)
        func uniform() -> Float { Float(random.next() % 10_000) / 10_000 }
        for trial in 0..<40 {
            // Rows that fall by uneven steps, with ties, flat runs and (every fifth leaf) a level
            // that loses more than a coarser one: the hull must skip what is never chosen.
            for i in 0..<leaves {
                var row: [Float] = [0]
                for k in 1..<levels {
                    let step: Float = i % 7 == 0 ? 0.05 : (k % 3 == 0 && i % 2 == 0 ? 0 : 0.01 + uniform() * uniform())
                    row.append(row.last! + step)
                }
                if i % 5 == 0 { row[2] = row[4] + 0.1 }
                pyramid.leaves[i].levelErrors = LevelErrorTable(values: Array([[Float]](repeating: row, count: LevelErrorTable.sizes.count).joined()), levels: levels)
            }
            let sog = StreamedSOG.inMemory(pyramid, chunkSplats: 16_000, name: "wall")
            let exact = LODSelector(sog), bisection = LODSelector(sog)
            bisection.findsLambdaByBisection = true
            let visible = (0..<leaves).map { i in i % 9 == trial % 9 ? 0 : Float([500, 2000, 2000, 7000][Int(random.next() % 4)]) }
            let budget = 400 + Int(random.next() % 15_000)
            exact.choose(camera: camera, budget: budget, forced: nil, visibleArea: visible)
            bisection.choose(camera: camera, budget: budget, forced: nil, visibleArea: visible)
            #expect(exact.wanted == bisection.wanted, "trial \(trial), budget \(budget)")
            #expect(exact.bisections == 0, "trial \(trial): the breakpoints gave way to the bisection")
            #expect(exact.wantedSplats <= budget || exact.wanted.indices.allSatisfy { exact.wanted[$0] == exact.coarsest($0) })
        }
    }
}
