// LaneMask — the blender's lane mask operations (8 lanes; 16 for the block kernel), compiled
// to single AVX instructions on x86_64 (vmovmskps, vblendvps, vminps, vmaxps) and plain SIMD
// code elsewhere. Masks are
// kept as the sign bits of Float lanes (see below): `SIMDMask` comparisons become LLVM
// `<8 x i1>` vectors that AVX2 legalises through 16-bit lanes, ~10 extra instructions per
// blended vector.
import CSIMD
#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// Eight pixels' worth of Float lanes.
typealias Lanes = SIMD8<Float>
/// A lane mask: −1 (all bits set) where true, 0 where false.
typealias LaneBits = SIMD8<Int32>

/// The mask of a lane-wise comparison as Int32 lanes.
@inline(__always) func laneBits(_ m: SIMDMask<SIMD8<Int32>>) -> LaneBits { unsafeBitCast(m, to: LaneBits.self) }

/// Per-lane minimum (inputs are never NaN here).
@inline(__always) func minLanes(_ a: Lanes, _ b: Lanes) -> Lanes {
    #if arch(x86_64)
    return _mm256_min_ps(a, b)
    #else
    return a.replacing(with: b, where: b .< a)
    #endif
}

/// Per-lane square root (the stdlib's `squareRoot()` on SIMD8 is a per-lane call).
@inline(__always) func sqrtLanes(_ a: Lanes) -> Lanes {
    #if arch(x86_64)
    return _mm256_sqrt_ps(a)
    #else
    return a.squareRoot()
    #endif
}

/// Per-lane maximum (inputs are never NaN here).
@inline(__always) func maxLanes(_ a: Lanes, _ b: Lanes) -> Lanes {
    #if arch(x86_64)
    return _mm256_max_ps(a, b)
    #else
    return a.replacing(with: b, where: b .> a)
    #endif
}

// Sign-bit masks: a Float lane whose sign bit is the truth value. `a < b` is exactly the
// sign of `a − b` for finite or infinite a ≠ b (a difference of unequal floats never rounds
// to zero), and equal inputs give +0, i.e. false — so these are exact comparisons that never
// become LLVM `<8 x i1>` vectors; movemask and blendv read only the sign bits. One caveat:
// −0 − (+0) = −0 reads as "−0 < +0"; the blender never compares a −0 (T, alpha, depths and
// 0 − power are never −0), and NaN inputs are not expected.

/// Sign-bit mask of `a < b` per lane.
@inline(__always) func less(_ a: Lanes, _ b: Lanes) -> Lanes { a - b }

/// Sign-bit `m & n`.
@inline(__always) func both(_ m: Lanes, _ n: Lanes) -> Lanes {
    unsafeBitCast(unsafeBitCast(m, to: LaneBits.self) & unsafeBitCast(n, to: LaneBits.self), to: Lanes.self)
}

/// Sign-bit `m & !n`.
@inline(__always) func butNot(_ m: Lanes, _ n: Lanes) -> Lanes {
    unsafeBitCast(unsafeBitCast(m, to: LaneBits.self) & ~unsafeBitCast(n, to: LaneBits.self), to: Lanes.self)
}

/// True when any lane's sign bit is set.
@inline(__always) func anySign(_ m: Lanes) -> Bool {
    #if arch(x86_64)
    return _mm256_movemask_ps(m) != 0
    #else
    return (unsafeBitCast(m, to: LaneBits.self) .< 0) != SIMDMask(repeating: false)
    #endif
}

/// The sign bits of the 8 lanes as an 8-bit integer (lane 0 in bit 0).
@inline(__always) func signBits(_ m: Lanes) -> Int32 {
    #if arch(x86_64)
    return _mm256_movemask_ps(m)
    #else
    let s = (unsafeBitCast(m, to: LaneBits.self) &>> 31) & LaneBits(1, 2, 4, 8, 16, 32, 64, 128)
    return s.wrappedSum()
    #endif
}

/// The 8-lane mask's lanes as bits (lane 0 in bit 0): a `vmovmskps` (`any` and `all` on a
/// `SIMDMask` reduce lane by lane through general registers: ~20 instructions).
@inline(__always) func maskBits(_ m: SIMDMask<SIMD8<Int32>>) -> Int32 {
    signBits(unsafeBitCast(m, to: Lanes.self))
}

/// A 16-lane mask (`SIMDMask` of Int32 lanes: a k register with AVX-512), as the block kernel uses.
typealias WideMask = SIMDMask<SIMD16<Int32>>

/// The 16-lane mask's lanes as bits (lane 0 in bit 0): one `kmovw` with AVX-512.
@inline(__always) func maskBits(_ m: WideMask) -> UInt32 {
    csimd_sign_bits16(unsafeBitCast(m, to: csimd_i32x16.self))
}

/// The 16-lane mask with lane i set when bit i of `bits` is (lane 0 in bit 0): a `kmovw` with AVX-512.
@inline(__always) func wideMask(bits: UInt32) -> WideMask {
    unsafeBitCast(csimd_mask_from_bits16(bits), to: WideMask.self)
}

/// Per lane: sign of `m` set ? a : b.
@inline(__always) func selectSign(_ m: Lanes, _ a: Lanes, else b: Lanes) -> Lanes {
    #if arch(x86_64)
    return _mm256_blendv_ps(b, a, m)
    #else
    return b.replacing(with: a, where: unsafeBitCast(m, to: LaneBits.self) .< 0)
    #endif
}
