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
    /// ranges (one pass; each 64-pixel word of bits is gathered in registers, stored once);
    /// then its smooth quads marked (`markSmoothQuads`).
    func measure(row j: Int) {
        let p = depth + j &* width, copy = warpDepth + j &* width
        let fb = finiteBits + j &* words, ib = infiniteBits + j &* words
        fb.update(repeating: 0, count: words); ib.update(repeating: 0, count: words)
        let inf = SIMD8<Float>(repeating: .infinity), zero = SIMD8<Float>(repeating: 0)
        // Smooth quads are marked in the same pass where a group's quads lie in the source.
        let below = p + width, markEnd = j &+ 1 < height ? width &- 9 : -1
        let sign = SIMD8<UInt32>(repeating: 0x8000_0000)
        for block in 0..<blocks {
            let c0 = block &* WarpKernel.blockColumns, c1 = min(width, c0 &+ WarpKernel.blockColumns)
            var lo = inf, hi = zero, anyInfinite: UInt64 = 0
            var i = c0
            while i &+ 8 <= c1 {
                // One word: i is a multiple of 8, so at least 8 columns remain before its end.
                let wordEnd = min(c1, (i | 63) &+ 1), word = i &>> 6
                var finiteWord: UInt64 = 0, infiniteWord: UInt64 = 0
                while i &+ 8 <= wordEnd {
                    // Depths not above 0 (none should be: −0, negative, NaN) as 0, which the warp
                    // drops as it drops them: a sign bit marks a smooth quad.
                    let raw = UnsafeRawPointer(p + i).loadUnaligned(as: SIMD8<Float>.self)
                    let d = raw.replacing(with: zero, where: .!(raw .> zero))
                    var bits = unsafeBitCast(d, to: SIMD8<UInt32>.self)
                    if i <= markEnd {
                        // `smooth`, written out (the call is not inlined).
                        let b0 = BandWork.load(p + (i &+ 1)), c0 = BandWork.load(below + i), e0 = BandWork.load(below + (i &+ 1))
                        let b = b0.replacing(with: zero, where: .!(b0 .> zero)), c = c0.replacing(with: zero, where: .!(c0 .> zero))
                        let e = e0.replacing(with: zero, where: .!(e0 .> zero))
                        let ab = b .< d, ce = e .< c
                        let lo1 = d.replacing(with: b, where: ab), hi1 = b.replacing(with: d, where: ab)
                        let lo2 = c.replacing(with: e, where: ce), hi2 = e.replacing(with: c, where: ce)
                        let least = lo1.replacing(with: lo2, where: lo2 .< lo1), greatest = hi1.replacing(with: hi2, where: hi2 .> hi1)
                        bits.replace(with: bits | sign, where: least .>= greatest * 0.98)
                    }
                    UnsafeMutableRawPointer(copy + i).storeBytes(of: bits, as: SIMD8<UInt32>.self)
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
                let d = p[i] > 0 ? p[i] : 0
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
        // The quads the vector pass did not see (its last group and any partial one).
        if j &+ 1 < height {
            var i = max(0, markEnd &+ 8) & ~7
            while i &+ 1 < width {
                func at(_ k: Int) -> Float { p[k] > 0 ? p[k] : 0 }   // (k ≥ width: the row below)
                let a = at(i)
                if Self.smooth(a, at(i &+ 1), at(width &+ i), at(width &+ i &+ 1)) { copy[i] = -a }
                i &+= 1
            }
        }
    }

    /// Whether the quad of depths (a, b in a row, c, e below them) is smooth: every two
    /// within the resolve's 2 % of each other (`BandWork.resolve`'s test, d ≥ 0.98·d′ both
    /// ways), which holds exactly when the least is at least 0.98 times the greatest (float
    /// rounding is monotonic), so a bilinear read of the quad cannot mix surfaces and reads no
    /// depths. `measure` marks such a quad by the sign bit of its upper-left pixel's warp
    /// depth, from the depth as rendered; `dilate` clears the marks of quads whose pixels it
    /// may change. The last row and column have no quads. Readers of the warp's depth take
    /// its magnitude.
    @inline(__always) static func smooth(_ a: Float, _ b: Float, _ c: Float, _ e: Float) -> Bool {
        min(min(a, b), min(c, e)) >= max(max(a, b), max(c, e)) * 0.98
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

    /// Rows `rows` of the warp's depth: a pixel of infinite depth within `reach` pixels (straight
    /// up, down, left or right) of a finite one takes the nearest such depth (the farther of
    /// those at the same distance). Splats write their depth only where accumulated opacity
    /// passes ½, so an object's soft rim has infinite depth and would move like the background
    /// — 3.5 times as far as an object 25 cm behind the screen for a sideways move — smearing
    /// the rim across the gap. The rim moves with its object instead; background pixels that
    /// go with it have the background's colour anyway (the renderers' background is a plain
    /// colour). Bit masks find the few such pixels: a row far from any finite depth costs a
    /// few word operations.
    func dilate(rows: Range<Int>) {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 &* words) { buffer in
            // Per word, the pixels dilation may change in this row and in the one below; the
            // latter are the next row's own, kept for it.
            var here = buffer.baseAddress!, next = here + words
            var carried = -1
            for j in rows {
                let ranges = out + j &* blocks
                var anyInfinite = false
                for block in 0..<blocks where ranges[block].z > 0 { anyInfinite = true; break }
                guard anyInfinite else { continue }
                for w in 0..<words {
                    if carried != j { here[w] = nearBits(w, j) & infiniteBits[j &* words &+ w] }
                    next[w] = j &+ 1 < height ? nearBits(w, j &+ 1) & infiniteBits[(j &+ 1) &* words &+ w] : 0
                }
                for w in 0..<words {
                    // Quads of this row holding such a pixel lose their smooth mark (`smooth`).
                    let after = w &+ 1 < words ? (here[w &+ 1] | next[w &+ 1]) << 63 : 0
                    let any = here[w] | next[w]
                    var touched = any | any >> 1 | after
                    while touched != 0 {
                        let x = w &* 64 &+ touched.trailingZeroBitCount
                        touched &= touched &- 1
                        if x < width { warpDepth[j &* width &+ x] = abs(warpDepth[j &* width &+ x]) }
                    }
                }
                for w in 0..<words { dilate(row: j, word: w, candidates: here[w], ranges: ranges) }
                swap(&here, &next)
                carried = j &+ 1
            }
        }
    }

    /// Gives the infinite pixels `candidates` of word `w` of row `j` the nearest finite depth
    /// within `reach`, where there is one: 8 columns at a time (`nearestFinite` per pixel
    /// within `reach` of the row's ends).
    @inline(__always) private func dilate(row j: Int, word w: Int, candidates: UInt64, ranges: UnsafeMutablePointer<SIMD4<Float>>) {
        var left = candidates
        // Lane k's bit of a group's byte (vector shifts by lane amounts are built lane by lane).
        let laneBit = SIMD8<Int32>(1, 2, 4, 8, 16, 32, 64, 128)
        let zero = SIMD8<Float>(repeating: 0), inf = SIMD8<Float>(repeating: .infinity)
        while left != 0 {
            let g = left.trailingZeroBitCount & ~7, x0 = w &* 64 &+ g
            let lanes = UInt32(truncatingIfNeeded: left >> UInt64(g)) & 0xFF
            left &= ~(0xFF << UInt64(g))
            let row = warpDepth + j &* width
            guard x0 >= Self.reach && x0 &+ 8 &+ Self.reach <= width else {
                var bits = lanes
                while bits != 0 {
                    let x = x0 &+ bits.trailingZeroBitCount
                    bits &= bits &- 1
                    if let d = nearestFinite(x, j) { row[x] = d; widen(ranges + x / WarpKernel.blockColumns, d, d) }
                }
                continue
            }
            // As `nearestFinite`, lane by lane: at each distance the farthest finite depth of
            // the four directions (0 where none), the nearest distance that has one.
            @inline(__always) func finite(_ p: UnsafeMutablePointer<Float>) -> SIMD8<Float> {
                let v = BandWork.load(p); return v.replacing(with: zero, where: .!((v .> zero) .& (v .< inf)))
            }
            @inline(__always) func farther(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> { a.replacing(with: b, where: b .> a) }
            var found = zero
            let at = depth + (j &* width &+ x0)
            for k in 1...Self.reach {
                var m = farther(finite(at - k), finite(at + k))
                if j &- k >= 0 { m = farther(m, finite(at - k &* width)) }
                if j &+ k < height { m = farther(m, finite(at + k &* width)) }
                found.replace(with: m, where: found .== zero)
            }
            let mask = (SIMD8<Int32>(repeating: Int32(lanes)) & laneBit .== laneBit) .& (found .> zero)
            guard BandWork.laneBits(mask) != 0 else { continue }
            UnsafeMutableRawPointer(row + x0).storeBytes(of: BandWork.load(row + x0).replacing(with: found, where: mask), as: SIMD8<Float>.self)
            widen(ranges + x0 / WarpKernel.blockColumns, Self.least(inf.replacing(with: found, where: mask)),
                  Self.greatest(zero.replacing(with: found, where: mask)))
        }
    }

    /// Widens a block's depth range to take in depths `lo`…`hi` (finite).
    @inline(__always) private func widen(_ range: UnsafeMutablePointer<SIMD4<Float>>, _ lo: Float, _ hi: Float) {
        var r = range.pointee
        r.x = min(r.x, lo); r.y = max(r.y, hi); r.w = 1
        range.pointee = r
    }

    /// Word `w` of row `j`'s pixels within `reach` (straight up, down, left or right) of a
    /// finite depth.
    @inline(__always) private func nearBits(_ w: Int, _ j: Int) -> UInt64 {
        let fb = finiteBits + j &* words
        let f = fb[w], prev = w > 0 ? fb[w &- 1] : 0, next = w &+ 1 < words ? fb[w &+ 1] : 0
        var near: UInt64 = 0
        for k in 1...Self.reach {
            let s = UInt64(k)
            near |= f << s | prev >> (64 &- s) | f >> s | next << (64 &- s)
            if j &- k >= 0 { near |= finiteBits[(j &- k) &* words &+ w] }
            if j &+ k < height { near |= finiteBits[(j &+ k) &* words &+ w] }
        }
        return near
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
