/* SPDX-License-Identifier: MIT */
/* What copyperf_memcpy is on this AArch64 core, with its dc zva block from DCZID_EL0. */
#include <stdio.h>
#include "../internal.h"
#include "zva_block.h"
#include "zva_policy.h"

const char *copyperf_describe(void)
{
	static char line[200];
	size_t block = copyperf_zva_block();
	int p = snprintf(line, sizeof(line),
			 "AArch64 neon variant: q-register moves, overlapping heads and tails;");

	if (block == 1)
		snprintf(line + p, sizeof(line) - p, " dc zva prohibited (DCZID_EL0.DZP)");
	else if (block < ZVA_MIN_BLOCK || block > ZVA_MAX_BLOCK)
		snprintf(line + p, sizeof(line) - p, " no dc zva (%zu-byte blocks)", block);
	else
		snprintf(line + p, sizeof(line) - p,
			 " dc zva on %zu-byte blocks (DCZID_EL0) from %d B", block, ZVA_MIN_COPY);
	return line;
}
