/* SPDX-License-Identifier: MIT */
/*
 * The data-cache block size: what one dcbz clears.  Read at run time from
 * the kernel (it differs between cores: 32 on the 603/e300/G4, 128 on POWER),
 * never assumed.
 */
#include <sys/auxv.h>
#include "dcache_block.h"

size_t copyperf_dcache_block(void)
{
	static size_t known; /* 0 until read: one racing duplicate read is harmless */
	size_t b = __atomic_load_n(&known, __ATOMIC_RELAXED);

	if (b == 0) {
		b = getauxval(AT_DCACHEBSIZE);
		/*
		 * No report: 1 is no valid line size, so dcbz is never used.  A
		 * guess smaller than the real line would zero bytes outside the
		 * destination.
		 */
		if (b == 0)
			b = 1;
		__atomic_store_n(&known, b, __ATOMIC_RELAXED);
	}
	return b;
}
