// SplatLODTests — the level-of-detail builder: moments kept by merging, covariances turned back
// into scales and rotations exactly, the nearest-neighbour search against comparing every pair,
// pairs chosen by a scale-free cost (coplanar discs before a nearer crossing one), the pyramid's
// shape (levels of half, contiguous leaf ranges covering every splat), the thread count not
// changing the result, and a pyramid written as a streamed SOG read back by our own reader.
// (A level's merging alone: LevelMergeTests.)
import Foundation
import RenderCore
import SceneIO
@testable import SplatLOD
import Testing
import TestSupport

struct LODBuilderTests {
    static func cloud(_ n: Int, degree: Int = 1, seed: UInt64 = 1) -> SplatCloud {
        var rng = seed
        func r() -> Float { rng = rng &* 6364136223846793005 &+ 1442695040888963407; return Float(rng >> 40) / Float(1 << 24) }
        var c = SplatCloud(shDegree: degree)
        let rest = SplatCloud.restCount(degree: degree) * 3
        for _ in 0..<n {
            c.append(position: Vec3(r() * 4 - 2, r() * 2 - 1, r() * 4 - 2),
                     scale: Vec3(r() * 0.05 + 0.005, r() * 0.05 + 0.005, r() * 0.02 + 0.002),
                     rotation: Quaternion(w: r() - 0.5, x: r() - 0.5, y: r() - 0.5, z: r() - 0.5).normalized,
                     opacity: r() * 0.9 + 0.05, dc: Vec3(r() - 0.5, r() - 0.5, r() - 0.5), rest: (0..<rest).map { _ in r() - 0.5 })
        }
        return c
    }

    @Test("scales and rotation from a covariance give back the covariance")
    func eigenRoundTrip() {
        let c = Self.cloud(200)
        for i in 0..<c.count {
            let g = GaussianMoments(c, i)
            var back = SplatCloud(shDegree: 1)
            g.append(to: &back)
            let h = GaussianMoments(back, 0)
            let a = [g.cov.0, g.cov.1, g.cov.2, g.cov.3, g.cov.4, g.cov.5], b = [h.cov.0, h.cov.1, h.cov.2, h.cov.3, h.cov.4, h.cov.5]
            let scale = a.map(abs).max()!
            for k in 0..<6 { #expect(abs(a[k] - b[k]) <= scale * 1e-5, "splat \(i) entry \(k): \(a[k]) vs \(b[k])") }
        }
    }

    @Test("merging keeps the weighted moments; two copies of one splat stay that splat, more opaque")
    func merge() {
        let c = Self.cloud(2)
        let a = GaussianMoments(c, 0), b = GaussianMoments(c, 1)
        let m = GaussianMoments.merge(a, b)
        let wa = a.momentWeight, wb = b.momentWeight
        // Second moment about the origin is kept: E[xxᵀ] = Σ + μμᵀ.
        let want = (wa * (a.cov.0 + a.mean.x * a.mean.x) + wb * (b.cov.0 + b.mean.x * b.mean.x)) / (wa + wb)
        #expect(abs((m.cov.0 + m.mean.x * m.mean.x) - want) < 1e-9)
        let same = GaussianMoments.merge(a, a)
        #expect(abs(same.mean.x - a.mean.x) < 1e-12 && abs(same.cov.3 - a.cov.3) < 1e-12)
        #expect(same.opacity > a.opacity && same.opacity <= 1 - (1 - a.opacity) * (1 - a.opacity) + 1e-12)
        // Far apart: the merged splat spreads their coverage, so it is fainter than either.
        var far = c
        far.positions[1] = far.positions[0] + Vec3(1, 0, 0)
        let spread = GaussianMoments.merge(GaussianMoments(far, 0), GaussianMoments(far, 1))
        #expect(spread.opacity < min(a.opacity, GaussianMoments(far, 1).opacity))
    }

    @Test("two opaque splats side by side keep their coverage by growing (at most 1.5× the area), fainter ones do not grow")
    func opaqueMergeGrows() {
        func pair(_ opacity: Float) -> (GaussianMoments, GaussianMoments) {
            var c = SplatCloud(shDegree: 0)
            for x: Float in [0, 0.2] {
                c.append(position: Vec3(x, 0, 0), scale: Vec3(0.1, 0.1, 0.001), rotation: Quaternion(w: 1, x: 0, y: 0, z: 0),
                         opacity: opacity, dc: Vec3(0, 0, 0), rest: [])
            }
            return (GaussianMoments(c, 0), GaussianMoments(c, 1))
        }
        let (a, b) = pair(1), (fa, fb) = pair(0.4)
        let faint = GaussianMoments.merge(fa, fb), opaque = GaussianMoments.merge(a, b)
        // The faint pair's merge is the moment match (spread 0.4·2·0.01/0.0141 < 1: no growth).
        #expect(abs(faint.cov.0 - (0.01 + 0.01)) < 1e-6 && abs(faint.cov.3 - 0.01) < 1e-6)
        // The opaque pair would cover 0.02 m² at opacity 1 over 0.0141: it grows by min(√2, 1.5).
        let grow = opaque.area / faint.area
        #expect(abs(grow - 2.0.squareRoot()) < 1e-3, "grew \(grow)")
        #expect(opaque.opacity <= 0.999 && opaque.coverage > faint.area * 0.999 * 1.4)
    }

    @Test("the k-d tree's nearest neighbours are those of comparing every pair, duplicates and ties included")
    func nearestNeighbours() {
        var rng: UInt64 = 7
        func r() -> Double { rng = rng &* 6364136223846793005 &+ 1442695040888963407; return Double(rng >> 40) / Double(1 << 24) }
        var points = (0..<700).map { _ in SIMD3(r(), r() * 0.5, r() * 2) }
        points += points.prefix(40)                                  // exact duplicates
        points += (0..<60).map { SIMD3(Double($0 % 6) * 0.1, 0.25, Double($0 / 6) * 0.1) }  // a grid: equal distances
        for k in [1, 5, 16] {
            #expect(NearestNeighbours.of(points, k: k) == NearestNeighbours.bruteForce(points, k: k), "k = \(k)")
        }
        let few = Array(points.prefix(4))
        #expect(NearestNeighbours.of(few, k: 6) == NearestNeighbours.bruteForce(few, k: 6))
        #expect(NearestNeighbours.of(few, k: 6)[3] == -1)            // 3 others: the rest is padding
        #expect(NearestNeighbours.of([SIMD3(0, 0, 0)], k: 3) == [-1, -1, -1])
    }

    @Test("thin splats pair with their coplanar neighbour, not a nearer one crossing them")
    func coplanarPairs() {
        // Discs of radius σ 0.1 and thickness 0.001: A0, A1 in the plane z = 0; P0, P1 in the
        // plane x = 0. P0 is 0.02 from A0, A1 is 0.15 away; merging A0 with P0 would make a blob.
        var c = SplatCloud(shDegree: 0)
        let flatZ = Quaternion(w: 1, x: 0, y: 0, z: 0)
        let flatX = Quaternion(w: Float(0.5).squareRoot(), x: 0, y: Float(0.5).squareRoot(), z: 0)  // z axis → x
        for (p, q) in [(Vec3(0, 0, 0), flatZ), (Vec3(0.15, 0, 0), flatZ), (Vec3(0, 0, 0.02), flatX), (Vec3(0, 0.15, 0.02), flatX)] {
            c.append(position: p, scale: Vec3(0.1, 0.1, 0.001), rotation: q, opacity: 0.8, dc: Vec3(0.2, 0.2, 0.2), rest: [])
        }
        let splats = (0..<4).map { GaussianMoments(c, $0) }
        var out: [GaussianMoments] = []
        splats.mergeToHalf(level: 1, into: &out)
        #expect(out.count == 2)
        // Each merged splat stays thin (its smallest σ about 0.001), and sits between its pair.
        let means = out.map { $0.mean }.sorted { $0.x > $1.x }
        #expect(abs(means[0].x - 0.075) < 1e-6 && abs(means[0].z) < 1e-6, "\(means)")
        #expect(abs(means[1].y - 0.075) < 1e-6 && abs(means[1].z - 0.02) < 1e-6, "\(means)")
        for g in out {
            var back = SplatCloud(shDegree: 0)
            g.append(to: &back)
            #expect(min(back.scales[0].x, back.scales[0].y, back.scales[0].z) < 0.0011)
        }
    }

    @Test("levels hold half (level 1 a little more), leaf ranges are contiguous and cover every splat, threads do not matter")
    func shape() throws {
        let c = Self.cloud(5000)
        var o = LODBuilder.Options()
        o.levels = 5; o.leafSplats = 700; o.threads = 2
        let p = try LODBuilder.build(c, options: o)
        #expect(p.levels.count == 5 && p.counts[0] == 5000)
        for l in 1..<5 {
            // Each leaf's level holds half the one below, rounded up; level 1, which only pairs,
            // keeps a few splats single whose neighbours were all taken.
            let half = p.leaves.reduce(0) { $0 + ($1.ranges[l - 1].count + 1) / 2 }
            #expect(l == 1 ? p.counts[l] >= half && Double(p.counts[l]) <= 0.6 * Double(p.counts[l - 1]) : p.counts[l] == half,
                    "level \(l): \(p.counts[l]), half \(half)")
            for leaf in p.leaves { #expect(leaf.ranges[l].count <= leaf.ranges[l - 1].count) }
        }
        #expect(p.leaves.allSatisfy { $0.ranges[0].count <= 700 })
        for l in 0..<5 {
            var next = 0
            for leaf in p.leaves { #expect(leaf.ranges[l].lowerBound == next); next = leaf.ranges[l].upperBound }
            #expect(next == p.counts[l])
        }
        // Level 0 holds the capture's splats, each once.
        let key = { (v: Vec3) in "\(v.x),\(v.y),\(v.z)" }
        #expect(Set(p.levels[0].positions.map(key)) == Set(c.positions.map(key)))
        o.threads = 1
        let q = try LODBuilder.build(c, options: o)
        #expect(q.levels[3].positions == p.levels[3].positions && q.levels[4].opacities == p.levels[4].opacities)
    }

    @Test("a pyramid written as a streamed SOG reads back level by level")
    func streamedRoundTrip() throws {
        let c = Self.cloud(6000, degree: 2)
        var o = LODBuilder.Options()
        o.levels = 4; o.leafSplats = 1000
        let p = try LODBuilder.build(c, options: o)
        let dir = TestData.temporaryDirectory().appendingPathComponent("lod")
        try StreamedSOGWriter.write(p, to: dir.appendingPathComponent("lod-meta.json").path, chunkSplats: 2500)
        let sog = try StreamedSOG.open(dir.appendingPathComponent("lod-meta.json").path)
        #expect(sog.levelCount == 4 && sog.warnings.isEmpty, "\(sog.warnings)")
        #expect((0..<4).map { sog.splatCount(level: $0) } == p.counts)
        #expect(sog.nodes.count == p.leaves.count)
        #expect(sog.chunks.allSatisfy { ($0.count ?? 0) <= 2500 && $0.problem == nil })
        // The finest level, read as one cloud, is the capture (within SOG's quantisation).
        let finest = try #require({ if case .splats(let s) = try SceneFile.load(path: dir.appendingPathComponent("lod-meta.json").path) { return s }; return nil }())
        #expect(finest.count == 6000 && finest.shDegree == 2)
        // Every leaf says what its levels lose, and the file keeps it (4 significant digits).
        for (i, node) in sog.nodes.enumerated() {
            let built = try #require(p.leaves[i].levelErrors), read = try #require(node.levelErrors)
            #expect(read.levels == 4 && zip(built.values, read.values).allSatisfy { abs($0 - $1) <= 1e-3 * max($0, 1e-30) })
        }
        // Leaf boxes hold their splats' centres.
        for (i, node) in sog.nodes.enumerated() {
            let r = p.leaves[i].ranges[0]
            for k in r { let v = p.levels[0].positions[k]; #expect(node.bounds.min.x <= v.x + 1e-4 && v.x <= node.bounds.max.x + 1e-4) }
        }
        // An existing folder that is not a streamed SOG is refused, untouched.
        let other = TestData.temporaryDirectory().appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: other.appendingPathComponent("keep.txt"))
        #expect(throws: SceneIOError.self) { try StreamedSOGWriter.write(p, to: other.path) }
        #expect(FileManager.default.fileExists(atPath: other.appendingPathComponent("keep.txt").path))
    }
}
