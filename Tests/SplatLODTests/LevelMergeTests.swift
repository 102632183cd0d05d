// SplatLODTests — LevelMerge: a level's merging against the obvious route (every allowed pair
// costed afresh at every step), what it keeps (every capture splat counted once, half the splats,
// none standing for more than the cap), and that a redundant patch gives up more splats than a
// varied one beside it.
import Foundation
import RenderCore
@testable import SplatLOD
import Testing

struct LevelMergeTests {
    static func merged(_ splats: [GaussianMoments], level: Int) -> [GaussianMoments] {
        var out: [GaussianMoments] = []
        splats.mergeToHalf(level: level, into: &out)
        return out
    }

    static func same(_ a: GaussianMoments, _ b: GaussianMoments) -> Bool {
        a.mean == b.mean && a.opacity == b.opacity && a.colour == b.colour && a.sourceCount == b.sourceCount
            && [a.cov.0, a.cov.1, a.cov.2, a.cov.3, a.cov.4, a.cov.5] == [b.cov.0, b.cov.1, b.cov.2, b.cov.3, b.cov.4, b.cov.5]
    }

    @Test("four levels merged through the heap equal merging by scanning every pair at every step")
    func againstScanning() {
        for seed: UInt64 in [3, 4] {
            let c = LODBuilderTests.cloud(90, degree: 1, seed: seed)
            var level = (0..<c.count).map { GaussianMoments(c, $0) }
            for l in 1...4 {
                let fast = Self.merged(level, level: l), slow = level.mergeToHalfByScanning(level: l)
                #expect(fast.count == slow.count, "seed \(seed) level \(l)")
                #expect(zip(fast, slow).allSatisfy { Self.same($0, $1) }, "seed \(seed) level \(l)")
                level = fast
            }
        }
    }

    @Test("a level holds half (level 1 a little more), counts every capture splat once, and none stands for more than the cap")
    func keepsEverySplat() {
        let c = LODBuilderTests.cloud(1000, degree: 0, seed: 9)
        var level = (0..<c.count).map { GaussianMoments(c, $0) }
        for l in 1...6 {
            let next = Self.merged(level, level: l)
            // Level 1 only pairs (its cap is 2), so a few splats whose neighbours were all taken stay single.
            let half = (level.count + 1) / 2
            #expect(l == 1 ? next.count >= half && next.count * 10 <= level.count * 6 : next.count == half,
                    "level \(l): \(next.count) of \(level.count)")
            #expect(next.reduce(0) { $0 + $1.sourceCount } == 1000)
            let most = next.map(\.sourceCount).max()!
            #expect(most <= [GaussianMoments].sourceCap(level: l), "level \(l): \(most)")
            level = next
        }
        // The cap binds: past level 1 some splats stand for more than 2^l (a single one joined a pair).
        #expect(level.contains { $0.sourceCount > 1 << 6 })
    }

    @Test("a patch of alike splats gives up more splats than a varied patch beside it")
    func redundantPatchMergesFurther() {
        // Two rows of 24 overlapping flat discs, 0.05 apart with σ 0.05: the first all one grey,
        // the second alternating light and dark.
        var c = SplatCloud(shDegree: 0)
        for row in 0..<2 {
            for i in 0..<24 {
                let shade: Float = row == 0 ? 0 : (i % 2 == 0 ? 1.2 : -1.2)
                c.append(position: Vec3(Float(i) * 0.05, Float(row) * 2, 0), scale: Vec3(0.05, 0.05, 0.001),
                         rotation: Quaternion(w: 1, x: 0, y: 0, z: 0), opacity: 0.7, dc: Vec3(shade, shade, shade), rest: [])
            }
        }
        let out = Self.merged((0..<c.count).map { GaussianMoments(c, $0) }, level: 2)
        #expect(out.count == 24)
        let alike = out.filter { $0.mean.y < 1 }.count, varied = out.count - alike
        #expect(alike < varied, "alike row kept \(alike), varied row \(varied)")
    }
}
