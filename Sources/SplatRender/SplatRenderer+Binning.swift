// SplatRenderer+Binning — stage 2: tile ranges, and (depth, slot) pairs appended to every
// tile a splat's rectangle touches.
//
// Preprocessing counts each chunk's tiles on the worker that projected it, while the chunk's
// keys and tile rectangles are still in cache (`countTiles`), and records that worker as the
// chunk's owner. Binning turns the counts into offsets, tile-major and worker-minor, and each
// worker scatters the chunks it owns: reading only the 4-byte depth key and the 8-byte tile
// rectangle of each visible splat, it writes one 8-byte pair per (tile, splat); the blender
// later reads the 48-byte record by slot. A tile's list is therefore in no particular order
// before the per-tile sort — which does not matter: the sort is by depth, and runs of equal
// depth are then put in source-index order, so the sorted list, and the image, depend neither
// on which worker took which chunk nor on the thread count.

import CSIMD

/// Binning inputs: per-worker tile counts over the chunks each worker owns, then the scatter
/// of (depth, slot) pairs into the tile lists.
struct BinWork {
    var chunks, chunkSize, workers, tiles, tilesX: Int
    /// Visible splats at the start of each chunk's slot range.
    var chunkVisible: UnsafeMutablePointer<Int>
    /// The worker that preprocessed (and counted) each chunk.
    var owners: UnsafeMutablePointer<Int32>
    var keys: UnsafeMutablePointer<UInt32>
    var rects: UnsafeMutablePointer<TileRect>
    /// Splats whose key is ≥ this are left out (`UInt32.max`: none; see the pair budget).
    var keyLimit: UInt32
    var counts: UnsafeMutablePointer<Int32>
    /// Per worker `spanCounters` (3 × tiles) scratch counters for `countTiles`.
    var spans: UnsafeMutablePointer<Int32>
    var pairs: UnsafeMutablePointer<TilePair>

    // Counting and scattering walk a chunk's splats in slot order. A splat inside one tile (most
    // of them) only moves a count or a write cursor held in a register while consecutive splats
    // stay in the same tile (slots are in spatial order): the memory counter is touched when
    // the tile changes, instead of a load-add-store chain per splat and a mispredicted exit
    // from the tile loops. Wider splats take the loops.
    //
    // Counting goes further: a splat covering at most 2×2 tiles (98 % in a million-splat room)
    // is counted at its top-left tile in four running counts — itself, and whether it also
    // covers the tile to the right, below, below-right — with no branch on its shape (which
    // comes in no pattern); `addSpans` then moves the last three to the tiles they cover.

    /// Counters per worker that `countTiles` needs besides the tile counts (`tiles` × 3).
    static func spanCounters(tiles: Int) -> Int { 3 * tiles }

    /// Adds to `c` (one counter per tile) splats `range` whose key is below `keyLimit`, each at
    /// its top-left tile — the whole rectangle for those wider than 2×2 tiles — and to `spans`
    /// (zeroed with `c`; right, below and below-right counters, `tiles` each) the rest of the
    /// others; `addSpans` completes `c` after the last range.
    @inline(__always)
    static func countTiles(_ range: Range<Int>, keys: UnsafeMutablePointer<UInt32>, rects: UnsafeMutablePointer<TileRect>,
                           keyLimit: UInt32, tiles: Int, tilesX: Int, into c: UnsafeMutablePointer<Int32>,
                           spans: UnsafeMutablePointer<Int32>) {
        let right = spans, below = spans + tiles, diagonal = spans + 2 &* tiles
        var tile = 0, run = SIMD4<Int32>.zero  // `tile`'s counts not yet added: itself, right, below, diagonal
        @inline(__always) func flush() {
            c[tile] &+= run[0]; right[tile] &+= run[1]; below[tile] &+= run[2]; diagonal[tile] &+= run[3]
        }
        for i in range where keys[i] < keyLimit {
            let r = rects[i]
            let dx = Int32(truncatingIfNeeded: r.x1 &- r.x0), dy = Int32(truncatingIfNeeded: r.y1 &- r.y0)
            if dx | dy < 2 {
                let t = Int(r.y0) &* tilesX &+ Int(r.x0)
                if t != tile { flush(); tile = t; run = .zero }
                run &+= SIMD4(1, dx, dy, dx & dy)
            } else {
                for ty in Int(r.y0)...Int(r.y1) {
                    let row = c + ty &* tilesX
                    for tx in Int(r.x0)...Int(r.x1) { row[tx] &+= 1 }
                }
            }
        }
        flush()
    }

    /// Adds `countTiles`' right, below and below-right counts to the tiles they cover. (The
    /// last column's right counts are 0: rectangles are clipped to the image.)
    static func addSpans(_ c: UnsafeMutablePointer<Int32>, spans: UnsafeMutablePointer<Int32>, tiles: Int, tilesX: Int) {
        let right = spans, below = spans + tiles, diagonal = spans + 2 &* tiles
        for t in 1..<max(1, tiles) { c[t] &+= right[t &- 1] }
        for t in tilesX..<max(tilesX, tiles) { c[t] &+= below[t &- tilesX] }
        for t in (tilesX &+ 1)..<max(tilesX &+ 1, tiles) { c[t] &+= diagonal[t &- tilesX &- 1] }
    }

    /// The slots of chunk `chunk`'s visible splats.
    @inline(__always) func slots(_ chunk: Int) -> Range<Int> {
        let start = chunk &* chunkSize
        return start..<(start &+ chunkVisible[chunk])
    }

    /// Recounts worker `w`'s chunks with `keyLimit` (the pair budget's path).
    func count(_ w: Int) {
        let c = counts + w * tiles, sp = spans + w &* Self.spanCounters(tiles: tiles)
        c.update(repeating: 0, count: tiles)
        sp.update(repeating: 0, count: Self.spanCounters(tiles: tiles))
        for chunk in 0..<chunks where owners[chunk] == Int32(truncatingIfNeeded: w) {
            Self.countTiles(slots(chunk), keys: keys, rects: rects, keyLimit: keyLimit, tiles: tiles, tilesX: tilesX,
                            into: c, spans: sp)
        }
        Self.addSpans(c, spans: sp, tiles: tiles, tilesX: tilesX)
    }

    func scatter(_ w: Int) {
        let c = counts + w * tiles
        var tile = 0, cursor = Int(c[0])  // tile `tile`'s next write position (c[tile] is stale)
        for chunk in 0..<chunks where owners[chunk] == Int32(truncatingIfNeeded: w) {
            for i in slots(chunk) where keys[i] < keyLimit {
                let r = rects[i]
                let pair = TilePair(keys[i]) | TilePair(truncatingIfNeeded: i) &<< 32
                if r.x0 == r.x1 && r.y0 == r.y1 {
                    let t = Int(r.y0) &* tilesX &+ Int(r.x0)
                    if t != tile {
                        c[tile] = Int32(truncatingIfNeeded: cursor); tile = t; cursor = Int(c[t])
                    }
                    pairs[cursor] = pair
                    csimd_prefetch_write(pairs + (cursor &+ 8))  // the tile's next line
                    cursor &+= 1
                } else {
                    c[tile] = Int32(truncatingIfNeeded: cursor)  // the loops may write this tile too
                    for ty in Int(r.y0)...Int(r.y1) {
                        let row = c + ty &* tilesX
                        for tx in Int(r.x0)...Int(r.x1) {
                            let p = Int(row[tx]); row[tx] = Int32(truncatingIfNeeded: p &+ 1)
                            pairs[p] = pair
                            csimd_prefetch_write(pairs + (p &+ 8))
                        }
                    }
                    cursor = Int(c[tile])
                }
            }
        }
        c[tile] = Int32(truncatingIfNeeded: cursor)
    }

    /// Calls `body(slot)` for every visible splat of every chunk, in slot order (serial).
    @inline(__always)
    func forEverySplat(_ body: (Int) -> Void) {
        for chunk in 0..<chunks { for i in slots(chunk) { body(i) } }
    }
}

/// The inclusive range of tiles a splat's pixel rectangle touches (tile units).
struct TileRect {
    var x0, y0, x1, y1: UInt16
}

extension SplatRenderer {
    /// Fills `tileStart[0...tiles]` and `pairsA` with every tile's (depth, slot) pairs from the
    /// tile counts preprocessing left in `tileCounts`; returns the number of pairs and of splats
    /// binned (all visible ones unless the pairs would exceed `maxTileSplatPairs`: then only
    /// the nearest that fit are kept), and whether the lists were written from `order` (given
    /// and within the pair budget: `PresortedBinWork`), each tile's then almost in depth order.
    func binTiles(chunks: Int, visible: Int, tilesX: Int, tilesY: Int,
                  order: SplatDepthOrder? = nil) -> (pairs: Int, binned: Int, presorted: Bool) {
        let tiles = tilesX * tilesY, workers = pool.count
        var work = BinWork(chunks: chunks, chunkSize: SplatTunables.preprocessChunk, workers: workers,
                           tiles: tiles, tilesX: tilesX, chunkVisible: chunkVisible.base, owners: chunkOwner.base,
                           keys: keysA.base, rects: tileRects.base, keyLimit: .max,
                           counts: tileCounts.base, spans: tileSpanCounts.base, pairs: pairsA.base)
        let counts = work.counts
        var total = 0
        for i in 0..<(workers * tiles) { total += Int(counts[i]) }
        var binned = visible
        var presorted = order.map { presortedBinWork($0, tiles: tiles, tilesX: tilesX) }
        if total > maxTileSplatPairs {
            presorted = nil
            (work.keyLimit, binned) = pairBudgetLimit(work)
            runParallel(.binCount(work))
        } else if let p = presorted, !p.twoEnded && workers > 1 {
            runParallel(.presortedCount(p))   // each worker's tiles in its share of the order
        }
        let start = tileStart.reserve(tiles + 1)
        var running = 0
        for t in 0..<tiles {
            start[t] = Int32(truncatingIfNeeded: running)
            for w in 0..<workers {
                let c = Int(counts[w * tiles + t])
                counts[w * tiles + t] = Int32(truncatingIfNeeded: running)
                running += c
            }
        }
        start[tiles] = Int32(truncatingIfNeeded: running)
        if let p = presorted, p.twoEnded {
            for t in 0..<tiles { counts[tiles + t] = start[t + 1] }   // the second writes downwards
        }
        // Room for half as many pairs again: head motion changes the count from frame to frame,
        // and the buffers should stop growing within the warm-up, not a few hundred frames later.
        if pairsA.capacity < running { pairsA.reserve(running + running / 2) }
        if pairsB.capacity < running { pairsB.reserve(running + running / 2) }
        if var p = presorted {
            p.pairs = pairsA.base
            runParallel(.presortedScatter(p))
            return (running, binned, true)
        }
        work.pairs = pairsA.base
        runParallel(.binScatter(work))
        return (running, binned, false)
    }

    /// Over budget (e.g. the eye inside a dense cloud): the depth key below which the nearest
    /// splats' pairs fit in `maxTileSplatPairs`, from a histogram of the keys' top 16 bits
    /// weighted by each splat's tile count (splats sharing the boundary bucket are dropped
    /// with it). Returns the limit and the number of splats kept. A rare path, serial.
    func pairBudgetLimit(_ work: BinWork) -> (UInt32, Int) {
        let buckets = 1 << 16
        let weight = budgetHistogram.reserve(buckets)
        weight.update(repeating: 0, count: buckets)
        work.forEverySplat { i in
            let r = work.rects[i]
            weight[Int(work.keys[i] >> 16)] += (Int(r.x1) - Int(r.x0) + 1) * (Int(r.y1) - Int(r.y0) + 1)
        }
        var kept = 0, bucket = 0
        while bucket < buckets && kept + weight[bucket] <= maxTileSplatPairs {
            kept += weight[bucket]; bucket += 1
        }
        let limit = UInt32(bucket) << 16
        var splats = 0
        work.forEverySplat { i in if work.keys[i] < limit { splats += 1 } }
        return (bucket == buckets ? .max : limit, splats)
    }
}
