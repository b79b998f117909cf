/* SPDX-License-Identifier: MIT */
#ifndef COPYPERF_PPC_DCACHE_BLOCK_H
#define COPYPERF_PPC_DCACHE_BLOCK_H

#include <stddef.h>

/* Bytes one dcbz clears, from AT_DCACHEBSIZE; 1 (no dcbz) when the kernel does not say. */
size_t copyperf_dcache_block(void);

#endif
