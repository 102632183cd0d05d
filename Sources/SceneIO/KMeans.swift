// SceneIO — KMeans: the clustering of SOG v2's higher-order SH into a palette. splat-transform
// runs Lloyd's k-means over every row with up to 65,536 centroids (on a GPU, or a k-d tree on
// the CPU): in 45 dimensions a tree prunes little, and a million rows take hours on a CPU. Here
// the same objective is approached in two levels, as in hierarchical k-means:
//   1. coarse: √k-ish centroids (at most 256) fitted by Lloyd on a sample of the rows, then every
//      row assigned to its nearest coarse centroid;
//   2. fine: each coarse cluster gets centroids in proportion to its rows (k in all), fitted by
//      Lloyd on a sample of its rows, then each row labelled with the nearest fine centroid of
//      its cluster.
// Seeds are distinct rows picked by Floyd's sampling from a seeded generator, so a file is
// written the same way every time; an emptied cluster is reseeded with a row. Fewer rows than
// clusters: each row is its own centroid (no loss but the codebook's). Cost per row and round:
// (coarse + fine centroids of its cluster) × dims instead of k × dims.

import RenderCore

/// Approximate k-means of row-major points (see the file header).
struct KMeans {
    /// Centroids (row-major, `dims` each; at most `k` of them) and each row's centroid.
    var centroids: [Float]
    var labels: [UInt32]

    /// Rows sampled per centroid when fitting (the final labels use every row).
    static let samplePerCentroid = 32

    init(points: [Float], rows: Int, dims: Int, k: Int, iterations: Int, seed: UInt64 = 0x5350_4C41_5446) {
        if rows <= k {
            centroids = Array(points[0..<(rows * dims)])
            labels = (0..<rows).map { UInt32($0) }
            return
        }
        var random = SeededRandom(seed: seed)
        let all = Array(0..<rows)
        let coarseK = min(256, max(1, Int(Double(k).squareRoot().rounded(.up))))
        let coarse = Self.lloyd(points, dims: dims, rows: all, k: coarseK, iterations: iterations, random: &random)
        let coarseLabels = Self.assign(points, dims: dims, rows: all, centroids: coarse, count: coarseK)
        var members = [[Int]](repeating: [], count: coarseK)
        for r in 0..<rows { members[Int(coarseLabels[r])].append(r) }
        // Fine centroids per cluster in proportion to its rows, k in all (largest remainders).
        var share = members.map { $0.isEmpty ? 0 : max(1, k * $0.count / rows) }
        var spare = k - share.reduce(0, +)
        for c in members.indices.sorted(by: { members[$0].count > members[$1].count }) where spare > 0 && share[c] < members[c].count {
            share[c] += 1; spare -= 1
        }
        var out: [Float] = []
        var l = [UInt32](repeating: 0, count: rows)
        for c in 0..<coarseK where !members[c].isEmpty {
            let rowsC = members[c], kc = min(share[c], rowsC.count)
            let base = out.count / dims
            let fine = Self.lloyd(points, dims: dims, rows: rowsC, k: kc, iterations: iterations, random: &random)
            let fineLabels = Self.assign(points, dims: dims, rows: rowsC, centroids: fine, count: kc)
            out += fine
            for (i, r) in rowsC.enumerated() { l[r] = UInt32(base + Int(fineLabels[i])) }
        }
        centroids = out
        labels = l
    }

    /// `k` centroids of `rows` (k ≤ rows) by Lloyd's iteration on a sample of at most
    /// `samplePerCentroid·k` of them.
    static func lloyd(_ points: [Float], dims: Int, rows: [Int], k: Int, iterations: Int, random: inout SeededRandom) -> [Float] {
        let sample = rows.count <= samplePerCentroid * k ? rows : pick(samplePerCentroid * k, of: rows, &random)
        var c = [Float](repeating: 0, count: k * dims)
        for (i, r) in pick(k, of: sample, &random).enumerated() { for d in 0..<dims { c[i * dims + d] = points[r * dims + d] } }
        var sums = [Double](repeating: 0, count: k * dims), counts = [Int](repeating: 0, count: k)
        for _ in 0..<max(1, iterations) {
            let l = assign(points, dims: dims, rows: sample, centroids: c, count: k)
            for i in 0..<sums.count { sums[i] = 0 }
            for i in 0..<k { counts[i] = 0 }
            for (i, r) in sample.enumerated() {
                let cl = Int(l[i])
                counts[cl] += 1
                for d in 0..<dims { sums[cl * dims + d] += Double(points[r * dims + d]) }
            }
            for i in 0..<k {
                let src = counts[i] == 0 ? sample[Int(random.next() % UInt64(sample.count))] : -1
                for d in 0..<dims {
                    c[i * dims + d] = src >= 0 ? points[src * dims + d] : Float(sums[i * dims + d] / Double(counts[i]))
                }
            }
        }
        return c
    }

    /// For each of `rows`, the index of its nearest centroid (squared distance; ties: lower index).
    static func assign(_ points: [Float], dims: Int, rows: [Int], centroids: [Float], count: Int) -> [UInt32] {
        var out = [UInt32](repeating: 0, count: rows.count)
        points.withUnsafeBufferPointer { p in
            centroids.withUnsafeBufferPointer { c in
                for (i, r) in rows.enumerated() {
                    let q = p.baseAddress! + r &* dims
                    var best = 0, bestD = Float.infinity
                    for j in 0..<count {
                        let e = c.baseAddress! + j &* dims
                        var d: Float = 0
                        for t in 0..<dims { let x = e[t] - q[t]; d += x * x }
                        if d < bestD { bestD = d; best = j }
                    }
                    out[i] = UInt32(best)
                }
            }
        }
        return out
    }

    /// `m` distinct entries of `from` (m ≤ count) by Floyd's sampling.
    static func pick(_ m: Int, of from: [Int], _ random: inout SeededRandom) -> [Int] {
        let n = from.count
        var chosen = Set<Int>(), order: [Int] = []
        for j in (n - m)..<n {
            let t = Int(random.next() % UInt64(j + 1))
            let p = chosen.contains(t) ? j : t
            chosen.insert(p); order.append(from[p])
        }
        return order
    }
}
