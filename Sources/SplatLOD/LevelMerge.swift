// SplatLOD — LevelMerge: one level of detail from the level below, by merging the cheapest
// neighbouring pair again and again until half the splats remain (`mergeToHalf`).
//
// Contract: the output holds ⌈n/2⌉ splats (more when no allowed pair is left: at level 1, whose
// cap is a pair, a few percent of splats find their neighbours all taken), each the
// moment merge of one or more input splats; no input is lost or used twice. A merged splat may
// merge again within the level, so redundant neighbourhoods (a flat patch of one colour) give up
// more splats than distinct ones (an edge, a seam) — but it stands for at most
// `sourceCap(level:)` splats of the capture, so no region collapses into a few blobs.
import Foundation
import RenderCore

/// A pair a level's merging may still take: splats `a` < `b`, costed when their versions were
/// `versionA` and `versionB` (an entry whose splat has merged since is stale and skipped). Cheapest
/// first; equal costs by the indices, so the order is the same on every run and thread count.
struct CandidateMerge: HeapOrdered {
    var cost: Double
    var a: Int32, b: Int32
    var versionA: UInt32, versionB: UInt32

    static func before(_ x: CandidateMerge, _ y: CandidateMerge) -> Bool { (x.cost, x.a, x.b) < (y.cost, y.a, y.b) }
}

extension Array where Element == GaussianMoments {
    /// How many nearest splats are each splat's first candidate partners.
    static let candidates = 16
    /// Weight of the squared SH difference (all coefficients) against the geometric cost (nats).
    static let colourWeight = 0.25
    /// Weight of the squared log ratio of the two areas: splats pair with ones of their size, so a
    /// small opaque detail is not swallowed by a large faint neighbour (+0.2 to +0.5 dB per level
    /// on the playbot at 0.1; 0.5 and 1 lose again).
    static let sizeWeight = 0.1
    /// A splat of level l stands for at most this many times 2^l splats of the capture (the share
    /// of strict halving). 1.25 lets a splat left single by one level join a pair at the next; a
    /// cap of 2 lets flat regions collapse too far (the playbot's level 4 −0.9 to −1.1 dB), none
    /// lets merged splats swallow their neighbours (−5 to −7 dB per level).
    static let sourceShare = 1.25

    /// Most capture splats one splat of `level` may stand for: ⌊`sourceShare` × 2^level⌋.
    static func sourceCap(level: Int) -> Int { Int(sourceShare * Double(1 << Swift.min(level, 40))) }

    /// Added to Σ's diagonal so flat splats' determinants stay finite (metres²): σ of 10⁻⁵ of the
    /// diagonal of these splats' centres' box.
    var regularisation: Double {
        var lo = SIMD3<Double>(repeating: .infinity), hi = -lo
        for g in self { lo = pointwiseMin(lo, g.mean); hi = pointwiseMax(hi, g.mean) }
        let span = hi - lo
        return Swift.max((span * span).sum() * 1e-10, 1e-30)
    }

    /// What merging `a` and `b` costs (see `mergeToHalf`), given their `logDeterminant`s, `area`s
    /// and `coverage`s.
    static func pairCost(_ a: GaussianMoments, _ b: GaussianMoments, logDets: (Double, Double), areas: (Double, Double),
                         coverages: (Double, Double), epsilon: Double) -> Double {
        var dc: Float = 0
        for c in a.colour.indices { dc += (a.colour[c] - b.colour[c]) * (a.colour[c] - b.colour[c]) }
        let sizeRatio = log(areas.0 / areas.1)
        return GaussianMoments.mergeCost(a, b, logDets.0, logDets.1, coverageA: coverages.0, coverageB: coverages.1, epsilon: epsilon)
            + colourWeight * Double(dc) + sizeWeight * sizeRatio * sizeRatio
    }

    /// Merges these splats (level `level` − 1 of one leaf) into `out` until ⌈count/2⌉ remain
    /// (or no allowed pair is left):
    /// the candidate pairs are each splat and its `candidates` nearest (`NearestNeighbours`),
    /// taken cheapest first. A pair's cost is how much one Gaussian loses in standing for the two
    /// (`GaussianMoments.mergeCost`, scale-free, so thin splats pair with their coplanar
    /// neighbours) plus `colourWeight` × the squared difference of every SH coefficient and
    /// `sizeWeight` × the squared log ratio of their areas. A merged splat inherits both
    /// splats' neighbours and is costed against them afresh; pairs that would stand for more than
    /// `sourceCap(level:)` capture splats are not taken.
    func mergeToHalf(level: Int, into out: inout [GaussianMoments]) {
        let n = count
        guard n > 1 else { out += self; return }
        let epsilon = regularisation
        let cap = Self.sourceCap(level: level)
        var splats = self
        var logDets = map { $0.logDeterminant(regularised: epsilon) }, areas = map(\.area)
        var coverages = indices.map { self[$0].opacity * areas[$0] }  // `coverage`, from the areas above
        func cost(_ i: Int, _ j: Int) -> Double {
            Self.pairCost(splats[i], splats[j], logDets: (logDets[i], logDets[j]), areas: (areas[i], areas[j]),
                          coverages: (coverages[i], coverages[j]), epsilon: epsilon)
        }

        // The neighbour graph: each splat's k nearest, both ways.
        let k = Swift.min(Self.candidates, n - 1)
        let near = NearestNeighbours.of(map(\.mean), k: k)
        var neighbours = [[Int32]](repeating: [], count: n)
        for i in 0..<n {
            for r in 0..<k {
                let j = Int(near[i * k + r])
                guard j >= 0 else { continue }
                if !neighbours[i].contains(Int32(j)) { neighbours[i].append(Int32(j)) }
                if !neighbours[j].contains(Int32(i)) { neighbours[j].append(Int32(i)) }
            }
        }
        var alive = [Bool](repeating: true, count: n), version = [UInt32](repeating: 0, count: n)
        var queue = BinaryHeap<CandidateMerge>(reservingCapacity: n * k)
        func offer(_ i: Int, _ j: Int) {
            guard splats[i].sourceCount + splats[j].sourceCount <= cap else { return }
            let (a, b) = i < j ? (i, j) : (j, i)
            queue.push(.init(cost: cost(a, b), a: Int32(a), b: Int32(b), versionA: version[a], versionB: version[b]))
        }
        for i in 0..<n { for j in neighbours[i] where Int(j) > i { offer(i, Int(j)) } }

        var remaining = n
        let target = (n + 1) / 2
        while remaining > target, let e = queue.pop() {
            let a = Int(e.a), b = Int(e.b)
            guard alive[a], alive[b], version[a] == e.versionA, version[b] == e.versionB else { continue }
            // b merges into a.
            splats[a] = .merge(splats[a], splats[b])
            alive[b] = false
            version[a] &+= 1
            remaining -= 1
            logDets[a] = splats[a].logDeterminant(regularised: epsilon)
            areas[a] = splats[a].area
            coverages[a] = splats[a].opacity * areas[a]
            var joined: [Int32] = []
            for m in neighbours[a] + neighbours[b] where Int(m) != a && Int(m) != b && alive[Int(m)] && !joined.contains(m) {
                joined.append(m)
            }
            neighbours[a] = joined
            neighbours[b] = []
            for m in joined {
                let mi = Int(m)
                if let at = neighbours[mi].firstIndex(of: Int32(b)) { neighbours[mi].remove(at: at) }
                if !neighbours[mi].contains(Int32(a)) { neighbours[mi].append(Int32(a)) }
                offer(a, mi)
            }
        }
        for i in 0..<n where alive[i] { out.append(splats[i]) }
    }
}

extension Array where Element == GaussianMoments {
    /// The same merging by the obvious route, the test's reference: the same neighbour graph (each
    /// splat's nearest, both ways; a merged splat inherits both splats' neighbours), and at each
    /// step every allowed neighbouring pair costed afresh and the cheapest (ties: lower indices)
    /// merged. O(n²) per step.
    func mergeToHalfByScanning(level: Int) -> [GaussianMoments] {
        let n = count
        guard n > 1 else { return self }
        let epsilon = regularisation
        let cap = Self.sourceCap(level: level)
        var splats = self
        let k = Swift.min(Self.candidates, n - 1)
        let near = NearestNeighbours.bruteForce(map(\.mean), k: k)
        var adjacent = Set<[Int]>()
        for i in 0..<n { for r in 0..<k where near[i * k + r] >= 0 {
            let j = Int(near[i * k + r]); adjacent.insert([Swift.min(i, j), Swift.max(i, j)])
        } }
        var alive = Set(0..<n)
        while alive.count > (n + 1) / 2 {
            var best: (cost: Double, a: Int, b: Int)?
            for pair in adjacent where splats[pair[0]].sourceCount + splats[pair[1]].sourceCount <= cap {
                let (a, b) = (pair[0], pair[1]), x = splats[a], y = splats[b]
                let c = Self.pairCost(x, y, logDets: (x.logDeterminant(regularised: epsilon), y.logDeterminant(regularised: epsilon)),
                                      areas: (x.area, y.area), coverages: (x.opacity * x.area, y.opacity * y.area), epsilon: epsilon)
                if best == nil || (c, a, b) < (best!.cost, best!.a, best!.b) { best = (c, a, b) }
            }
            guard let (_, a, b) = best else { break }
            splats[a] = .merge(splats[a], splats[b])
            alive.remove(b)
            var next = Set<[Int]>()
            for pair in adjacent {
                let p = pair.map { $0 == b ? a : $0 }
                if p[0] != p[1] { next.insert([Swift.min(p[0], p[1]), Swift.max(p[0], p[1])]) }
            }
            adjacent = next
        }
        return alive.sorted().map { splats[$0] }
    }
}
