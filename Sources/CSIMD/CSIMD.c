// CSIMD's compiled part: what the CPU this runs on can do (cpuid), for the renderers' run-time
// kernel choice, and a start-up check that it can run the build at all. This file is compiled
// for baseline x86-64 whatever the build's target CPU, so it runs before anything else can
// fault on an instruction the CPU lacks. (The intrinsics are header-only: include/CSIMD.h.)
#include "CSIMD.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>

/// The OS-enabled register state (XCR0); only valid when cpuid says OSXSAVE.
static unsigned long long xcr0(void) {
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((unsigned long long)hi << 32) | lo;
}

/// Leaf 1 ecx and leaf 7 ebx (0 when the leaf is missing), and whether the OS saves the AVX
/// (ymm) and AVX-512 (opmask, zmm) registers.
static void features(unsigned *ecx1, unsigned *ebx7, int *osAVX, int *osAVX512) {
    unsigned a = 0, b = 0, c = 0, d = 0;
    *ecx1 = __get_cpuid(1, &a, &b, &c, &d) ? c : 0;
    *ebx7 = __get_cpuid_count(7, 0, &a, &b, &c, &d) ? b : 0;
    unsigned long long x = (*ecx1 & (1u << 27)) ? xcr0() : 0;  // OSXSAVE
    *osAVX = (x & 0x6) == 0x6;                                  // SSE, AVX state
    *osAVX512 = (x & 0xE6) == 0xE6;                             // + opmask, ZMM_Hi256, Hi16_ZMM
}

int csimd_cpu_has_x86_64_v3(void) {
    unsigned ecx1, ebx7;
    int osAVX, osAVX512;
    features(&ecx1, &ebx7, &osAVX, &osAVX512);
    unsigned need1 = (1u << 12) | (1u << 22) | (1u << 28) | (1u << 29);  // FMA, MOVBE, AVX, F16C
    unsigned need7 = (1u << 3) | (1u << 5) | (1u << 8);                 // BMI1, AVX2, BMI2
    return osAVX && (ecx1 & need1) == need1 && (ebx7 & need7) == need7;
}

int csimd_cpu_has_avx512(void) {
    unsigned ecx1, ebx7;
    int osAVX, osAVX512;
    features(&ecx1, &ebx7, &osAVX, &osAVX512);
    unsigned need7 = (1u << 16) | (1u << 17) | (1u << 28) | (1u << 30) | (1u << 31);  // F, DQ, CD, BW, VL
    return osAVX512 && (ebx7 & need7) == need7 && csimd_cpu_has_x86_64_v3();
}

void csimd_cpu_brand(char out[49]) {
    unsigned r[12] = {0}, a, b, c, d;
    memset(out, 0, 49);
    if (!__get_cpuid(0x80000000, &a, &b, &c, &d) || a < 0x80000004) return;
    for (unsigned i = 0; i < 3; i++) __get_cpuid(0x80000002 + i, &r[4 * i], &r[4 * i + 1], &r[4 * i + 2], &r[4 * i + 3]);
    memcpy(out, r, 48);
}

void csimd_cpu_signature(int *family, int *model) {
    unsigned a = 0, b, c, d;
    __get_cpuid(1, &a, &b, &c, &d);
    unsigned base = (a >> 8) & 0xF, f = base == 0xF ? base + ((a >> 20) & 0xFF) : base;
    unsigned m = (a >> 4) & 0xF;
    if (base == 0x6 || base == 0xF) m |= ((a >> 16) & 0xF) << 4;
    *family = (int)f;
    *model = (int)m;
}

#if defined(CSIMD_REQUIRE_X86_64_V3)
/// The build's Swift code is compiled for AVX2 + FMA: on an older CPU it would die on its first
/// vector instruction with SIGILL. Say so instead, before any of it runs.
__attribute__((constructor)) static void csimd_check_cpu(void) {
    if (csimd_cpu_has_x86_64_v3()) return;
    char brand[49];
    csimd_cpu_brand(brand);
    fprintf(stderr, "error: this build of splatframe needs an x86-64-v3 CPU (AVX2, FMA, BMI2: Intel since 2013, "
                    "AMD since 2015); this one (%s) lacks some of it\n", brand[0] ? brand : "unknown");
    exit(2);
}
#endif

#else
int csimd_cpu_has_x86_64_v3(void) { return 0; }
int csimd_cpu_has_avx512(void) { return 0; }
void csimd_cpu_brand(char out[49]) { memset(out, 0, 49); }
void csimd_cpu_signature(int *family, int *model) { *family = 0; *model = 0; }
#endif
