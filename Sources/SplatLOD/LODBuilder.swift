// SplatLOD — LODBuilder: levels of detail for any splat cloud (a plain 3DGS capture), the input a
// streamed SOG needs (`LODPyramid`, written by SceneIO's `StreamedSOGWriter`).
//
//   1. Leaves: the centres are split at the median of the box's longest axis, recursively, until
//      a box holds at most `leafSplats` (a binary tree, the lod-meta.json tree).
//   2. Level 0 of a leaf is its splats in Morton order of their centres within the leaf's box.
//   3. Level l of a leaf (l ≥ 1) merges level l − 1's splats by their moments
//      (`GaussianMoments.merge`: mean and covariance weighted by opacity × area^1.5, opacity
//      spread over the merged area, SH colour fitted to what the pair shows from 48 directions:
//      `ViewFittedColour`), the cheapest neighbouring pair again and again until half remain, a
//      merged splat standing for at most 1.25 × 2^l splats of the capture (`mergeToHalf`). The
//      cost is scale-free (Runnalls' bound on the merge's Kullback–Leibler divergence) plus the
//      colour and size differences. `levels` levels in all (a leaf of one splat repeats it).
//   4. What each level of a leaf loses against its finest, in small pictures of the leaf
//      (`LevelErrors`): the selector spends a budget by it (`LODPyramid.Leaf.levelErrors`).
// Leaves are independent: `ParallelLoop` builds them on every core, each worker claiming the next.
// Memory: the pyramid is about twice the cloud (½ + ¼ + … more), plus one leaf's work per core.
import Foundation
import RenderCore
import SceneIO
import Workers

/// Why a level-of-detail tree was not made.
public enum LODBuildError: Error, Equatable, CustomStringConvertible {
    /// The build was stopped (the window closed, the capture was replaced).
    case cancelled
    /// A working file of the out-of-core build (`OutOfCoreBuilder`) could not be read or written
    /// (disk full, permissions, removed while building).
    case workFile(path: String, reason: String)
    public var description: String {
        switch self {
        case .cancelled: return "the level-of-detail build was stopped"
        case let .workFile(path, reason): return "\(path): the level-of-detail build's working file: \(reason)"
        }
    }
}

/// Builds level-of-detail pyramids.
public enum LODBuilder {
    /// Choices of the build.
    public struct Options: Sendable {
        /// Levels in all (1 = the capture alone), 1…16.
        public var levels = 6
        /// Most splats in a leaf box (the finest level's), ≥ 1.
        public var leafSplats = 16_384
        /// Threads (default: one per core).
        public var threads = CoreCount.available
        public init() {}
    }

    /// The pyramid of `cloud`; `progress` gets (leaves done, leaves). `cancelled` is asked before
    /// each leaf; when it says yes the build stops and throws `LODBuildError.cancelled`.
    public static func build(_ cloud: SplatCloud, options: Options = Options(), cancelled: (@Sendable () -> Bool)? = nil,
                             progress: (@Sendable (Int, Int) -> Void)? = nil) throws(LODBuildError) -> LODPyramid {
        let levels = max(1, min(16, options.levels))
        // 1. Leaves by median splits.
        var order = Array(0..<cloud.count)
        var leafSpans: [Range<Int>] = []
        func split(_ r: Range<Int>) -> LODPyramid.Node {
            if r.count <= max(1, options.leafSplats) {
                leafSpans.append(r)
                return .leaf(leafSpans.count - 1)
            }
            var b = Bounds.empty
            for i in r { b = b.including(cloud.positions[order[i]]) }
            let e = b.max - b.min
            let axis = e.x >= e.y && e.x >= e.z ? 0 : e.y >= e.z ? 1 : 2
            func key(_ i: Int) -> Float { let p = cloud.positions[i]; return axis == 0 ? p.x : axis == 1 ? p.y : p.z }
            order[r].sort { (key($0), $0) < (key($1), $1) }
            let mid = r.lowerBound + r.count / 2
            let left = split(r.lowerBound..<mid)
            return .split(left, split(mid..<r.upperBound))
        }
        let tree = cloud.count > 0 ? split(0..<cloud.count) : .leaf(0)
        if cloud.count == 0 { leafSpans = [0..<0] }

        // 2–3. Each leaf's levels, in parallel.
        let results = Locked([([SplatCloud], Bounds, LevelErrorTable?)?](repeating: nil, count: leafSpans.count))
        let spans = leafSpans, leafOrder = order
        // The leaves never throw: only `cancelled` can stop the loop early.
        try? ParallelLoop.run(count: spans.count, threads: options.threads, cancelled: cancelled, progress: progress) { i in
            let leaf = buildLeaf(cloud, Array(leafOrder[spans[i]]), levels: levels)
            results.withLock { $0[i] = leaf }
        }
        // Concatenated level by level, each leaf's level freed once copied and the freed memory
        // handed back, so the peak holds about one pyramid, not two.
        var built = results.withLock { r in defer { r = [] }; return r }
        guard built.allSatisfy({ $0 != nil }) else { throw .cancelled }
        var clouds = built.map { $0!.0 }
        let boxes = built.map { $0!.1 }, errors = built.map { $0!.2 }
        built = []
        var out = [SplatCloud](repeating: SplatCloud(shDegree: cloud.shDegree), count: levels)
        var ranges = [[Range<Int>]](repeating: [], count: clouds.count)
        for l in 0..<levels {
            out[l].reserveCapacity(clouds.reduce(0) { $0 + $1[l].count })
            for i in clouds.indices {
                let start = out[l].count
                out[l].append(contentsOf: clouds[i][l])
                clouds[i][l] = SplatCloud(shDegree: cloud.shDegree)
                ranges[i].append(start..<out[l].count)
            }
            FreedMemory.handBack()
        }
        let leaves = clouds.indices.map { LODPyramid.Leaf(bounds: boxes[$0], ranges: ranges[$0], levelErrors: errors[$0]) }

        return LODPyramid(levels: out, leaves: leaves, tree: tree)
    }

    /// Bytes a process building the tree of `splats` splats with `shDegree` SH bands holds at its
    /// peak, about: the capture, the leaves' levels (about twice the capture) and the pyramid
    /// filling as they are freed — five captures with a margin, plus a fixed part. Measured peaks
    /// (`render` of 3DGS rooms, SH 3, 2 threads; up to 20 % apart between runs): 1.10 GB for 1M
    /// splats, 4.08 GB for 4M, 6.06 GB for 6M; this says 1.4, 5.0 and 7.4. An estimate for
    /// refusing hopeless builds early.
    public static func estimatedPeakBytes(splats: Int, shDegree: Int) -> Int {
        let perSplat = 4 * (3 + 3 + 4 + 1 + 3 + 3 * SplatCloud.restCount(degree: shDegree))
        return splats * (perSplat * 5 + 16) + (256 << 20)
    }

    /// One leaf's levels (level 0 in Morton order), its box (centres ± 3σ of the largest axis) and
    /// what each level loses against the finest (`LevelErrors`).
    static func buildLeaf(_ cloud: SplatCloud, _ members: [Int], levels: Int) -> ([SplatCloud], Bounds, LevelErrorTable?) {
        var bounds = Bounds.empty
        for i in members {
            let p = cloud.positions[i], s = cloud.scales[i]
            let r = 3 * max(s.x, s.y, s.z)
            bounds = bounds.including(p - Vec3(r, r, r)).including(p + Vec3(r, r, r))
        }
        var current = mortonSorted(members.map { GaussianMoments(cloud, $0) })
        var clouds: [SplatCloud] = []
        var kept: [[GaussianMoments]] = []   // each level, for measuring what it loses
        kept.reserveCapacity(levels)
        for l in 0..<levels {
            if l > 0 {
                var next: [GaussianMoments] = []
                next.reserveCapacity((current.count + 1) / 2)
                current.mergeToHalf(level: l, into: &next)
                current = mortonSorted(next)
            }
            kept.append(current)
            var c = SplatCloud(shDegree: cloud.shDegree)
            c.reserveCapacity(current.count)
            for g in current { g.append(to: &c) }
            clouds.append(c)
        }
        return (clouds, bounds, LevelErrors.table(kept, box: bounds))
    }

    /// `splats` in Morton order of their means over their own box (`MortonOrder`).
    static func mortonSorted(_ splats: [GaussianMoments]) -> [GaussianMoments] {
        guard splats.count > 1 else { return splats }
        let means = splats.map { Vec3(Float($0.mean.x), Float($0.mean.y), Float($0.mean.z)) }
        return MortonOrder.indices(means, bounds: Bounds(points: means)).map { splats[Int($0)] }
    }
}

/// Hands memory the allocator holds free back to the system (glibc's `malloc_trim`, found at run
/// time; nothing where it is absent): the leaves' small arrays, freed while their levels are
/// concatenated, would otherwise stay resident beside the pyramid.
enum FreedMemory {
    private typealias Trim = @convention(c) (Int) -> Int32
    private static let trim: Trim? = dlsym(nil, "malloc_trim").map { unsafeBitCast($0, to: Trim.self) }

    static func handBack() { _ = trim?(0) }
}
