// AllocationCounter.c — malloc/free/realloc/calloc/memalign interposers that count calls and
// bytes with relaxed atomics and forward to glibc's __libc_* entry points. Linked into the
// executable, these definitions win over libc's for every shared library in the process.
// Under AddressSanitizer or ThreadSanitizer (make sanitize) the sanitizer owns malloc, so the
// interposers are left out and the counters stay at zero (`AllocationCounter.isActive` is false).
#define _GNU_SOURCE
#include "CAllocationCounter.h"
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#    define SF_SANITIZED 1   /* the sanitizer owns malloc: do not interpose (counts read 0) */
#  endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#  define SF_SANITIZED 1
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(SF_SANITIZED)
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static uint64_t calls, bytes, frees;

static inline void note(size_t n) {
    __atomic_fetch_add(&calls, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&bytes, (uint64_t)n, __ATOMIC_RELAXED);
}

void *malloc(size_t n) { note(n); return __libc_malloc(n); }
void *calloc(size_t c, size_t n) { note(c * n); return __libc_calloc(c, n); }
void *realloc(void *p, size_t n) { note(n); return __libc_realloc(p, n); }
void free(void *p) { if (p) __atomic_fetch_add(&frees, 1, __ATOMIC_RELAXED); __libc_free(p); }
void *memalign(size_t a, size_t n) { note(n); return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { note(n); return __libc_memalign(a, n); }
void *valloc(size_t n) { note(n); return __libc_memalign(4096, n); }
int posix_memalign(void **out, size_t a, size_t n) {
    if (a < sizeof(void *) || (a & (a - 1)) != 0) return EINVAL;
    note(n);
    void *p = __libc_memalign(a, n);
    if (!p && n) return ENOMEM;
    *out = p;
    return 0;
}

uint64_t sf_alloc_calls(void) { return __atomic_load_n(&calls, __ATOMIC_RELAXED); }
uint64_t sf_alloc_bytes(void) { return __atomic_load_n(&bytes, __ATOMIC_RELAXED); }
uint64_t sf_free_calls(void) { return __atomic_load_n(&frees, __ATOMIC_RELAXED); }
int sf_alloc_interposed(void) { return 1; }
#else
uint64_t sf_alloc_calls(void) { return 0; }
uint64_t sf_alloc_bytes(void) { return 0; }
uint64_t sf_free_calls(void) { return 0; }
int sf_alloc_interposed(void) { return 0; }
#endif
