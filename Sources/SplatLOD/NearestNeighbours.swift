// SplatLOD — NearestNeighbours: the k nearest other points of every point of a set (a k-d tree
// built once, queried per point), the candidate partners when a level of detail merges splats.
// Exact: the same answer as comparing every pair (`bruteForce`, the test's reference), ties
// broken by the lower index.

/// The k nearest neighbours of each point of a set.
enum NearestNeighbours {
    /// For each point, up to `k` other points by increasing distance (ties: lower index first);
    /// row i is `result[(i * k)..<(i * k + k)]`, padded with -1 when there are fewer than k others.
    static func of(_ points: [SIMD3<Double>], k: Int) -> [Int32] {
        let n = points.count
        guard k > 0 else { return [] }
        var out = [Int32](repeating: -1, count: n * k)
        guard n > 1 else { return out }
        let tree = Tree(points)
        var bestD = [Double](repeating: 0, count: k), bestI = [Int32](repeating: 0, count: k)
        for i in 0..<n {
            var found = 0
            tree.search(points[i], exclude: i, k: k, node: 0, found: &found, bestD: &bestD, bestI: &bestI)
            for r in 0..<found { out[i * k + r] = bestI[r] }
        }
        return out
    }

    /// The same answer by comparing every pair: the slow, obvious reference.
    static func bruteForce(_ points: [SIMD3<Double>], k: Int) -> [Int32] {
        let n = points.count
        var out = [Int32](repeating: -1, count: n * k)
        for i in 0..<n {
            let order = (0..<n).filter { $0 != i }.map { j -> (Double, Int) in
                let d = points[j] - points[i]; return ((d * d).sum(), j)
            }.sorted { $0 < $1 }
            for (r, (_, j)) in order.prefix(k).enumerated() { out[i * k + r] = Int32(j) }
        }
        return out
    }

    /// A k-d tree over the points: each node splits its range at the median of its widest axis;
    /// nodes of at most `bucket` points are leaves.
    private struct Tree {
        static let bucket = 8
        struct Node { var start: Int32, end: Int32, axis: Int8, split: Double, left: Int32, right: Int32 }
        let points: [SIMD3<Double>]
        var order: [Int32]
        var nodes: [Node] = []

        init(_ points: [SIMD3<Double>]) {
            self.points = points
            order = (0..<Int32(points.count)).map { $0 }
            nodes.reserveCapacity(2 * points.count / Self.bucket + 2)
            _ = build(0, points.count)
        }

        mutating func build(_ start: Int, _ end: Int) -> Int32 {
            let index = Int32(nodes.count)
            nodes.append(Node(start: Int32(start), end: Int32(end), axis: -1, split: 0, left: -1, right: -1))
            guard end - start > Self.bucket else { return index }
            var lo = SIMD3<Double>(repeating: .infinity), hi = -lo
            for r in start..<end { let p = points[Int(order[r])]; lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p) }
            let e = hi - lo
            let axis = e.x >= e.y && e.x >= e.z ? 0 : e.y >= e.z ? 1 : 2
            guard e[axis] > 0 else { return index }  // every point the same: one leaf
            let pts = points
            order[start..<end].sort { (pts[Int($0)][axis], $0) < (pts[Int($1)][axis], $1) }
            let mid = (start + end) / 2
            nodes[Int(index)].axis = Int8(axis)
            nodes[Int(index)].split = points[Int(order[mid])][axis]
            let left = build(start, mid)
            let right = build(mid, end)
            nodes[Int(index)].left = left; nodes[Int(index)].right = right
            return index
        }

        /// Adds the points of `node` nearer than the current k-th to the sorted best lists.
        func search(_ q: SIMD3<Double>, exclude: Int, k: Int, node: Int, found: inout Int,
                    bestD: inout [Double], bestI: inout [Int32]) {
            let n = nodes[node]
            if n.axis < 0 {
                for r in Int(n.start)..<Int(n.end) {
                    let j = order[r]
                    if Int(j) == exclude { continue }
                    let d = points[Int(j)] - q, dd = (d * d).sum()
                    if found == k && (dd, j) >= (bestD[k - 1], bestI[k - 1]) { continue }
                    var slot = found == k ? k - 1 : found
                    if found < k { found += 1 }
                    while slot > 0 && (dd, j) < (bestD[slot - 1], bestI[slot - 1]) {
                        bestD[slot] = bestD[slot - 1]; bestI[slot] = bestI[slot - 1]; slot -= 1
                    }
                    bestD[slot] = dd; bestI[slot] = j
                }
                return
            }
            let delta = q[Int(n.axis)] - n.split
            let (near, far) = delta < 0 ? (n.left, n.right) : (n.right, n.left)
            search(q, exclude: exclude, k: k, node: Int(near), found: &found, bestD: &bestD, bestI: &bestI)
            if found < k || delta * delta <= bestD[k - 1] {
                search(q, exclude: exclude, k: k, node: Int(far), found: &found, bestD: &bestD, bestI: &bestI)
            }
        }
    }
}
