// SceneIO — Quantizer1D: a 256-entry codebook for pooled scalar columns, as PlayCanvas's
// splat-transform makes SOG v2's scale, colour and SH codebooks (quantize-1d-core.ts).
//
// The values are sorted and put into at most 1,024 histogram bins whose edges blend uniform
// (value) and quantile (rank) positions — more quantile when outliers stretch the range (the
// blend is 1 − IQR/range, kept in 0.5…0.999). Each bin weighs count^α (α = ½: dense regions
// get centroids, sparse tails still some); a dynamic programme then splits the bins into k runs
// minimising the weighted squared error (divide and conquer over monotone splits), and each run's weighted mean is a centroid. The
// codebook is ascending, padded with its last value to k entries. Labels are the nearest centroid.
// Non-finite values: ±∞ get their own end slots, NaN is labelled 0.
import Foundation

/// Optimal 1D quantisation of pooled columns into `k` centroids (see the file header).
enum Quantizer1D {
    /// The codebook (ascending, `k` entries) and each value's label, column by column.
    struct Result {
        var centroids: [Float]
        var labels: [[UInt8]]
    }

    static func quantize(_ columns: [[Float]], k: Int = 256, alpha: Double = 0.5) -> Result {
        let rows = columns.first?.count ?? 0
        var finite: [Float] = []
        finite.reserveCapacity(rows * columns.count)
        var negInf = false, posInf = false
        for c in columns {
            for v in c {
                if v.isFinite { finite.append(v) } else if v == -.infinity { negInf = true } else if v == .infinity { posInf = true }
            }
        }
        finite.sort()
        let lo = negInf ? 1 : 0, hi = posInf ? 1 : 0
        var values: [Float]
        if finite.isEmpty || k - lo - hi <= 0 {
            values = []
        } else if finite.last! - finite.first! < 1e-20 {
            values = [finite[0]]
        } else {
            values = centroids(sorted: finite, k: k - lo - hi, alpha: alpha)
        }
        let first = finite.first ?? 0, last = finite.last ?? 0
        var book = [Float]()
        if negInf { book.append(first - 20) }
        book += values
        let pad = values.last ?? (negInf ? first - 20 : last + 20)
        while book.count < k - hi { book.append(pad) }
        if posInf { book.append(last + 20) }
        let labels = columns.map { column in column.map { label(of: $0, in: book) } }
        return Result(centroids: book, labels: labels)
    }

    /// The index of the entry of the ascending `book` nearest to `v` (the first of equals).
    static func label(of v: Float, in book: [Float]) -> UInt8 {
        guard !v.isNaN else { return 0 }
        var lo = 0, hi = book.count - 1
        while lo < hi {  // first entry ≥ v
            let mid = (lo + hi) / 2
            if book[mid] < v { lo = mid + 1 } else { hi = mid }
        }
        var best = lo
        if lo > 0 && abs(book[lo - 1] - v) <= abs(book[lo] - v) { best = lo - 1 }
        while best > 0 && book[best - 1] == book[best] { best -= 1 }
        return UInt8(truncatingIfNeeded: best)
    }

    /// Up to `k` centroids of the sorted finite values (at least two distinct).
    /// `reference`: the plain O(k·H²) programme, for tests of the fast one.
    static func centroids(sorted data: [Float], k: Int, alpha: Double, reference: Bool = false) -> [Float] {
        let n = data.count
        let bins = min(1024, n)
        let vMin = Double(data[0]), range = Double(data[n - 1]) - vMin
        let iqr = Double(data[n * 3 / 4]) - Double(data[n / 4])
        let beta = max(0.5, min(0.999, 1 - iqr / range))
        var counts = [Double](repeating: 0, count: bins), sums = [Double](repeating: 0, count: bins)
        for i in 0..<n {
            let u = (Double(data[i]) - vMin) / range, q = Double(i) / Double(n)
            let b = min(bins - 1, Int((Double(bins) * (beta * q + (1 - beta) * u)).rounded(.down)))
            counts[b] += 1
            sums[b] += Double(data[i])
        }
        var pw = [Double](repeating: 0, count: bins + 1), pwx = pw, pwxx = pw
        for i in 0..<bins {
            let centre = counts[i] > 0 ? sums[i] / counts[i] : vMin + (Double(i) + 0.5) / Double(bins) * range
            let w = counts[i] > 0 ? pow(counts[i], alpha) : 0
            pw[i + 1] = pw[i] + w; pwx[i + 1] = pwx[i] + w * centre; pwxx[i + 1] = pwxx[i] + w * centre * centre
        }
        func cost(_ a: Int, _ b: Int) -> Double {
            let w = pw[b + 1] - pw[a]
            guard w > 0 else { return 0 }
            let wx = pwx[b + 1] - pwx[a]
            return (pwxx[b + 1] - pwxx[a]) - wx * wx / w
        }
        func mean(_ a: Int, _ b: Int) -> Double {
            let w = pw[b + 1] - pw[a]
            return w > 0 ? (pwx[b + 1] - pwx[a]) / w : 0.5 * (sums[a] / max(counts[a], 1) + sums[b] / max(counts[b], 1))
        }
        let kEff = min(k, counts.filter { $0 > 0 }.count)
        // dp[m][j]: least cost of bins 0…j in m runs; split[m][j]: the last bin of run m − 1.
        // The best split is monotone in j (the cost obeys the quadrangle inequality), so each
        // row is filled by divide and conquer: O(k·H·log H) instead of O(k·H²).
        var prev = (0..<bins).map { cost(0, $0) }
        var cur = [Double](repeating: .infinity, count: bins)
        var split = [[Int32]](repeating: [], count: kEff + 1)
        split[1] = [Int32](repeating: -1, count: bins)
        if kEff >= 2 {
            for m in 2...kEff {
                var s = [Int32](repeating: Int32(m - 2), count: bins)
                for j in 0..<bins { cur[j] = .infinity }
                // Fills j in lo…hi knowing their best splits lie in optLo…optHi.
                func fill(_ lo: Int, _ hi: Int, _ optLo: Int, _ optHi: Int) {
                    guard lo <= hi else { return }
                    let j = (lo + hi) / 2
                    var best = Double.infinity, bestS = max(optLo, m - 2)
                    var t = max(optLo, m - 2)
                    while t <= min(optHi, j - 1) {
                        let c = prev[t] + cost(t + 1, j)
                        if c < best { best = c; bestS = t }
                        t += 1
                    }
                    cur[j] = best
                    s[j] = Int32(bestS)
                    fill(lo, j - 1, optLo, bestS)
                    fill(j + 1, hi, bestS, optHi)
                }
                if reference {
                    for j in (m - 1)..<bins { fill(j, j, m - 2, j - 1) }
                } else {
                    fill(m - 1, bins - 1, m - 2, bins - 2)
                }
                split[m] = s
                swap(&prev, &cur)
            }
        }
        var out = [Float](repeating: 0, count: kEff)
        var j = bins - 1
        for m in stride(from: kEff, through: 1, by: -1) {
            let s = m > 1 ? Int(split[m][j]) : -1
            out[m - 1] = Float(mean(s + 1, j))
            j = s
        }
        return out.sorted()
    }
}
