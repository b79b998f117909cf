/* SPDX-License-Identifier: MIT */
#ifndef COPYPERF_PPC_DCACHE_BLOCK_H
#define COPYPERF_PPC_DCACHE_BLOCK_H

#include <stddef.h>

/*
 * Bytes one dcbz clears, from AT_DCACHEBSIZE.  When the kernel does not say:
 * 32 on 32-bit (the classic cores), 1 on 64-bit (no line size: no dcbz).
 */
size_t copyperf_dcache_block(void);

#endif
