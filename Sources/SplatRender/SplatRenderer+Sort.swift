// SplatRenderer+Sort — stage 3: each tile's pairs sorted by depth, tiles in parallel.
//
// Binning leaves every tile's list in slot order; a stable sort by the depth key, then runs of
// equal depth put in source-index order (slots are in spatial order, see `PreparedSplats`),
// gives the reference's order: depth, then splat index. Depth > near > 0, so the IEEE bits of
// a Float sort like the value (full 32-bit precision: 1 cm apart at 500 m still sorts). Per
// tile — a few hundred pairs, in cache — insertion sort for short lists; else an LSD radix
// sort with 8-bit digits of the key's offset from the tile's smallest key, whole digits from
// the top varying bit down, dropping up to 8 low bits (one pass fewer than sorting every
// varying byte), then a stable insertion pass that puts the few keys sharing a truncated
// value in full order. If that pass has to move much (adversarial clusters of nearly equal
// depth), the exact radix sort on every bit finishes the job, so a tile is always O(n).
// Workers claim tiles from an atomic counter; a tile's result does not depend on which
// worker sorted it. After presorted binning (`PresortedBinWork`) a tile is sorted only when
// binning marked it or its workers' runs meet out of order: by insertion (a few moves), the
// radix sort if that would move much, then ties in source order. (Unmarked presorted tiles keep
// equal depths in the depth order's order: see `PresortedBinWork`.)

import CSIMD

/// Stage 3's inputs: tiles' pair ranges in `pairs`, with `scratch` the same size.
struct TileSortWork {
    var tiles: Int
    var start: UnsafeMutablePointer<Int32>
    var pairs, scratch: UnsafeMutablePointer<TilePair>
    /// Source index of each slot (the tie-breaker).
    var sources: UnsafeMutablePointer<UInt32>
    /// 256 counters per worker.
    var histograms: UnsafeMutablePointer<Int32>
    /// Whether binning wrote the lists from a depth order (`PresortedBinWork`): then only tiles
    /// marked in `disorder` (per worker and tile), or whose workers' runs do not join in order
    /// (run w ends at `runEnds[w · tiles + t]`), are sorted.
    var presorted = false
    var workers = 1
    var disorder: UnsafeMutablePointer<UInt8>? = nil
    var runEnds: UnsafeMutablePointer<Int32>? = nil

    static let digitBits = 8
    static let buckets = 1 << digitBits
    /// Lists up to this long are insertion-sorted (cheaper than four 256-bucket passes).
    static let insertionLimit = 48

    func run(_ w: Int, _ r: SplatRenderer) {
        let hist = histograms + w * Self.buckets
        while true {
            // Tiles are claimed a few at a time, so that the next one's pairs (written by
            // binning, long out of cache) can be asked for while this one is sorted.
            let first = r.nextTile.wrappingAdd(Self.tilesPerClaim, ordering: .relaxed).oldValue
            if first >= tiles { break }
            let last = min(tiles, first &+ Self.tilesPerClaim)
            if presorted {
                for t in first..<last where outOfOrder(t) { repairTile(t, hist) }
                continue
            }
            for t in first..<last {
                if t &+ 1 < last { prefetchPairs(t &+ 1) }
                sortTile(t, hist)
            }
        }
    }

    /// Tiles a worker claims at once.
    static let tilesPerClaim = 16

    /// Asks for tile `t`'s pairs and the scratch its radix passes write.
    @inline(__always)
    func prefetchPairs(_ t: Int) {
        let b = UnsafeRawPointer(pairs + Int(start[t])), bytes = (Int(start[t &+ 1]) &- Int(start[t])) &* 8
        let s = UnsafeRawPointer(scratch + Int(start[t]))
        var o = 0
        while o < bytes { csimd_prefetch(b + o); csimd_prefetch(s + o); o &+= 64 }
    }

    /// Sorts tile `t`'s pairs with worker counters `hist`.
    @inline(__always)
    func sortTile(_ t: Int, _ hist: UnsafeMutablePointer<Int32>) {
        let begin = Int(start[t]), n = Int(start[t &+ 1]) &- begin
        if n <= Self.insertionLimit {
            Self.insertionSort(pairs + begin, n)
        } else {
            Self.truncatedRadixSort(pairs + begin, scratch + begin, n, hist)
        }
        orderTies(pairs + begin, n)
    }

    /// Whether presorted tile `t` may be out of order: a worker marked it, or two workers' runs
    /// meet out of order (by depth; equal depths across the seam are in the order's order).
    @inline(__always)
    func outOfOrder(_ t: Int) -> Bool {
        guard let disorder, let runEnds else { return true }
        var w = 0
        while w < workers {
            if disorder[w &* tiles &+ t] != 0 { return true }
            w &+= 1
        }
        let begin = Int(start[t]), end = Int(start[t &+ 1])
        w = 0
        while w < workers &- 1 {
            let b = Int(runEnds[w &* tiles &+ t])
            if b > begin && b < end {
                let k0 = UInt32(truncatingIfNeeded: pairs[b &- 1]), k1 = UInt32(truncatingIfNeeded: pairs[b])
                if k0 > k1 { return true }
            }
            w &+= 1
        }
        return false
    }

    /// Sorts presorted tile `t`, nearly in order: an insertion pass (a few moves), the radix
    /// sort if it would move much, then equal depths in source order.
    @inline(__always)
    func repairTile(_ t: Int, _ hist: UnsafeMutablePointer<Int32>) {
        let begin = Int(start[t]), n = Int(start[t &+ 1]) &- begin
        if !Self.insertionSort(pairs + begin, n, budget: 4 &* n) {
            Self.truncatedRadixSort(pairs + begin, scratch + begin, n, hist)
        }
        orderTies(pairs + begin, n)
    }

    /// Puts every run of equal depth keys in source-index order (insertion sort; runs are
    /// rare and short: distinct splats at exactly the same depth).
    @inline(__always)
    func orderTies(_ a: UnsafeMutablePointer<TilePair>, _ n: Int) {
        var i = 1
        while i < n {
            if UInt32(truncatingIfNeeded: a[i]) == UInt32(truncatingIfNeeded: a[i &- 1]) {
                let v = a[i], key = UInt32(truncatingIfNeeded: v), src = sources[Int(v &>> 32)]
                var j = i
                while j > 0 && UInt32(truncatingIfNeeded: a[j &- 1]) == key && sources[Int(a[j &- 1] &>> 32)] > src {
                    a[j] = a[j &- 1]; j &-= 1
                }
                a[j] = v
            }
            i &+= 1
        }
    }

    /// Stable insertion sort of `n` pairs by their low 32 bits.
    @inline(__always)
    static func insertionSort(_ a: UnsafeMutablePointer<TilePair>, _ n: Int) {
        _ = insertionSort(a, n, budget: .max)
    }

    /// Stable insertion sort of `n` pairs by their low 32 bits that gives up (returns false,
    /// `a` left a permutation of its input) after moving `budget` elements.
    @inline(__always)
    static func insertionSort(_ a: UnsafeMutablePointer<TilePair>, _ n: Int, budget: Int) -> Bool {
        var moves = 0
        var i = 1
        while i < n {
            let v = a[i], key = UInt32(truncatingIfNeeded: v)
            var j = i
            while j > 0 && UInt32(truncatingIfNeeded: a[j &- 1]) > key {
                a[j] = a[j &- 1]; j &-= 1
            }
            a[j] = v
            moves &+= i &- j
            if moves > budget { return false }
            i &+= 1
        }
        return true
    }

    /// Stable sort of `n` pairs by their low 32 bits (`tmp` holds `n`; the result ends in `a`):
    /// radix passes over whole 8-bit digits of `key − min`, from its top varying bit down,
    /// leaving out at most 8 low bits; then the bounded insertion pass orders keys that agree
    /// in the sorted bits, or the exact `radixSort` does when that pass would cost more than
    /// a few moves per pair.
    static func truncatedRadixSort(_ a: UnsafeMutablePointer<TilePair>, _ tmp: UnsafeMutablePointer<TilePair>,
                                   _ n: Int, _ hist: UnsafeMutablePointer<Int32>) {
        var lo = UInt32.max, hi: UInt32 = 0
        for i in 0..<n {
            let k = UInt32(truncatingIfNeeded: a[i])
            lo = min(lo, k); hi = max(hi, k)
        }
        let bits = UInt32.bitWidth &- (hi &- lo).leadingZeroBitCount
        if bits == 0 { return }  // every key equal: already stably sorted
        let passes = max(1, (bits &- 1) >> 3)  // ≤ 16 bits: 1 pass, ≤ 24: 2, ≤ 32: 3
        let dropped = max(0, bits &- passes &* digitBits)
        var src = a, dst = tmp
        for pass in 0..<passes {
            let shift = UInt32(dropped &+ pass &* digitBits)
            hist.update(repeating: 0, count: buckets)
            for i in 0..<n {
                hist[Int(((UInt32(truncatingIfNeeded: src[i]) &- lo) &>> shift) & 0xFF)] &+= 1
            }
            var running: Int32 = 0
            for d in 0..<buckets {
                let c = hist[d]; hist[d] = running; running &+= c
            }
            for i in 0..<n {
                let v = src[i], d = Int(((UInt32(truncatingIfNeeded: v) &- lo) &>> shift) & 0xFF)
                let p = Int(hist[d]); hist[d] = Int32(truncatingIfNeeded: p &+ 1)
                dst[p] = v
            }
            swap(&src, &dst)
        }
        if src != a { a.update(from: src, count: n) }
        if dropped > 0 && !insertionSort(a, n, budget: 4 &* n) {
            radixSort(a, tmp, n, hist)
        }
    }

    /// Stable LSD radix sort of `n` pairs by their low 32 bits, 8 bits a pass; `tmp` holds `n`.
    /// The result ends in `a`.
    static func radixSort(_ a: UnsafeMutablePointer<TilePair>, _ tmp: UnsafeMutablePointer<TilePair>, _ n: Int,
                          _ hist: UnsafeMutablePointer<Int32>) {
        // Bits that differ between keys: digits without any are already in order.
        var allOr: UInt32 = 0, allAnd: UInt32 = .max
        for i in 0..<n {
            let k = UInt32(truncatingIfNeeded: a[i])
            allOr |= k; allAnd &= k
        }
        let varying = allOr ^ allAnd
        var src = a, dst = tmp
        var shift: UInt64 = 0
        while shift < 32 {
            defer { shift &+= UInt64(digitBits) }
            guard (varying >> UInt32(shift)) & UInt32(buckets - 1) != 0 else { continue }
            hist.update(repeating: 0, count: buckets)
            for i in 0..<n { hist[Int((src[i] &>> shift) & 0xFF)] &+= 1 }
            var running: Int32 = 0
            for d in 0..<buckets {
                let c = hist[d]; hist[d] = running; running &+= c
            }
            for i in 0..<n {
                let v = src[i], d = Int((v &>> shift) & 0xFF)
                let p = Int(hist[d]); hist[d] = Int32(truncatingIfNeeded: p &+ 1)
                dst[p] = v
            }
            swap(&src, &dst)
        }
        if src != a { a.update(from: src, count: n) }
    }
}

extension SplatRenderer {
    /// Sorts every tile's pairs in `pairsA` by depth (stable), in parallel over tiles; when
    /// binning wrote them `presorted`, only the tiles it found out of order.
    func sortTiles(tilesX: Int, tilesY: Int, presorted: Bool = false) {
        let buckets = TileSortWork.buckets
        var work = TileSortWork(tiles: tilesX * tilesY, start: tileStart.base, pairs: pairsA.base,
                                scratch: pairsB.base, sources: slotSource.base,
                                histograms: histogram.reserve(pool.count * buckets))
        if presorted {
            work.presorted = true; work.workers = pool.count
            work.disorder = tileDisorder.base; work.runEnds = tileCounts.base
        }
        nextTile.store(0, ordering: .relaxed)
        runParallel(.tileSort(work))
    }
}
