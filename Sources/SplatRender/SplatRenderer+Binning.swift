// SplatRenderer+Binning — stage 3: count tiles, tile ranges, duplicate into tile lists.
//
// Walking the depth-sorted splats and appending each to every tile its rectangle touches is
// the last (tile-digit) pass of a stable LSD sort by the 64-bit key (tile << 32 | depth
// bits): each tile's list comes out in (depth, splat index) order. Workers take contiguous
// chunks of the sorted splats; offsets are tile-major, worker-minor, so order is preserved.

/// Binning inputs: per-worker tile counts over a chunk of the sorted splats, then the
/// stable scatter of record copies into the tile lists.
struct BinWork {
    var n, workers, tiles, tilesX: Int
    var counts: UnsafeMutablePointer<Int32>
    var splats: UnsafeMutablePointer<ProjectedSplat>
    var list: UnsafeMutablePointer<ProjectedSplat>

    func count(_ w: Int) {
        let shift = SplatTunables.tileShift
        let c = counts + w * tiles
        c.update(repeating: 0, count: tiles)
        for i in SplatRenderer.chunk(w, workers, n) {
            let s = splats[i]
            let tx0 = Int(s.x0) >> shift, tx1 = Int(s.x1) >> shift
            let ty0 = Int(s.y0) >> shift, ty1 = Int(s.y1) >> shift
            for ty in ty0...ty1 {
                let row = c + ty &* tilesX
                for tx in tx0...tx1 { row[tx] &+= 1 }
            }
        }
    }

    func scatter(_ w: Int) {
        let shift = SplatTunables.tileShift
        let c = counts + w * tiles
        for i in SplatRenderer.chunk(w, workers, n) {
            let s = splats[i]
            let tx0 = Int(s.x0) >> shift, tx1 = Int(s.x1) >> shift
            let ty0 = Int(s.y0) >> shift, ty1 = Int(s.y1) >> shift
            for ty in ty0...ty1 {
                let row = c + ty &* tilesX
                for tx in tx0...tx1 {
                    let p = Int(row[tx]); row[tx] = Int32(truncatingIfNeeded: p &+ 1)
                    list[p] = s
                }
            }
        }
    }
}

extension SplatRenderer {
    /// Binning's work description for `visible` depth-sorted splats (sizes the count arrays).
    func binWork(count visible: Int, tilesX: Int, tilesY: Int) -> BinWork {
        let tiles = tilesX * tilesY, workers = pool.count
        return BinWork(n: visible, workers: workers, tiles: tiles, tilesX: tilesX,
                       counts: tileCounts.reserve(workers * tiles), splats: sorted.base, list: tileRecords.base)
    }

    /// Fills `tileStart[0...tiles]` and `tileRecords` (a copy of each splat's record per tile
    /// it touches, so the blender streams them instead of gathering from the sorted array);
    /// returns the number of (tile, splat) pairs and of splats binned (all visible ones unless
    /// the pairs would exceed `maxTileSplatPairs`, when only the nearest that fit are kept).
    /// The per-worker tile counts were taken by the gather (`sortByDepth`).
    func binTiles(count visible: Int, tilesX: Int, tilesY: Int) -> (pairs: Int, binned: Int) {
        let tiles = tilesX * tilesY, workers = pool.count
        var work = binWork(count: visible, tilesX: tilesX, tilesY: tilesY)
        let counts = work.counts, splats = work.splats
        let start = tileStart.reserve(tiles + 1)
        var n = visible
        var total = 0
        for i in 0..<(workers * tiles) { total += Int(counts[i]) }
        if total > maxTileSplatPairs {
            // Over budget (e.g. the eye inside a dense cloud): keep the nearest splats that fit.
            var kept = 0
            n = 0
            while n < visible {
                let s = splats[n], shift = SplatTunables.tileShift
                let pairs = ((Int(s.x1) >> shift) - (Int(s.x0) >> shift) + 1) * ((Int(s.y1) >> shift) - (Int(s.y0) >> shift) + 1)
                if kept + pairs > maxTileSplatPairs { break }
                kept += pairs; n += 1
            }
            work.n = n
            runParallel(.binCount(work))
        }
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
        var scatter = work
        // Room for half as many pairs again: head motion changes the count from frame to frame,
        // and the buffer should stop growing within the warm-up, not a few hundred frames later.
        scatter.list = tileRecords.capacity >= running ? tileRecords.base : tileRecords.reserve(max(1, running + running / 2))
        runParallel(.binScatter(scatter))
        return (running, n)
    }
}
