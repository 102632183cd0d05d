// SplatRenderer+Sort — stage 2: depth sort of the visible splats, then gather.
//
// Depth is > near > 0, so the IEEE bits of a Float sort like the value. LSD radix with
// 11-bit digits (3 passes), each pass stable, parallel over contiguous chunks (histogram
// per worker, digit-major/worker-minor offsets), so equal depths keep splat order and the
// result does not depend on the worker count. Passes whose digit is the same for every key
// are skipped.
import RenderCore

/// One radix pass's inputs: histogram of a worker's chunk, or its stable scatter.
struct RadixWork {
    var n, workers: Int
    var shift: UInt32
    var hist: UnsafeMutablePointer<Int32>
    var srcK, srcV, dstK, dstV: UnsafeMutablePointer<UInt32>
    static let buckets = 1 << SplatTunables.radixBits
    static let mask = UInt32(buckets - 1)

    func histogram(_ w: Int) {
        let h = hist + w * Self.buckets
        h.update(repeating: 0, count: Self.buckets)
        for i in SplatRenderer.chunk(w, workers, n) { h[Int((srcK[i] >> shift) & Self.mask)] &+= 1 }
    }

    func scatter(_ w: Int) {
        let h = hist + w * Self.buckets
        for i in SplatRenderer.chunk(w, workers, n) {
            let k = srcK[i], d = Int((k >> shift) & Self.mask)
            let p = Int(h[d]); h[d] = Int32(truncatingIfNeeded: p &+ 1)
            dstK[p] = k; dstV[p] = srcV[i]
        }
    }
}

/// The gather of projected records into depth order, counting on the way how many of each
/// worker's records every tile receives (binning's first pass: the same contiguous chunks
/// of the depth order, so the records are counted while they are in cache).
struct GatherWork {
    var n, workers: Int
    var order: UnsafeMutablePointer<UInt32>
    var proj, out: UnsafeMutablePointer<ProjectedSplat>
    var bin: BinWork

    func run(_ w: Int) {
        let range = SplatRenderer.chunk(w, workers, n)
        for i in range { out[i] = proj[Int(order[i])] }
        bin.count(w)
    }
}

extension SplatRenderer {
    /// Sorts `keysA/valsA[0..<n]` by key, gathers `projected[vals]` into `sorted` and counts
    /// the (tile, worker) pairs binning will write (see `BinWork`).
    func sortByDepth(count n: Int, tilesX: Int, tilesY: Int) {
        let bits = SplatTunables.radixBits, buckets = 1 << bits
        let workers = pool.count
        let hist = histogram.reserve(workers * buckets)
        var srcK = keysA.base, srcV = valsA.base, dstK = keysB.base, dstV = valsB.base
        var shift: UInt32 = 0
        while shift < 32 {
            let sk = srcK, sv = srcV, dk = dstK, dv = dstV, sh = shift
            runParallel(.histogram(RadixWork(n: n, workers: workers, shift: sh, hist: hist,
                                              srcK: sk, srcV: sv, dstK: dk, dstV: dv)))
            // Exclusive prefix, digit-major then worker; skip a pass that moves nothing.
            var running: Int32 = 0, trivial = false
            for d in 0..<buckets {
                var digitTotal: Int32 = 0
                for w in 0..<workers {
                    let c = hist[w * buckets + d]
                    hist[w * buckets + d] = running
                    running &+= c; digitTotal &+= c
                }
                if Int(digitTotal) == n { trivial = true }
            }
            if !trivial {
                runParallel(.radixScatter(RadixWork(n: n, workers: workers, shift: sh, hist: hist,
                                                     srcK: sk, srcV: sv, dstK: dk, dstV: dv)))
                swap(&srcK, &dstK); swap(&srcV, &dstV)
            }
            shift += UInt32(bits)
        }
        let order = srcV, proj = projected.base
        let out = sorted.reserve(max(1, n))
        let bin = binWork(count: n, tilesX: tilesX, tilesY: tilesY)
        runParallel(.gather(GatherWork(n: n, workers: workers, order: order, proj: proj, out: out, bin: bin)))
    }
}
