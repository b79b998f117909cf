/* SPDX-License-Identifier: MIT */
/*
 * The PowerPC cache-line copy: what __copy_tofrom_user does and the old
 * memcpy did not.  Shared by the library and the kernel module.
 */
#ifndef COPYPERF_PPC_LINE_COPY_H
#define COPYPERF_PPC_LINE_COPY_H

#include "../generic/copy_compat.h"

/* How many source lines ahead of the copy dcbt asks for (copy_32.S: MAX_COPY_PREFETCH). */
#ifndef COPYPERF_PREFETCH_LINES
#define COPYPERF_PREFETCH_LINES 4
#endif

/*
 * Whether the line copy can work in lines of this many bytes: a power of two
 * from one step of its loop (16 bytes on 32-bit, 32 on 64-bit) to 4096.
 */
int copyperf_ppc_line_usable(size_t line);

/*
 * Copies n bytes (no overlap).  Each whole destination line of `line` bytes
 * (the data-cache block size) is allocated with dcbz instead of being read
 * from memory, the source is prefetched with dcbt `ahead` lines ahead (never
 * past its end), and the rest goes by the portable copy.  The destination
 * must be cacheable: dcbz on cache-inhibited memory traps.  A line size that
 * is not usable (above) falls back to the portable copy.
 */
void *copyperf_ppc_line_copy(void *__restrict dst, const void *__restrict src, size_t n,
			     size_t line, size_t ahead);

#ifdef COPYPERF_COUNT_LINES
/* Test builds only: what the line path did, to prove it ran and how. */
struct copyperf_line_counts {
	unsigned long calls;	/* calls that copied at least one whole line */
	unsigned long lines;	/* destination lines copied by the line loop */
	unsigned long dcbz;
	unsigned long dcbt;
	unsigned long loads;	/* word loads and stores in the line loop */
	unsigned long stores;
};
extern struct copyperf_line_counts copyperf_line_counts;
#endif

#endif
