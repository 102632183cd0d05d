// SceneIOTests — the three train splats agree across .ply, .splat and .spz (FORMATS.md tolerances).
import Foundation
import Testing
import RenderCore
@testable import SceneIO
import TestSupport

@Suite(.enabled(if: TestData.isAvailable, TestData.skipMessage))
struct TrainSceneTests {
    let base = "splats/ms-test-splat.3-points-from-train"

    @Test func splatMatchesPLY() throws {
        let ply = try #require(splats(try loadTestFile(base + ".ply")))
        let spl = try #require(splats(try loadTestFile(base + ".splat")))
        #expect(ply.count == 3 && spl.count == 3)
        for i in 0..<3 {
            #expect(maxDiff(ply.positions[i], spl.positions[i]) < 1e-6)
            #expect(maxDiff(ply.scales[i], spl.scales[i]) < 1e-5 * max(1, ply.scales[i].max()))
            #expect(angle(ply.rotations[i], spl.rotations[i]) < 0.03)
            let a = ply.baseColor(i).replacing(with: 0, where: ply.baseColor(i) .< 0).replacing(with: 1, where: ply.baseColor(i) .> 1)
            // The tool that wrote the .splat truncates to 8 bits: error up to one step.
            #expect(maxDiff(a, spl.baseColor(i)) < 1.0 / 255 + 1e-4)
            #expect(abs(ply.opacities[i] - spl.opacities[i]) < 1.0 / 255 + 1e-4)
        }
    }

    @Test func spzMatchesPLY() throws {
        let ply = try #require(splats(try loadTestFile(base + ".ply")))
        let spz = try #require(splats(try loadTestFile(base + ".spz")))
        #expect(spz.count == 3 && spz.shDegree == 3)
        for i in 0..<3 {
            #expect(maxDiff(ply.positions[i], spz.positions[i]) <= 1.0 / 4096, "position \(i)")
            #expect(angle(ply.rotations[i], spz.rotations[i]) < 0.2 * .pi / 180, "rotation \(i)")
            let dl = Vec3(logf(ply.scales[i].x), logf(ply.scales[i].y), logf(ply.scales[i].z))
                - Vec3(logf(spz.scales[i].x), logf(spz.scales[i].y), logf(spz.scales[i].z))
            #expect(max(abs(dl.x), abs(dl.y), abs(dl.z)) < 0.035, "log-scale \(i)")
            #expect(maxDiff(ply.baseColor(i), spz.baseColor(i)) < 0.005, "colour \(i)")
            #expect(abs(ply.opacities[i] - spz.opacities[i]) < 0.6 / 255 + 1e-3, "opacity \(i)")
            // Band 1 after the RUB → RDF sign flips (quantised to 1/128 or coarser buckets).
            for k in 0..<3 { for c in 0..<3 {
                let j = (i * 15 + k) * 3 + c
                #expect(abs(ply.shRest[j] - spz.shRest[j]) < 0.04, "sh \(i) \(k) \(c)")
            } }
            for k in 3..<15 { for c in 0..<3 {
                let j = (i * 15 + k) * 3 + c
                #expect(abs(ply.shRest[j] - spz.shRest[j]) < 0.1, "sh \(i) \(k) \(c)")
            } }
        }
    }
}
