// WarpKernel+Resolve — from "which source pixel won this target pixel" to its colour, sampled
// where the target pixel's centre falls in the source (sub-pixel, bilinear).
import CSIMD
import RenderCore
#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

extension BandWork {
    /// Replaces the source index the scatter left in each reached pixel of band `b` by a
    /// colour, and records which pixels were reached (`reached`). The winner's own position
    /// lands up to half a pixel from the target pixel's centre; the warp is locally a
    /// translation for small moves (its Jacobian is within a few per cent of the identity), so
    /// the centre is seen at the winner's position plus that offset in the source (the
    /// scatter's `offsets`), and the colour is read there bilinearly (8-bit weights, rounded).
    /// Nearest-pixel colours misplace every edge by up to half a pixel: thin lines and rings
    /// then cost ~2 dB at a 1 cm move. Texels across a depth discontinuity count as the
    /// winner's own colour, so that a silhouette's colours are not mixed into the background
    /// (the hole fill would spread the mixture across the disocclusion).
    func resolve(band b: Int) {
        let y0 = b &* bandRows, y1 = min(height, y0 &+ bandRows)
        let sw = sourceWidth, sh = sourceHeight
        let laneInts = SIMD8<Int32>(0, 1, 2, 3, 4, 5, 6, 7)
        let depthBits = UnsafeRawPointer(sourceDepth).assumingMemoryBound(to: UInt32.self)
        let colors = UnsafePointer(source)
        let nearestOnly = sw < 2 || sh < 2
        let stride = SIMD8<Int32>(repeating: Int32(truncatingIfNeeded: sw))
        for y in y0..<y1 {
            let row = y &* width, reachedBits = reached + y &* groupsPerRow
            var x = 0
            while x < width {
                let n = min(8, width &- x)
                var d = SIMD8<Float>(repeating: .nan), idx = SIMD8<Int32>(repeating: 0)
                if n == 8 {
                    d = UnsafeRawPointer(targetDepth + (row &+ x)).loadUnaligned(as: SIMD8<Float>.self)
                    idx = UnsafeRawPointer(target + (row &+ x)).loadUnaligned(as: SIMD8<Int32>.self)
                } else {
                    for k in 0..<n { d[k] = targetDepth[row &+ x &+ k]; idx[k] = Int32(bitPattern: target[row &+ x &+ k]) }
                }
                let reached = d .== d
                let bits = BandWork.laneBits(reached)
                reachedBits[x &>> 3] = UInt8(truncatingIfNeeded: bits)
                if bits == 0 { x &+= 8; continue }
                // Unreached lanes read a reached lane's texels (discarded), keeping the reads together.
                idx.replace(with: SIMD8(repeating: idx[bits.trailingZeroBitCount]), where: .!reached)
                var out: SIMD8<UInt32>
                if nearestOnly {
                    out = Self.gather(colors, idx)
                } else {
                    // The winner's depth, and where the target pixel's centre falls in the
                    // source (the scatter's offsets from the winner, 1/256 pixel).
                    // Source reads are vector loads where the lanes' indices fall in one or two
                    // windows of 8 pixels (lanes 0… and …7: a slanted surface's winners switch
                    // source rows, a silhouette switches surfaces, a stretch repeats a pixel),
                    // shuffled into place and blended; else gathers (slow, on AMD too).
                    let count = sw &* sh
                    let sd: SIMD8<Float>, own: SIMD8<UInt32>
                    if let w = Self.windows(idx, laneInts, extent: 8, count: count) {
                        sd = unsafeBitCast(Self.read(depthBits, 0, w), to: SIMD8<Float>.self)
                        own = Self.read(colors, 0, w)
                    } else {
                        sd = unsafeBitCast(Self.gather(UnsafePointer(depthBits), idx), to: SIMD8<Float>.self)
                        own = Self.gather(colors, idx)
                    }
                    var packed = SIMD8<Int32>(repeating: 0)
                    if n == 8 {
                        packed = UnsafeRawPointer(offsets + (row &+ x)).loadUnaligned(as: SIMD8<Int32>.self)
                    } else {
                        for k in 0..<n { packed[k] = Int32(bitPattern: offsets[row &+ x &+ k]) }
                    }
                    packed.replace(with: SIMD8(repeating: packed[bits.trailingZeroBitCount]), where: .!reached)   // as idx
                    let ox = (packed &<< 16) &>> 16, oy = packed &>> 16
                    let tx = unsafeBitCast(ox & 0xFF, to: SIMD8<UInt32>.self), tyw = unsafeBitCast(oy & 0xFF, to: SIMD8<UInt32>.self)
                    let topIndex = idx &+ (ox &>> 8) &+ (oy &>> 8) &* stride
                    // Centres that all fall on source rows (a sideways move: vertical weights 0)
                    // need no lower taps: the vertical lerp with weight 0 gives the upper one.
                    // Likewise centres on source columns (an up or down move) need no right taps.
                    let zero = SIMD8<UInt32>(repeating: 0)
                    let level = BandWork.laneBits(tyw .== zero) == 0xFF, plumb = !level && BandWork.laneBits(tx .== zero) == 0xFF
                    var c00, c10, c01, c11: SIMD8<UInt32>, d00, d10, d01, d11: SIMD8<Float>
                    if let w = Self.windows(topIndex, laneInts, extent: sw &+ 9, count: count) {
                        c00 = Self.read(colors, 0, w)
                        d00 = unsafeBitCast(Self.read(depthBits, 0, w), to: SIMD8<Float>.self)
                        if plumb {
                            (c10, d10) = (c00, d00)
                        } else {
                            c10 = Self.read(colors, 1, w)
                            d10 = unsafeBitCast(Self.read(depthBits, 1, w), to: SIMD8<Float>.self)
                        }
                        if level {
                            (c01, c11, d01, d11) = (c00, c10, d00, d10)
                        } else {
                            c01 = Self.read(colors, sw, w)
                            d01 = unsafeBitCast(Self.read(depthBits, sw, w), to: SIMD8<Float>.self)
                            if plumb {
                                (c11, d11) = (c01, d01)
                            } else {
                                c11 = Self.read(colors, sw &+ 1, w)
                                d11 = unsafeBitCast(Self.read(depthBits, sw &+ 1, w), to: SIMD8<Float>.self)
                            }
                        }
                    } else {
                        (c00, c10) = Self.gatherPairs(colors, topIndex)
                        (c01, c11) = Self.gatherPairs(colors, topIndex &+ stride)
                        let (a, b) = Self.gatherPairs(UnsafePointer(depthBits), topIndex)
                        let (c, e) = Self.gatherPairs(UnsafePointer(depthBits), topIndex &+ stride)
                        (d00, d10) = (unsafeBitCast(a, to: SIMD8<Float>.self), unsafeBitCast(b, to: SIMD8<Float>.self))
                        (d01, d11) = (unsafeBitCast(c, to: SIMD8<Float>.self), unsafeBitCast(e, to: SIMD8<Float>.self))
                    }
                    // Texels of another surface (depth more than 2 % off the winner's) are read
                    // as the winner's own colour: a silhouette's colours are not mixed across it.
                    let lowest = sd * 0.98
                    func other(_ d: SIMD8<Float>) -> SIMDMask<SIMD8<Int32>> { .!((d .>= lowest) .& (sd .>= d * 0.98)) }
                    c00.replace(with: own, where: other(d00))
                    if plumb {
                        c01.replace(with: own, where: other(d01))
                        out = Self.lerp(c00, c01, tyw)
                    } else if level {
                        c10.replace(with: own, where: other(d10))
                        out = Self.lerp(c00, c10, tx)
                    } else {
                        c10.replace(with: own, where: other(d10))
                        c01.replace(with: own, where: other(d01)); c11.replace(with: own, where: other(d11))
                        out = Self.lerp(Self.lerp(c00, c10, tx), Self.lerp(c01, c11, tx), tyw)
                    }
                }
                if n == 8 {
                    let p = UnsafeMutableRawPointer(target + (row &+ x))
                    let old = p.loadUnaligned(as: SIMD8<UInt32>.self)
                    p.storeBytes(of: old.replacing(with: out, where: reached),
                                 as: SIMD8<UInt32>.self)
                } else {
                    for k in 0..<n where reached[k] { target[row &+ x &+ k] = out[k] }
                }
                x &+= 8
            }
        }
    }

    /// Where 8 lanes' source indices lie: in the window of 8 pixels from `p` (lane 0's index)
    /// where `inP`, else in the one from `q` (lane 7's index less 7); the lanes' places in the
    /// windows; `direct`: each lane at its own place (no shuffle), `two`: the second window
    /// is used.
    struct Windows {
        var p: Int, q: Int, inP: SIMDMask<SIMD8<Int32>>, placeP: SIMD8<Int32>, placeQ: SIMD8<Int32>, direct: Bool, two: Bool
    }

    /// The windows that hold indices `v`, with `extent` pixels from either start inside the
    /// `count`-pixel source (unless all lanes run side by side: then each read is a lane's
    /// own); nil when two windows do not hold them all.
    @inline(__always) static func windows(_ v: SIMD8<Int32>, _ laneInts: SIMD8<Int32>, extent: Int, count: Int) -> Windows? {
        let p = v[0], placeP = v &- SIMD8(repeating: p)
        let sideBySide = placeP .== laneInts
        if laneBits(sideBySide) == 0xFF {
            return Windows(p: Int(p), q: Int(p), inP: sideBySide, placeP: laneInts, placeQ: laneInts, direct: true, two: false)
        }
        let q = v[7] &- 7, placeQ = v &- SIMD8(repeating: q)
        let zero = SIMD8<Int32>(repeating: 0), eight = SIMD8<Int32>(repeating: 8)
        let inP = (placeP .>= zero) .& (placeP .< eight), inQ = (placeQ .>= zero) .& (placeQ .< eight)
        guard laneBits(inP .| inQ) == 0xFF, q >= 0, Int(p) &+ extent <= count, Int(q) &+ extent <= count else { return nil }
        let direct = laneBits(sideBySide .| .!inP) == 0xFF && laneBits((placeQ .== laneInts) .| inP) == 0xFF
        return Windows(p: Int(p), q: Int(q), inP: inP, placeP: placeP, placeQ: placeQ, direct: direct, two: laneBits(inP) != 0xFF)
    }

    /// The 8 lanes' values `base[index + k]`, read through windows `w` of their indices.
    @inline(__always) static func read(_ base: UnsafePointer<UInt32>, _ k: Int, _ w: Windows) -> SIMD8<UInt32> {
        var a = load(base + (w.p &+ k))
        if !w.direct { a = permute(a, w.placeP) }
        guard w.two else { return a }
        var b = load(base + (w.q &+ k))
        if !w.direct { b = permute(b, w.placeQ) }
        return a.replacing(with: b, where: .!w.inP)
    }

    /// Lane `places[k]` of `v` in lane k (places 0…7; vpermd).
    @inline(__always) static func permute(_ v: SIMD8<UInt32>, _ places: SIMD8<Int32>) -> SIMD8<UInt32> {
        #if arch(x86_64)
        return unsafeBitCast(_mm256_permutevar8x32_epi32(unsafeBitCast(v, to: __m256i.self), unsafeBitCast(places, to: __m256i.self)),
                             to: SIMD8<UInt32>.self)
        #else
        var r = SIMD8<UInt32>(); for k in 0..<8 { r[k] = v[Int(places[k] & 7)] }; return r
        #endif
    }

    @inline(__always) static func load<T: SIMDScalar>(_ p: UnsafePointer<T>) -> SIMD8<T> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<T>.self)
    }

    @inline(__always) static func load<T: SIMDScalar>(_ p: UnsafeMutablePointer<T>) -> SIMD8<T> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<T>.self)
    }

    /// (1 − t/256)·p + t/256·q per 8-bit channel of packed RGBA, rounded (t in 0…256).
    @inline(__always) static func lerp(_ p: SIMD8<UInt32>, _ q: SIMD8<UInt32>, _ t: SIMD8<UInt32>) -> SIMD8<UInt32> {
        let s = 256 &- t
        let rb = ((p & 0x00FF_00FF) &* s &+ (q & 0x00FF_00FF) &* t &+ 0x0080_0080) &>> 8 & 0x00FF_00FF
        let ga = ((p &>> 8) & 0x00FF_00FF) &* s &+ ((q &>> 8) & 0x00FF_00FF) &* t &+ 0x0080_0080
        return rb | (ga & 0xFF00_FF00)
    }

    /// Eight 32-bit loads `base[idx[k]]`.
    @inline(__always) static func gather(_ base: UnsafePointer<UInt32>, _ idx: SIMD8<Int32>) -> SIMD8<UInt32> {
        #if arch(x86_64)
        return unsafeBitCast(csimd_gather_u32(base, unsafeBitCast(idx, to: __m256i.self)), to: SIMD8<UInt32>.self)
        #else
        var r = SIMD8<UInt32>(); for k in 0..<8 { r[k] = base[Int(idx[k])] }; return r
        #endif
    }

    /// For eight indices, the texels and their right-hand neighbours.
    @inline(__always) static func gatherPairs(_ base: UnsafePointer<UInt32>, _ idx: SIMD8<Int32>) -> (SIMD8<UInt32>, SIMD8<UInt32>) {
        #if arch(x86_64)
        let a = unsafeBitCast(csimd_gather_pairs_u32(base, unsafeBitCast(idx.lowHalf, to: __m128i.self)), to: SIMD8<UInt32>.self)
        let b = unsafeBitCast(csimd_gather_pairs_u32(base, unsafeBitCast(idx.highHalf, to: __m128i.self)), to: SIMD8<UInt32>.self)
        return (SIMD8(lowHalf: a.evenHalf, highHalf: b.evenHalf), SIMD8(lowHalf: a.oddHalf, highHalf: b.oddHalf))
        #else
        return (gather(base, idx), gather(base, idx &+ 1))
        #endif
    }
}
