// SplatRenderer+PresortedBinning — stage 2 when the splats keep a depth order that fits the
// camera (`SplatDepthOrder`: the view's rotation has not changed since it was made).
//
// Instead of walking the visible splats in slot order, each worker walks its share of the kept
// order (nearest first) and appends every splat's (depth, slot) pair to the tiles it touches, so
// each tile's list comes out already in depth order; the sort stage then only repairs the few
// tiles where it is not (`TileSortWork.presorted`). The order is by prepared slot: preprocessing
// leaves one 16-byte `BinEntry` per prepared slot (key, tile rectangle, output slot; key 0 when
// culled), so a splat costs binning one read, not one each for its key, rectangle and slot.
//
// Two workers need no counting pass: the first fills each tile's range forwards from its start,
// the second (the farther half of the order) backwards from its end, and they meet where the
// counts preprocessing took say. More workers count their shares first (a pass like the scatter
// that writes nothing), then write forwards into worker-minor ranges as the ordinary scatter does.
// While writing, each worker compares every key with the one it wrote before in the same tile:
// a smaller key (which the arithmetic should never give: depth is computed from r·p exactly as
// the order was) marks the tile for the sort stage, as does a pair of runs that meet out of
// order. Equal depths stay as the order has them: nearer r·p first (where adding the eye's
// translation in float rounded distinct r·p to one depth, the order keeps their true order, which
// the per-tile sort, seeing one depth, puts in source order instead), then source index (exactly
// equal r·p, as the sort leaves them). Putting them in source order on the spot, as before, walked
// back through each tie reading source indices: in the whole 1M room, where walls give many
// ties, that was a third of binning (bin 7.9 → 5.2 ms). So a tile with no mark whose runs
// join in order is known sorted without reading it again.

import CSIMD

/// What preprocessing leaves per prepared slot for presorted binning (16 bytes).
struct BinEntry {
    var rect: TileRect
    /// The depth key (0: culled this frame; real keys are > 0 as depth > near > 0).
    var key: UInt32
    /// The output slot (record, key, rectangle and source index).
    var slot: UInt32

    /// Writes the entries of one group of 8 prepared slots at `to`: lanes set in `lanes` were
    /// written, in order, from output slot `first` on.
    @inline(__always)
    static func write(_ to: UnsafeMutablePointer<BinEntry>, lanes: UInt8, first: Int,
                      keys: UnsafeMutablePointer<UInt32>, rects: UnsafeMutablePointer<TileRect>) {
        if lanes == 0xFF {   // the usual case: no branch per lane
            for l in 0..<8 {
                to[l] = BinEntry(rect: rects[first &+ l], key: keys[first &+ l], slot: UInt32(truncatingIfNeeded: first &+ l))
            }
            return
        }
        var o = first
        for l in 0..<8 {
            if (lanes &>> UInt8(l)) & 1 != 0 {
                to[l] = BinEntry(rect: rects[o], key: keys[o], slot: UInt32(truncatingIfNeeded: o))
                o &+= 1
            } else {
                to[l] = BinEntry(rect: TileRect(x0: 0, y0: 0, x1: 0, y1: 0), key: 0, slot: 0)
            }
        }
    }
}

/// Presorted binning's inputs.
struct PresortedBinWork {
    /// Prepared slots, nearest first (`SplatDepthOrder.slots`), and how many.
    var order: UnsafeMutablePointer<UInt32>
    var orderCount: Int
    /// Per prepared slot: key, rectangle, output slot (`BinEntry`).
    var entries: UnsafeMutablePointer<BinEntry>
    /// Source index per output slot (the tie-breaker).
    var sources: UnsafeMutablePointer<UInt32>
    var workers, tiles, tilesX: Int
    /// Per worker, one write cursor per tile (the tile counts' storage: offsets in, run ends out).
    var cursors: UnsafeMutablePointer<Int32>
    /// Per worker and tile, side by side (one cache line serves both): the write cursor, and where
    /// the worker's run starts (for the second of two, where it ends, exclusive).
    var runs: UnsafeMutablePointer<SIMD2<Int32>>
    /// Per worker and tile: whether a key came out of order.
    var disorder: UnsafeMutablePointer<UInt8>
    var pairs: UnsafeMutablePointer<TilePair>

    /// Entries of the order a worker looks ahead to ask for a splat's entry.
    static let prefetchDistance = 64

    /// Whether the second of two workers writes backwards (no counting pass).
    var twoEnded: Bool { workers == 2 }

    /// Worker `w`'s share of the order.
    func share(_ w: Int) -> Range<Int> { SplatRenderer.chunk(w, workers, orderCount) }

    /// Counts worker `w`'s share into its tile counters (more than two workers).
    func count(_ w: Int) {
        let c = cursors + w &* tiles
        c.update(repeating: 0, count: tiles)
        let range = share(w)
        for i in range {
            if i &+ Self.prefetchDistance < range.upperBound { csimd_prefetch(entries + Int(order[i &+ Self.prefetchDistance])) }
            let e = entries[Int(order[i])]
            if e.key == 0 { continue }
            for ty in Int(e.rect.y0)...Int(e.rect.y1) {
                let row = c + ty &* tilesX
                for tx in Int(e.rect.x0)...Int(e.rect.x1) { row[tx] &+= 1 }
            }
        }
    }

    /// Writes worker `w`'s share of the order into the tile lists (see the file's header).
    func scatter(_ w: Int) {
        let c = cursors + w &* tiles, run = runs + w &* tiles, bad = disorder + w &* tiles
        bad.update(repeating: 0, count: tiles)
        for t in 0..<tiles { run[t] = SIMD2(c[t], c[t]) }
        defer { for t in 0..<tiles { c[t] = run[t][0] } }
        let range = share(w), ahead = Self.prefetchDistance
        if twoEnded && w == 1 {
            var i = range.upperBound
            while i > range.lowerBound {
                i &-= 1
                if i &- ahead >= range.lowerBound { csimd_prefetch(entries + Int(order[i &- ahead])) }
                let e = entries[Int(order[i])]
                if e.key == 0 { continue }
                let pair = TilePair(e.key) | TilePair(e.slot) &<< 32
                for ty in Int(e.rect.y0)...Int(e.rect.y1) {
                    for tx in Int(e.rect.x0)...Int(e.rect.x1) {
                        let t = ty &* tilesX &+ tx
                        let r = run[t], p = Int(r[0]) &- 1, end = Int(r[1])
                        run[t][0] = Int32(truncatingIfNeeded: p)
                        csimd_prefetch_write(pairs + (p &- 8))  // the tile's next line, downwards
                        if p &+ 1 < end {
                            let next = UInt32(truncatingIfNeeded: pairs[p &+ 1])
                            if next < e.key { bad[t] = 1 }
                        }
                        pairs[p] = pair
                    }
                }
            }
        } else {
            for i in range {
                if i &+ ahead < range.upperBound { csimd_prefetch(entries + Int(order[i &+ ahead])) }
                let e = entries[Int(order[i])]
                if e.key == 0 { continue }
                let pair = TilePair(e.key) | TilePair(e.slot) &<< 32
                for ty in Int(e.rect.y0)...Int(e.rect.y1) {
                    for tx in Int(e.rect.x0)...Int(e.rect.x1) {
                        let t = ty &* tilesX &+ tx
                        let r = run[t], p = Int(r[0]), begin = Int(r[1])
                        run[t][0] = Int32(truncatingIfNeeded: p &+ 1)
                        csimd_prefetch_write(pairs + (p &+ 8))
                        if p > begin {
                            let prev = UInt32(truncatingIfNeeded: pairs[p &- 1])
                            if prev > e.key { bad[t] = 1 }
                        }
                        pairs[p] = pair
                    }
                }
            }
        }
    }
}

extension SplatRenderer {
    /// The presorted scatter's work for `order`, over the buffers preprocessing filled.
    func presortedBinWork(_ order: SplatDepthOrder, tiles: Int, tilesX: Int) -> PresortedBinWork {
        let workers = pool.count
        return PresortedBinWork(order: order.slots.base, orderCount: order.count, entries: binEntries.base,
                                sources: slotSource.base, workers: workers, tiles: tiles, tilesX: tilesX,
                                cursors: tileCounts.base, runs: tileRuns.reserve(workers * tiles),
                                disorder: tileDisorder.reserve(workers * tiles), pairs: pairsA.base)
    }
}
