// CSIMD — x86 intrinsics Swift cannot call directly (function-like macros such as gathers
// and shuffles with immediates), a portable prefetch, and what the CPU can do (cpuid).
// The intrinsics are header-only `static inline` functions: Swift's Clang importer compiles them into the caller,
// where LLVM inlines them. The gathers exist only when the target CPU has AVX2 (see Package.swift).
#ifndef CSIMD_H
#define CSIMD_H
/// 1 when the CPU this runs on has AVX2, FMA, BMI1/2, F16C and MOVBE and the OS saves the
/// ymm registers (x86-64-v3), else 0 (always 0 off x86-64). From cpuid; CSIMD.c.
int csimd_cpu_has_x86_64_v3(void);
/// 1 when it also has AVX-512 F, CD, VL, BW and DQ and the OS saves the zmm and mask registers.
int csimd_cpu_has_avx512(void);
/// The CPU's brand string (cpuid 0x80000002–4), NUL-terminated; empty when there is none.
void csimd_cpu_brand(char out[49]);
/// The CPU's display family and model (cpuid leaf 1, extended fields folded in).
void csimd_cpu_signature(int *family, int *model);
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
/// rectangle as four int16. An 8×8 and an 8×4 transpose (unpack, shuffle, lane swap); with
/// `stream`, non-temporal stores (see `csimd_stream_records`).
static inline void csimd_write_records(const float *f, void *out, int stream) {
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
    // Records l at o + 12·l: 8 floats from the 8×8 transpose, then 4 from the 8×4 one.
    __m256 wide[8] = {_mm256_permute2f128_ps(s0, s4, 0x20), _mm256_permute2f128_ps(s1, s5, 0x20),
                      _mm256_permute2f128_ps(s2, s6, 0x20), _mm256_permute2f128_ps(s3, s7, 0x20),
                      _mm256_permute2f128_ps(s0, s4, 0x31), _mm256_permute2f128_ps(s1, s5, 0x31),
                      _mm256_permute2f128_ps(s2, s6, 0x31), _mm256_permute2f128_ps(s3, s7, 0x31)};
    __m128 tail[8] = {_mm256_castps256_ps128(q0), _mm256_castps256_ps128(q1), _mm256_castps256_ps128(q2),
                      _mm256_castps256_ps128(q3), _mm256_extractf128_ps(q0, 1), _mm256_extractf128_ps(q1, 1),
                      _mm256_extractf128_ps(q2, 1), _mm256_extractf128_ps(q3, 1)};
    for (int l = 0; l < 8; l++) {
        float *r = o + 12 * l;
        if (stream) {
            _mm_stream_ps(r, _mm256_castps256_ps128(wide[l]));
            _mm_stream_ps(r + 4, _mm256_extractf128_ps(wide[l], 1));
            _mm_stream_ps(r + 8, tail[l]);
        } else {
            _mm256_storeu_ps(r, wide[l]);
            _mm_storeu_ps(r + 8, tail[l]);
        }
    }
}
/// `csimd_write_records` with ordinary stores.
static inline void csimd_store_records(const float *f, void *out) { csimd_write_records(f, out, 0); }
/// `csimd_write_records` with non-temporal stores (`out` 16-byte aligned): the records go to
/// memory without first reading their lines in; `csimd_store_fence` before others read them.
static inline void csimd_stream_records(const float *f, void *out) { csimd_write_records(f, out, 1); }
/// One 48-byte record copied with non-temporal stores (both 16-byte aligned).
static inline void csimd_stream_record(void *dst, const void *src) {
    const float *s = (const float *)src;
    float *d = (float *)dst;
    _mm_stream_ps(d, _mm_loadu_ps(s));
    _mm_stream_ps(d + 4, _mm_loadu_ps(s + 4));
    _mm_stream_ps(d + 8, _mm_loadu_ps(s + 8));
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
/// Sub-bins up to 16 of a tile's sorted pairs for the block blend kernel (`BlockChunk`). Pair i
/// (i < count) holds a record slot in its high 32 bits; the record at records + slot·stride
/// holds the splat's inclusive pixel rectangle at `rect`: x0, y0, x1, y1 as int16 in
/// [0, 32767]. For the 16×16 tile at pixel (tx, ty), which every rectangle overlaps, with c0…c1
/// and r0…r1 its columns and rows clamped to the tile (0…15), entry i gets:
///   slots[i] = slot; cols[i] = bits c0…c1; rows[i] = nibbles r0…r1 (all four bits each);
///   masks[i] = the blocks (bit 4·by + bx, 4×4 pixels each) it touches, and-ed with `live`.
/// All 16 entries are written; entries from `count` on get mask 0 and values of no meaning.
static inline void csimd_subbin16(const unsigned long long *pairs, int count, const char *records, int stride,
                                  int rect, int tx, int ty, unsigned live, unsigned *slots, unsigned *masks,
                                  unsigned *cols, unsigned long long *rows) {
#if CSIMD_HAS_AVX512
    __mmask16 valid = (__mmask16)(count >= 16 ? 0xFFFF : (1u << count) - 1);
    __mmask8 lo = (__mmask8)valid, hi = (__mmask8)(valid >> 8);
    __m512i pl = _mm512_maskz_loadu_epi64(lo, pairs), ph = _mm512_maskz_loadu_epi64(hi, pairs + 8);
    __m512i stride64 = _mm512_set1_epi64(stride);
    __m512i ol = _mm512_mullo_epi64(_mm512_srli_epi64(pl, 32), stride64);
    __m512i oh = _mm512_mullo_epi64(_mm512_srli_epi64(ph, 32), stride64);
    __m512i rl = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), lo, ol, records + rect, 1);
    __m512i rh = _mm512_mask_i64gather_epi64(_mm512_setzero_si512(), hi, oh, records + rect, 1);
    __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    __m512i odd = _mm512_add_epi32(even, _mm512_set1_epi32(1));
    __m512i slot = _mm512_permutex2var_epi32(pl, odd, ph);
    __m512i xy0 = _mm512_permutex2var_epi32(rl, even, rh), xy1 = _mm512_permutex2var_epi32(rl, odd, rh);
    __m512i low16 = _mm512_set1_epi32(0xFFFF), zero = _mm512_setzero_si512(), fifteen = _mm512_set1_epi32(15);
    __m512i vtx = _mm512_set1_epi32(tx), vty = _mm512_set1_epi32(ty);
    __m512i c0 = _mm512_max_epi32(_mm512_sub_epi32(_mm512_and_si512(xy0, low16), vtx), zero);
    __m512i r0 = _mm512_max_epi32(_mm512_sub_epi32(_mm512_srli_epi32(xy0, 16), vty), zero);
    __m512i c1 = _mm512_min_epi32(_mm512_sub_epi32(_mm512_and_si512(xy1, low16), vtx), fifteen);
    __m512i r1 = _mm512_min_epi32(_mm512_sub_epi32(_mm512_srli_epi32(xy1, 16), vty), fifteen);
    __m512i colBits = _mm512_and_si512(_mm512_sllv_epi32(low16, c0), _mm512_srlv_epi32(low16, _mm512_sub_epi32(fifteen, c1)));
    // Blocks bx0…bx1 × by0…by1: the columns' 4 bits times a 1 in each of the rows' nibbles.
    __m512i columns = _mm512_sub_epi32(_mm512_sllv_epi32(_mm512_set1_epi32(2), _mm512_srli_epi32(c1, 2)),
                                       _mm512_sllv_epi32(_mm512_set1_epi32(1), _mm512_srli_epi32(c0, 2)));
    __m512i by0x4 = _mm512_slli_epi32(_mm512_srli_epi32(r0, 2), 2), by1x4 = _mm512_slli_epi32(_mm512_srli_epi32(r1, 2), 2);
    __m512i rowNibbles = _mm512_and_si512(_mm512_srlv_epi32(_mm512_set1_epi32(0x1111), _mm512_sub_epi32(_mm512_set1_epi32(12), by1x4)),
                                          _mm512_sllv_epi32(low16, by0x4));
    __m512i mask = _mm512_maskz_and_epi32(valid, _mm512_mullo_epi32(columns, rowNibbles), _mm512_set1_epi32((int)live));
    _mm512_storeu_si512(slots, slot);
    _mm512_storeu_si512(masks, mask);
    _mm512_storeu_si512(cols, colBits);
    // Row nibbles r0…r1 as 64-bit masks, eight lanes at a time.
    __m512i ones = _mm512_set1_epi64(-1), sixty = _mm512_set1_epi64(60);
    for (int half = 0; half < 2; half++) {
        __m256i a = half ? _mm512_extracti64x4_epi64(r0, 1) : _mm512_castsi512_si256(r0);
        __m256i b = half ? _mm512_extracti64x4_epi64(r1, 1) : _mm512_castsi512_si256(r1);
        __m512i a4 = _mm512_slli_epi64(_mm512_cvtepi32_epi64(a), 2), b4 = _mm512_slli_epi64(_mm512_cvtepi32_epi64(b), 2);
        __m512i bits = _mm512_and_si512(_mm512_sllv_epi64(ones, a4), _mm512_srlv_epi64(ones, _mm512_sub_epi64(sixty, b4)));
        _mm512_storeu_si512(rows + 8 * half, bits);
    }
#else
    for (int i = 0; i < 16; i++) {
        if (i >= count) { masks[i] = 0; slots[i] = 0; cols[i] = 0; rows[i] = 0; continue; }
        unsigned slot = (unsigned)(pairs[i] >> 32);
        const short *r = (const short *)(records + (long)slot * stride + rect);
        int c0 = r[0] - tx, r0 = r[1] - ty, c1 = r[2] - tx, r1 = r[3] - ty;
        c0 = c0 < 0 ? 0 : c0; r0 = r0 < 0 ? 0 : r0; c1 = c1 > 15 ? 15 : c1; r1 = r1 > 15 ? 15 : r1;
        unsigned columns = (2u << (c1 >> 2)) - (1u << (c0 >> 2));
        unsigned rowNibbles = (0x1111u >> (12 - 4 * (r1 >> 2))) & (0xFFFFu << (4 * (r0 >> 2)));
        slots[i] = slot;
        masks[i] = columns * rowNibbles & live;
        cols[i] = (0xFFFFu << c0) & (0xFFFFu >> (15 - c1));
        rows[i] = (~0ull << (4 * r0)) & (~0ull >> (60 - 4 * r1));
    }
#endif
}
/// Writes to `out`, in order, every index i < n whose `masks[i]` has bit `bit` set, and returns
/// how many. `n` is a multiple of 16; `out` has room for n + 16 (whole vectors are stored).
/// With AVX-512 a test and a compress per 16 entries; elsewhere branch-free scalar.
static inline int csimd_select_bit(const unsigned *masks, int n, int bit, unsigned *out) {
    int count = 0;
#if CSIMD_HAS_AVX512
    __m512i b = _mm512_set1_epi32((int)(1u << bit));
    __m512i index = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    for (int i = 0; i < n; i += 16) {
        __mmask16 k = _mm512_test_epi32_mask(_mm512_loadu_si512(masks + i), b);
        _mm512_storeu_si512(out + count, _mm512_maskz_compress_epi32(k, index));
        count += __builtin_popcount((unsigned)k);
        index = _mm512_add_epi32(index, _mm512_set1_epi32(16));
    }
#else
    for (int i = 0; i < n; i++) {
        out[count] = (unsigned)i;
        count += (int)((masks[i] >> bit) & 1u);
    }
#endif
    return count;
}
/// Orders earlier non-temporal stores before later stores (sfence on x86; a full fence
/// elsewhere): after them, before the stage's end is published to other threads.
static inline void csimd_store_fence(void) {
#if defined(__x86_64__)
    __builtin_ia32_sfence();
#else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}
/// The rows of a 16-row tile (two bits per row: row r at bits 2r and 2r + 1) where `live`, one
/// 16-bit mask of live columns per row, has a pixel in columns `cols`. The 8-lane blender
/// walks only these rows of a splat's rectangle.
static inline unsigned csimd_rows_with_live16(const unsigned short *live, unsigned cols) {
#if defined(__x86_64__) && defined(__AVX2__)
    __m256i v = _mm256_loadu_si256((const __m256i *)live);
    __m256i none = _mm256_cmpeq_epi16(_mm256_and_si256(v, _mm256_set1_epi16((short)cols)), _mm256_setzero_si256());
    return ~(unsigned)_mm256_movemask_epi8(none);
#else
    unsigned m = 0;
    for (int r = 0; r < 16; r++) if (live[r] & cols) m |= 3u << (2 * r);
    return m;
#endif
}

/// Asks the cache for the line holding `p` ahead of a read (prefetcht0 on x86; any CPU).
static inline void csimd_prefetch(const void *p) { __builtin_prefetch(p, 0, 3); }
/// Asks for the line holding `p` ahead of a write (prefetchw where the CPU has it).
static inline void csimd_prefetch_write(const void *p) { __builtin_prefetch(p, 1, 3); }
#endif
