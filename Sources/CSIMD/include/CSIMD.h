// CSIMD — x86 intrinsics Swift cannot call directly (function-like macros such as gathers),
// and a portable prefetch.
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
#define CSIMD_HAS_AVX2 1
#endif
/// Asks the cache for the line holding `p` ahead of a read (prefetcht0 on x86; any CPU).
static inline void csimd_prefetch(const void *p) { __builtin_prefetch(p, 0, 3); }
#endif
