// SplatRenderer+Sort — stage 2: depth sort of the visible splats, then gather.
//
// Depth is > near > 0, so the IEEE bits of a Float sort like the value. LSD radix with
// 11-bit digits (3 passes), each pass stable, parallel over contiguous chunks (histogram
// per worker, digit-major/worker-minor offsets), so equal depths keep splat order and the
// result does not depend on the worker count. Passes whose digit is the same for every key
// are skipped.
import RenderCore

extension SplatRenderer {
    /// Sorts `keysA/valsA[0..<n]` by key and gathers `projected[vals]` into `sorted`.
    func sortByDepth(count n: Int) {
        let bits = SplatTunables.radixBits, buckets = 1 << bits, mask = UInt32(buckets - 1)
        let workers = pool.count
        let hist = histogram.reserve(workers * buckets)
        var srcK = keysA.base, srcV = valsA.base, dstK = keysB.base, dstV = valsB.base
        var shift: UInt32 = 0
        while shift < 32 {
            let sk = srcK, sv = srcV, dk = dstK, dv = dstV, sh = shift
            pool.run { w in
                let h = hist + w * buckets
                h.update(repeating: 0, count: buckets)
                for i in chunk(w, of: n) { h[Int((sk[i] >> sh) & mask)] &+= 1 }
            }
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
                pool.run { w in
                    let h = hist + w * buckets
                    for i in chunk(w, of: n) {
                        let k = sk[i], d = Int((k >> sh) & mask)
                        let p = Int(h[d]); h[d] = Int32(truncatingIfNeeded: p &+ 1)
                        dk[p] = k; dv[p] = sv[i]
                    }
                }
                swap(&srcK, &dstK); swap(&srcV, &dstV)
            }
            shift += UInt32(bits)
        }
        let order = srcV, proj = projected.base
        let out = sorted.reserve(max(1, n))
        pool.run { w in
            for i in chunk(w, of: n) { out[i] = proj[Int(order[i])] }
        }
    }
}
