/* SPDX-License-Identifier: MIT */
/*
 * libcopyperf's memcpy on PowerPC: the cache-line copy with the run-time
 * line size.  dcbz is legal on any user mapping: Linux emulates it on the
 * rare cache-inhibited ones (a frame buffer's, UIO's), correct but slow there.
 */
#include "../internal.h"
#include "dcache_block.h"
#include "line_copy.h"

void *copyperf_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	return copyperf_ppc_line_copy(dst, src, n, copyperf_dcache_block(),
				      COPYPERF_PREFETCH_LINES);
}
