// WarpKernel+Depth — `setSource`'s work: the depth the warp uses (the source's, with splat rims
// given their object's depth) and the depth range of each block of a source row.

/// The two stages of `setSource`, row by row: `measure` (every row), then `dilate` (every row,
/// once all are measured: it reads the rows around it).
struct RowDepthWork {
    let depth: UnsafeMutablePointer<Float>
    let width: Int, height: Int
    /// The warp's depth, `width`×`height`.
    let warpDepth: UnsafeMutablePointer<Float>
    /// Per row, per block of `WarpKernel.blockColumns` columns (`blocks` a row): (least and
    /// greatest positive finite depth, has +inf, has a finite depth).
    let out: UnsafeMutablePointer<SIMD4<Float>>
    let blocks: Int
    /// Per row, `words` 64-bit words: bit x set where the depth is finite, resp. +inf.
    let finiteBits: UnsafeMutablePointer<UInt64>, infiniteBits: UnsafeMutablePointer<UInt64>
    let words: Int

    /// How far (pixels) finite depth spreads into infinite depth.
    static let reach = 3

    /// Row `j`: copied to the warp's depth, its finite and infinite pixels as bits, its blocks'
    /// ranges (one pass; each 64-pixel word of bits is gathered in registers, stored once).
    func measure(row j: Int) {
        let p = depth + j &* width, copy = warpDepth + j &* width
        let fb = finiteBits + j &* words, ib = infiniteBits + j &* words
        fb.update(repeating: 0, count: words); ib.update(repeating: 0, count: words)
        let inf = SIMD8<Float>(repeating: .infinity), zero = SIMD8<Float>(repeating: 0)
        for block in 0..<blocks {
            let c0 = block &* WarpKernel.blockColumns, c1 = min(width, c0 &+ WarpKernel.blockColumns)
            var lo = inf, hi = zero, anyInfinite: UInt64 = 0
            var i = c0
            while i &+ 8 <= c1 {
                // One word: i is a multiple of 8, so at least 8 columns remain before its end.
                let wordEnd = min(c1, (i | 63) &+ 1), word = i &>> 6
                var finiteWord: UInt64 = 0, infiniteWord: UInt64 = 0
                while i &+ 8 <= wordEnd {
                    let d = UnsafeRawPointer(p + i).loadUnaligned(as: SIMD8<Float>.self)
                    UnsafeMutableRawPointer(copy + i).storeBytes(of: d, as: SIMD8<Float>.self)
                    let finite = (d .> zero) .& (d .< inf)
                    lo.replace(with: d, where: finite .& (d .< lo))
                    hi.replace(with: d, where: finite .& (d .> hi))
                    finiteWord |= UInt64(BandWork.laneBits(finite)) << UInt64(i & 63)
                    infiniteWord |= UInt64(BandWork.laneBits(d .== inf)) << UInt64(i & 63)
                    i &+= 8
                }
                fb[word] |= finiteWord; ib[word] |= infiniteWord
                anyInfinite |= infiniteWord
            }
            var l = Self.least(lo), h = Self.greatest(hi)
            while i < c1 {
                let d = p[i]
                copy[i] = d
                if d == .infinity {
                    ib[i &>> 6] |= 1 << UInt64(i & 63); anyInfinite = 1
                } else if d > 0 {
                    l = min(l, d); h = max(h, d); fb[i &>> 6] |= 1 << UInt64(i & 63)
                }
                i &+= 1
            }
            out[j &* blocks &+ block] = SIMD4(l, h, anyInfinite != 0 ? 1 : 0, h > 0 ? 1 : 0)
        }
    }

    /// The least lane of `v` (no NaN lanes): inlined, where `SIMD.min()` is a generic call.
    @inline(__always) static func least(_ v: SIMD8<Float>) -> Float {
        let a = v.lowHalf.replacing(with: v.highHalf, where: v.highHalf .< v.lowHalf)
        let b = a.lowHalf.replacing(with: a.highHalf, where: a.highHalf .< a.lowHalf)
        return b[1] < b[0] ? b[1] : b[0]
    }

    /// The greatest lane of `v` (no NaN lanes).
    @inline(__always) static func greatest(_ v: SIMD8<Float>) -> Float {
        let a = v.lowHalf.replacing(with: v.highHalf, where: v.highHalf .> v.lowHalf)
        let b = a.lowHalf.replacing(with: a.highHalf, where: a.highHalf .> a.lowHalf)
        return b[1] > b[0] ? b[1] : b[0]
    }

    /// Row `j` of the warp's depth: a pixel of infinite depth within `reach` pixels (straight
    /// up, down, left or right) of a finite one takes the nearest such depth (the farther of
    /// those at the same distance). Splats write their depth only where accumulated opacity
    /// passes ½, so an object's soft rim has infinite depth and would move like the background
    /// — 3.5 times as far as an object 25 cm behind the screen for a sideways move — smearing
    /// the rim across the gap. The rim moves with its object instead; background pixels that
    /// go with it have the background's colour anyway (the renderers' background is a plain
    /// colour). Bit masks find the few such pixels: a row far from any finite depth costs a
    /// few word operations.
    func dilate(row j: Int) {
        let ranges = out + j &* blocks
        var anyInfinite = false
        for block in 0..<blocks where ranges[block].z > 0 { anyInfinite = true; break }
        guard anyInfinite else { return }
        let fb = finiteBits + j &* words
        for w in 0..<words {
            let f = fb[w], prev = w > 0 ? fb[w &- 1] : 0, next = w &+ 1 < words ? fb[w &+ 1] : 0
            var near: UInt64 = 0
            for k in 1...Self.reach {
                let s = UInt64(k)
                near |= f << s | prev >> (64 &- s) | f >> s | next << (64 &- s)
                if j &- k >= 0 { near |= finiteBits[(j &- k) &* words &+ w] }
                if j &+ k < height { near |= finiteBits[(j &+ k) &* words &+ w] }
            }
            var candidates = near & infiniteBits[j &* words &+ w]
            while candidates != 0 {
                let x = w &* 64 &+ candidates.trailingZeroBitCount
                candidates &= candidates &- 1
                if let d = nearestFinite(x, j) {
                    warpDepth[j &* width &+ x] = d
                    let block = x / WarpKernel.blockColumns
                    var r = ranges[block]
                    r.x = min(r.x, d); r.y = max(r.y, d); r.w = 1
                    ranges[block] = r
                }
            }
        }
    }

    /// The nearest finite source depth straight up, down, left or right of (x, y) within
    /// `reach` (the farthest of those at the nearest distance).
    private func nearestFinite(_ x: Int, _ y: Int) -> Float? {
        for k in 1...Self.reach {
            var best: Float = 0
            func look(_ i: Int, _ j: Int) {
                guard i >= 0 && i < width && j >= 0 && j < height else { return }
                let d = depth[j &* width &+ i]
                if d > best && d < .infinity { best = d }
            }
            look(x, y &- k); look(x, y &+ k); look(x &- k, y); look(x &+ k, y)
            if best > 0 { return best }
        }
        return nil
    }
}
