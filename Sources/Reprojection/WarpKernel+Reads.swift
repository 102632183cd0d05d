// WarpKernel+Reads — how the resolve reads 8 lanes' source texels: vector loads where the
// lanes' indices fall in one or two windows of 8 pixels (shuffled into place, blended),
// gathers otherwise; and the 8-bit lerp of packed RGBA.
import CSIMD
#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

extension BandWork {
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
