// WarpKernel — the warp's per-pixel work: the forward warp of the source row blocks that can
// land in one band of target rows into it (8 source pixels per SIMD vector, a conditional
// scalar write of the pixel's index, depth and sub-pixel offset per pixel that lands in the band).
import RenderCore
#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// Constants of the warp.
enum WarpKernel {
    /// Points nearer to the target eye than this (metres along its −Z), or behind it, are dropped.
    static let nearestDepth: Float = 1e-4
    /// Lane offsets 0…7.
    static let lanes = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
    /// 2²³: adding it to a whole number in [0, 2²³) leaves the number in the low mantissa bits.
    /// (Kernels copy these into locals: a static `SIMD8` is a lazy global, a `swift_once` call
    /// per use in a loop.)
    static let magic: Float = 8_388_608
    /// Source columns per block: each block of a source row has its own depth range, and so its
    /// own range of target rows; a band skips the blocks that cannot reach it (a multiple of 64,
    /// the depth bit masks' word).
    static let blockColumns = 128

    /// Blocks in a source row `width` pixels wide.
    static func blocks(width: Int) -> Int { (width + blockColumns - 1) / blockColumns }
}

/// One warp's shared inputs, and the work on one band of target rows.
struct BandWork {
    let source: UnsafeMutablePointer<UInt32>
    let sourceDepth: UnsafeMutablePointer<Float>
    let sourceWidth: Int, sourceHeight: Int
    /// Per source row, per block: the target rows it can reach (first > last: none).
    let rowTargets: UnsafeMutablePointer<SIMD2<Int32>>
    /// Per source row: the first and last target row of any of its blocks.
    let rowSpans: UnsafeMutablePointer<SIMD2<Int32>>
    /// Blocks per source row.
    let blocks: Int
    let target: UnsafeMutablePointer<UInt32>
    let targetDepth: UnsafeMutablePointer<Float>
    let width: Int, height: Int
    let mapping: WarpMapping
    let bandRows: Int, bands: Int
    /// Per target row: holes found.
    let holes: UnsafeMutablePointer<Int>
    /// Per target pixel, where its centre falls in the source relative to the winner's centre,
    /// in 1/256 pixel (x in the low 16 bits, y in the high, two's complement; the winner's own
    /// landing point gives it, clamped so that the bilinear read stays inside the source).
    let offsets: UnsafeMutablePointer<UInt32>
    /// One bit per target pixel, 8 pixels a byte: whether the warp reached it (from `resolve`).
    let reached: UnsafeMutablePointer<UInt8>
    /// Bytes of `reached` per target row.
    let groupsPerRow: Int
    /// The target camera's background, packed (for a row no source pixel reached).
    let background: UInt32

    /// Forward-warps every source row block that can land in band `b` into it (runs of such
    /// blocks in one call, in raster order): the band's depth
    /// starts as NaN (a hole), and a source pixel's index and depth are written where its
    /// depth is less than the pixel's (or the pixel is still a hole); then `resolve` turns the
    /// indices into colours, and the holes of the rows that read no other band are filled.
    func scatter(band b: Int) {
        let y0 = b &* bandRows, y1 = min(height, y0 &+ bandRows)
        (targetDepth + y0 &* width).update(repeating: .nan, count: (y1 &- y0) &* width)
        let lo = Int32(truncatingIfNeeded: y1), hi = Int32(truncatingIfNeeded: y0)
        for j in 0..<sourceHeight {
            let span = rowSpans[j]
            guard span.x < lo && span.y >= hi else { continue }
            let targets = rowTargets + j &* blocks
            var block = 0
            while block < blocks {
                let r = targets[block]
                guard r.x < lo && r.y >= hi else { block &+= 1; continue }
                var end = block &+ 1
                while end < blocks && targets[end].x < lo && targets[end].y >= hi { end &+= 1 }
                scatter(row: j, columns: block &* WarpKernel.blockColumns, min(sourceWidth, end &* WarpKernel.blockColumns),
                        from: y0, to: y1)
                block = end
            }
        }
        resolve(band: b)
        fillInterior(band: b)
    }

    @inline(__always)
    private func scatter(row j: Int, columns c0: Int, _ c1: Int, from y0: Int, to y1: Int) {
        let m = mapping
        let base = m.origin + m.perRow * Float(j)
        let bx = SIMD8<Float>(repeating: base.x), by = SIMD8<Float>(repeating: base.y), bw = SIMD8<Float>(repeating: base.z)
        let cx = SIMD8<Float>(repeating: m.perColumn.x), cy = SIMD8<Float>(repeating: m.perColumn.y)
        let cw = SIMD8<Float>(repeating: m.perColumn.z)
        let ox = SIMD8<Float>(repeating: m.offset.x), oy = SIMD8<Float>(repeating: m.offset.y)
        let ow = SIMD8<Float>(repeating: m.offset.z)
        let top = SIMD8<Float>(repeating: Float(y0)), bottom = SIMD8<Float>(repeating: Float(y1))
        let right = SIMD8<Float>(repeating: Float(width)), near = SIMD8<Float>(repeating: 1e-4)   // WarpKernel.nearestDepth
        let magic = SIMD8<Float>(repeating: 8_388_608), magicBits = unsafeBitCast(magic, to: SIMD8<Int32>.self)
        let stride = SIMD8<Int32>(repeating: Int32(truncatingIfNeeded: width))
        let lanes = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7), laneInts = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7)
        let laneWords = SIMD8<UInt32>(0, 1, 2, 3, 4, 5, 6, 7)
        let rowOffset = j &* sourceWidth
        // For the sub-pixel offsets: the source's extent less its last column and row (so that
        // the bilinear read's right and lower neighbours exist), this row, 256ths of a pixel.
        let zero = SIMD8<Float>(repeating: 0), w256 = SIMD8<Float>(repeating: 256)
        let maxX = SIMD8<Float>(repeating: max(0, Float(sourceWidth) - 1 - 1 / 256))
        let maxY = SIMD8<Float>(repeating: max(0, Float(sourceHeight) - 1 - 1 / 256))
        let fj = SIMD8<Float>(repeating: Float(j)), row256 = SIMD8<Int32>(repeating: Int32(truncatingIfNeeded: j &* 256))
        let srcDepth = sourceDepth + rowOffset
        var i0 = c0
        while i0 < c1 {
            var d: SIMD8<Float>
            if i0 &+ 8 <= c1 {
                // The depth's magnitude: its sign marks smooth quads for the resolve.
                d = unsafeBitCast(UnsafeRawPointer(srcDepth + i0).loadUnaligned(as: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: SIMD8<Float>.self)
            } else {
                d = SIMD8(repeating: .nan)
                for k in 0..<(c1 &- i0) { d[k] = abs(srcDepth[i0 &+ k]) }
            }
            let fi = lanes + Float(i0)
            let columns256 = (laneInts &+ Int32(truncatingIfNeeded: i0)) &* 256
            let dx = bx.addingProduct(cx, fi), dy = by.addingProduct(cy, fi), dw = bw.addingProduct(cw, fi)
            let finite = d .< .infinity
            let x = ox.addingProduct(d, dx).replacing(with: dx, where: .!finite)
            let y = oy.addingProduct(d, dy).replacing(with: dy, where: .!finite)
            let w = ow.addingProduct(d, dw).replacing(with: dw, where: .!finite)
            let r = 1 / w
            let tx = x * r, ty = y * r
            let valid = (d .> 0) .& (w .> near) .& (tx .>= 0) .& (tx .< right) .& (ty .>= top) .& (ty .< bottom)
            var bits = Self.laneBits(valid)
            if bits != 0 {
                let key = w.replacing(with: .infinity, where: .!finite)
                let ix = unsafeBitCast(tx.rounded(.down) + magic, to: SIMD8<Int32>.self) &- magicBits
                let iy = unsafeBitCast(ty.rounded(.down) + magic, to: SIMD8<Int32>.self) &- magicBits
                let index = iy &* stride &+ ix
                // Where the target pixel's centre falls in the source, from the winner's centre
                // (texel centres at whole numbers), in 1/256 pixel, rounded, clamped to the
                // source less its last column and row so that the bilinear read's right and
                // lower neighbours exist; a position a float error short of a whole number is
                // that number (else rows of winners flip between two source rows).
                var sx = fi + (tx.rounded(.down) + 0.5 - tx), sy = fj + (ty.rounded(.down) + 0.5 - ty)
                sx.replace(with: zero, where: .!(sx .> zero)); sx.replace(with: maxX, where: sx .> maxX)
                sy.replace(with: zero, where: .!(sy .> zero)); sy.replace(with: maxY, where: sy .> maxY)
                let ox = (unsafeBitCast(sx * w256 + magic, to: SIMD8<Int32>.self) &- magicBits) &- columns256
                let oy = (unsafeBitCast(sy * w256 + magic, to: SIMD8<Int32>.self) &- magicBits) &- row256
                let offset = unsafeBitCast((ox & 0xFFFF) | (oy &<< 16), to: SIMD8<UInt32>.self)
                if bits == 0xFF && BandWork.laneBits(index .== SIMD8(repeating: index[0]) &+ laneInts) == 0xFF {
                    // Eight pixels side by side in one target row (most of a small move's
                    // pixels): one vector depth test, the same writes as the lanes one by one.
                    let t = Int(index[0])
                    let dp = UnsafeMutableRawPointer(targetDepth + t), ip = UnsafeMutableRawPointer(target + t)
                    let old = dp.loadUnaligned(as: SIMD8<Float>.self)
                    let wins = .!(old .<= key)
                    let winners = BandWork.laneBits(wins)
                    let sourceIndex = SIMD8(repeating: UInt32(truncatingIfNeeded: rowOffset &+ i0)) &+ laneWords
                    let op = UnsafeMutableRawPointer(offsets + t)
                    if winners == 0xFF {
                        // All win (the usual case: the pixels are still holes): plain stores. The
                        // index and offset rows are not in cache yet, and reading them stalls.
                        dp.storeBytes(of: key, as: SIMD8<Float>.self)
                        ip.storeBytes(of: sourceIndex, as: SIMD8<UInt32>.self)
                        op.storeBytes(of: offset, as: SIMD8<UInt32>.self)
                    } else if winners != 0 {
                        dp.storeBytes(of: old.replacing(with: key, where: wins), as: SIMD8<Float>.self)
                        ip.storeBytes(of: ip.loadUnaligned(as: SIMD8<UInt32>.self).replacing(with: sourceIndex, where: wins),
                                      as: SIMD8<UInt32>.self)
                        op.storeBytes(of: op.loadUnaligned(as: SIMD8<UInt32>.self).replacing(with: offset, where: wins),
                                      as: SIMD8<UInt32>.self)
                    }
                    i0 &+= 8
                    continue
                }
                // One lane at a time, from a copy of the vectors made once (indexing a vector
                // lane by lane stores the whole vector again for every lane).
                // A lane that loses writes to a sink instead of branching (whether a lane wins
                // is hard to predict where surfaces overlap).
                withUnsafeTemporaryAllocation(of: SIMD8<UInt32>.self, capacity: 4) { lanesOf in
                    let p = lanesOf.baseAddress!
                    p[0] = unsafeBitCast(index, to: SIMD8<UInt32>.self); p[1] = unsafeBitCast(key, to: SIMD8<UInt32>.self); p[2] = offset
                    let words = UnsafeRawPointer(p).assumingMemoryBound(to: UInt32.self)
                    let sink = UnsafeMutableRawPointer(p + 3)
                    let dBase = UnsafeMutableRawPointer(targetDepth), iBase = UnsafeMutableRawPointer(target)
                    let oBase = UnsafeMutableRawPointer(offsets)
                    let first = UInt32(truncatingIfNeeded: rowOffset &+ i0)
                    repeat {
                        let lane = bits.trailingZeroBitCount
                        bits &= bits &- 1
                        let t = Int(Int32(bitPattern: words[lane])), k = Float(bitPattern: words[8 &+ lane])
                        let wins = !(targetDepth[t] <= k)
                        let at = t &<< 2
                        (wins ? dBase + at : sink).storeBytes(of: k, as: Float.self)
                        (wins ? iBase + at : sink).storeBytes(of: first &+ UInt32(truncatingIfNeeded: lane), as: UInt32.self)
                        (wins ? oBase + at : sink).storeBytes(of: words[16 &+ lane], as: UInt32.self)
                    } while bits != 0
                }
            }
            i0 &+= 8
        }
    }

    /// The lanes of `m` as the low 8 bits of an integer.
    @inline(__always)
    static func laneBits(_ m: SIMDMask<SIMD8<Int32>>) -> UInt32 {
        #if arch(x86_64)
        return UInt32(truncatingIfNeeded: _mm256_movemask_ps(unsafeBitCast(m, to: SIMD8<Float>.self)))
        #else
        var b: UInt32 = 0
        for k in 0..<8 where m[k] { b |= 1 << UInt32(k) }
        return b
        #endif
    }
}
