// CSIMD — x86 intrinsics Swift cannot call directly (function-like macros such as gathers
// and shuffles with immediates), and a portable prefetch.
// Header-only `static inline` functions: Swift's Clang importer compiles them into the caller,
// where LLVM inlines them. The gathers exist only when the target CPU has AVX2 (see Package.swift).
#ifndef CSIMD_H
#define CSIMD_H
#if defined(__x86_64__) && defined(__AVX2__)
#include <immintrin.h>
/// Eight 32-bit loads base[idx[i]] (vpgatherdd).
static inline __m256i csimd_gather_u32(const unsigned int *base, __m256i idx) {
    return _mm256_i32gather_epi32((const int *)base, idx, 4);
}
/// Four 64-bit loads at base + idx[i] 32-bit units (vpgatherdq): a texel and its right neighbour.
static inline __m256i csimd_gather_pairs_u32(const unsigned int *base, __m128i idx) {
    return _mm256_i32gather_epi64((const long long *)base, idx, 4);
}
/// Eight 48-byte splat records from field-major vectors: `f` holds 14 vectors of 8 floats —
/// ten float fields, then the pixel rectangle x0, y0, x1, y1 as whole numbers in
/// [0, 32767] — and record l (at out + 48·l) is the ten fields of lane l followed by its
/// rectangle as four int16. An 8×8 and an 8×4 transpose (unpack, shuffle, lane swap).
static inline void csimd_store_records(const float *f, void *out) {
    __m256 t0 = _mm256_unpacklo_ps(_mm256_loadu_ps(f), _mm256_loadu_ps(f + 8));
    __m256 t1 = _mm256_unpackhi_ps(_mm256_loadu_ps(f), _mm256_loadu_ps(f + 8));
    __m256 t2 = _mm256_unpacklo_ps(_mm256_loadu_ps(f + 16), _mm256_loadu_ps(f + 24));
    __m256 t3 = _mm256_unpackhi_ps(_mm256_loadu_ps(f + 16), _mm256_loadu_ps(f + 24));
    __m256 t4 = _mm256_unpacklo_ps(_mm256_loadu_ps(f + 32), _mm256_loadu_ps(f + 40));
    __m256 t5 = _mm256_unpackhi_ps(_mm256_loadu_ps(f + 32), _mm256_loadu_ps(f + 40));
    __m256 t6 = _mm256_unpacklo_ps(_mm256_loadu_ps(f + 48), _mm256_loadu_ps(f + 56));
    __m256 t7 = _mm256_unpackhi_ps(_mm256_loadu_ps(f + 48), _mm256_loadu_ps(f + 56));
    __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    __m256 s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    __m256 s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    __m256 s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    // The rectangle packed as (x0 | y0 << 16, x1 | y1 << 16): the records' last 8 bytes.
    __m256i x0 = _mm256_cvttps_epi32(_mm256_loadu_ps(f + 80)), y0 = _mm256_cvttps_epi32(_mm256_loadu_ps(f + 88));
    __m256i x1 = _mm256_cvttps_epi32(_mm256_loadu_ps(f + 96)), y1 = _mm256_cvttps_epi32(_mm256_loadu_ps(f + 104));
    __m256 lo = _mm256_castsi256_ps(_mm256_or_si256(x0, _mm256_slli_epi32(y0, 16)));
    __m256 hi = _mm256_castsi256_ps(_mm256_or_si256(x1, _mm256_slli_epi32(y1, 16)));
    __m256 u0 = _mm256_unpacklo_ps(_mm256_loadu_ps(f + 64), _mm256_loadu_ps(f + 72));
    __m256 u1 = _mm256_unpackhi_ps(_mm256_loadu_ps(f + 64), _mm256_loadu_ps(f + 72));
    __m256 u2 = _mm256_unpacklo_ps(lo, hi), u3 = _mm256_unpackhi_ps(lo, hi);
    __m256 q0 = _mm256_shuffle_ps(u0, u2, 0x44), q1 = _mm256_shuffle_ps(u0, u2, 0xEE);
    __m256 q2 = _mm256_shuffle_ps(u1, u3, 0x44), q3 = _mm256_shuffle_ps(u1, u3, 0xEE);
    float *o = (float *)out;
    _mm256_storeu_ps(o + 0, _mm256_permute2f128_ps(s0, s4, 0x20)); _mm_storeu_ps(o + 8, _mm256_castps256_ps128(q0));
    _mm256_storeu_ps(o + 12, _mm256_permute2f128_ps(s1, s5, 0x20)); _mm_storeu_ps(o + 20, _mm256_castps256_ps128(q1));
    _mm256_storeu_ps(o + 24, _mm256_permute2f128_ps(s2, s6, 0x20)); _mm_storeu_ps(o + 32, _mm256_castps256_ps128(q2));
    _mm256_storeu_ps(o + 36, _mm256_permute2f128_ps(s3, s7, 0x20)); _mm_storeu_ps(o + 44, _mm256_castps256_ps128(q3));
    _mm256_storeu_ps(o + 48, _mm256_permute2f128_ps(s0, s4, 0x31)); _mm_storeu_ps(o + 56, _mm256_extractf128_ps(q0, 1));
    _mm256_storeu_ps(o + 60, _mm256_permute2f128_ps(s1, s5, 0x31)); _mm_storeu_ps(o + 68, _mm256_extractf128_ps(q1, 1));
    _mm256_storeu_ps(o + 72, _mm256_permute2f128_ps(s2, s6, 0x31)); _mm_storeu_ps(o + 80, _mm256_extractf128_ps(q2, 1));
    _mm256_storeu_ps(o + 84, _mm256_permute2f128_ps(s3, s7, 0x31)); _mm_storeu_ps(o + 92, _mm256_extractf128_ps(q3, 1));
}
/// Eight tile rectangles (4 × uint16 each, at out + 8·l) from the pixel rectangle vectors
/// x0, y0, x1, y1 at `f` (whole numbers in [0, 32767]), each shifted right by `shift`.
static inline void csimd_store_tile_rects(const float *f, int shift, void *out) {
    __m128i n = _mm_cvtsi32_si128(shift);
    __m256i x0 = _mm256_srl_epi32(_mm256_cvttps_epi32(_mm256_loadu_ps(f)), n);
    __m256i y0 = _mm256_srl_epi32(_mm256_cvttps_epi32(_mm256_loadu_ps(f + 8)), n);
    __m256i x1 = _mm256_srl_epi32(_mm256_cvttps_epi32(_mm256_loadu_ps(f + 16)), n);
    __m256i y1 = _mm256_srl_epi32(_mm256_cvttps_epi32(_mm256_loadu_ps(f + 24)), n);
    __m256i lo = _mm256_or_si256(x0, _mm256_slli_epi32(y0, 16)), hi = _mm256_or_si256(x1, _mm256_slli_epi32(y1, 16));
    __m256i a = _mm256_unpacklo_epi32(lo, hi), b = _mm256_unpackhi_epi32(lo, hi);  // lanes 0,1,4,5 | 2,3,6,7
    _mm256_storeu_si256((__m256i *)out, _mm256_permute2x128_si256(a, b, 0x20));
    _mm256_storeu_si256((__m256i *)out + 1, _mm256_permute2x128_si256(a, b, 0x31));
}
#define CSIMD_HAS_AVX2 1
#endif
/// 1 when the target CPU has AVX-512 (F, VL, BW, DQ), else 0: the splat blender then takes
/// its block kernel (`BlendKernel.native`). Swift reads this as a compile-time constant.
#if defined(__x86_64__) && defined(__AVX512F__) && defined(__AVX512VL__) && defined(__AVX512BW__) && defined(__AVX512DQ__)
#define CSIMD_HAS_AVX512 1
#else
#define CSIMD_HAS_AVX512 0
#endif
/// 16 Int32 lanes (Swift: `SIMD16<Int32>`), e.g. a `SIMDMask<SIMD16<Int32>>`'s storage.
typedef int csimd_i32x16 __attribute__((vector_size(64)));
/// The sign bits of 16 lanes as an integer (lane 0 in bit 0). With AVX-512 one `vpmovd2m`,
/// which LLVM folds away after a comparison (the comparison's mask register is the answer);
/// elsewhere a plain loop.
static inline unsigned csimd_sign_bits16(csimd_i32x16 v) {
#if CSIMD_HAS_AVX512
    return (unsigned)_mm512_movepi32_mask((__m512i)v);
#else
    unsigned bits = 0;
    for (int i = 0; i < 16; i++) bits |= (unsigned)(v[i] < 0) << i;
    return bits;
#endif
}
/// The 16-lane mask whose lane i is set when bit i of `bits` is (lanes all ones or zero). With
/// AVX-512 one `vpmovm2d`, which LLVM folds away when the mask feeds a masked operation.
static inline csimd_i32x16 csimd_mask_from_bits16(unsigned bits) {
#if CSIMD_HAS_AVX512
    return (csimd_i32x16)_mm512_movm_epi32((__mmask16)bits);
#else
    csimd_i32x16 v;
    for (int i = 0; i < 16; i++) v[i] = -(int)((bits >> i) & 1u);
    return v;
#endif
}
/// 16 Float lanes (Swift: `SIMD16<Float>`).
typedef float csimd_f32x16 __attribute__((vector_size(64)));
/// Stores the lanes of `v` whose `mask` lane is set (all ones) to p[0…15]; the others keep their
/// memory. With AVX-512 one masked `vmovups` (the mask straight from a comparison's k register).
static inline void csimd_store_where16(float *p, csimd_i32x16 mask, csimd_f32x16 v) {
#if CSIMD_HAS_AVX512
    _mm512_mask_storeu_ps(p, _mm512_movepi32_mask((__m512i)mask), (__m512)v);
#else
    for (int i = 0; i < 16; i++) if (mask[i] < 0) p[i] = v[i];
#endif
}
/// `v` unchanged, but opaque to the optimiser: it cannot specialise code on the lanes' values
/// (e.g. rebuild a vector of four repeated columns from a 4-lane one with extra shuffles).
static inline csimd_f32x16 csimd_opaque16(csimd_f32x16 v) {
#if defined(__x86_64__) && CSIMD_HAS_AVX512
    __asm__("" : "+v"(v));
#elif defined(__GNUC__)
    __asm__("" : "+m"(v));
#endif
    return v;
}
/// *p in all 16 lanes: one `vbroadcastss` load with AVX-512, which the optimiser cannot merge
/// with its neighbours' loads into a wider load and shuffles.
static inline csimd_f32x16 csimd_broadcast16(const float *p) {
    csimd_f32x16 v;
#if defined(__x86_64__) && CSIMD_HAS_AVX512
    __asm__("vbroadcastss %1, %0" : "=v"(v) : "m"(*p));
#else
    for (int i = 0; i < 16; i++) v[i] = *p;
#endif
    return v;
}
/// 2^x per lane for x ≤ 0, the blender's exp: x is clamped at `floor`, n = x rounded to
/// nearest (ties to even), f = x − n, and 2^f ≈ ((c3·f + c2)·f + c1)·f + c0 by fused
/// multiply-adds, scaled by 2^n. With AVX-512 one `vrndscaleps` and one `vscalefps` do the
/// rounding and the scaling; elsewhere per lane `rintf` and `ldexpf` — the same numbers.
static inline csimd_f32x16 csimd_exp2_16(csimd_f32x16 x, float floor, float c0, float c1, float c2, float c3) {
#if CSIMD_HAS_AVX512
    __m512 t = _mm512_max_ps((__m512)x, _mm512_set1_ps(floor));
    __m512 n = _mm512_roundscale_ps(t, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512 f = _mm512_sub_ps(t, n);
    __m512 p = _mm512_fmadd_ps(_mm512_set1_ps(c3), f, _mm512_set1_ps(c2));
    p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(c1));
    p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(c0));
    return (csimd_f32x16)_mm512_scalef_ps(p, n);
#else
    csimd_f32x16 r;
    for (int i = 0; i < 16; i++) {
        float t = x[i] < floor ? floor : x[i];
        float n = __builtin_rintf(t), f = t - n;
        float p = __builtin_fmaf(__builtin_fmaf(__builtin_fmaf(c3, f, c2), f, c1), f, c0);
        r[i] = __builtin_ldexpf(p, (int)n);
    }
    return r;
#endif
}
/// Writes to `out`, in order, every `values[i]` (i < n) whose `masks[i]` has bit `bit` set, and
/// returns how many. `n` is a multiple of 16; `out` has room for n + 16 (whole vectors are
/// stored). With AVX-512 a test and a compress per 16 entries; elsewhere branch-free scalar.
static inline int csimd_select_bit(const unsigned *masks, const unsigned *values, int n, int bit, unsigned *out) {
    int count = 0;
#if CSIMD_HAS_AVX512
    __m512i b = _mm512_set1_epi32((int)(1u << bit));
    for (int i = 0; i < n; i += 16) {
        __mmask16 k = _mm512_test_epi32_mask(_mm512_loadu_si512(masks + i), b);
        _mm512_storeu_si512(out + count, _mm512_maskz_compress_epi32(k, _mm512_loadu_si512(values + i)));
        count += __builtin_popcount((unsigned)k);
    }
#else
    for (int i = 0; i < n; i++) {
        out[count] = values[i];
        count += (int)((masks[i] >> bit) & 1u);
    }
#endif
    return count;
}
/// Asks the cache for the line holding `p` ahead of a read (prefetcht0 on x86; any CPU).
static inline void csimd_prefetch(const void *p) { __builtin_prefetch(p, 0, 3); }
#endif
