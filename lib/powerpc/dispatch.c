/* SPDX-License-Identifier: MIT */
/* What copyperf_memcpy is on this PowerPC, with the line size the kernel reported. */
#include <stdio.h>
#include "../internal.h"
#include "dcache_block.h"
#include "line_copy.h"

#ifdef __powerpc64__
#define PPC_NAME "64-bit PowerPC"
#else
#define PPC_NAME "32-bit PowerPC"
#endif

const char *copyperf_describe(void)
{
	static char line[200];
	size_t block = copyperf_dcache_block();

	if (!copyperf_ppc_line_usable(block))
		return PPC_NAME " generic variant (no usable data-cache block size): portable C";
	snprintf(line, sizeof(line),
		 PPC_NAME " line variant: dcbz per %zu-byte destination line (AT_DCACHEBSIZE),"
		 " dcbt %d lines ahead, word moves; heads and tails portable C",
		 block, COPYPERF_PREFETCH_LINES);
	return line;
}
