// CAllocationCounter — counts heap allocations process-wide by interposing malloc & co.
#ifndef CALLOCATION_COUNTER_H
#define CALLOCATION_COUNTER_H
#include <stdint.h>

/// Number of allocating calls (malloc, calloc, realloc, posix_memalign, aligned_alloc,
/// memalign, valloc) since the process started, all threads.
uint64_t sf_alloc_calls(void);
/// Bytes requested by those calls (realloc counts its new size).
uint64_t sf_alloc_bytes(void);
/// Number of free calls with a non-null pointer.
uint64_t sf_free_calls(void);
/// 1 when this build interposes malloc (0 on non-glibc platforms and under ASan/TSan).
int sf_alloc_interposed(void);

#endif
