/* SPDX-License-Identifier: MIT */
/*
 * PowerPC routines offered to the command by name: the line copy without
 * its prefetch, so a board shows what dcbz and dcbt each contribute.
 */
#include "../internal.h"
#include "dcache_block.h"
#include "line_copy.h"

static void *line_copy_no_dcbt(void *dst, const void *src, size_t n)
{
	return copyperf_ppc_line_copy(dst, src, n, copyperf_dcache_block(), 0);
}

const struct copyperf_routine copyperf_arch_routines[] = {
	{ "lines-nodcbt", "copyperf_memcpy's dcbz line copy with the dcbt prefetch off",
	  line_copy_no_dcbt, NULL, 0 },
};
const size_t copyperf_arch_routine_count =
	sizeof(copyperf_arch_routines) / sizeof(copyperf_arch_routines[0]);
