/* SPDX-License-Identifier: MIT */
/*
 * The buffers' memory: mapped on the pages --pages asks for, placed as --numa
 * asks, every page touched by the thread that maps it; and what the kernel
 * really gave, read back from /proc/self/smaps.
 */
#ifndef COPYPERF_PAGES_H
#define COPYPERF_PAGES_H

#include <stddef.h>
#include <stdint.h>
#include "measure/engine/params.h"
#include "numa.h"

/* What the kernel gave a run's buffers, summed over their mappings. */
struct page_usage {
	uint64_t bytes;           /* mapped */
	uint64_t page_size;       /* the smallest KernelPageSize seen (0: none read) */
	uint64_t hugetlb_bytes;   /* on explicit huge pages */
	uint64_t thp_bytes;       /* on transparent huge pages (AnonHugePages) */
	uint64_t node_bytes[MAX_NUMA_NODES]; /* on each NUMA node (numa_where); all 0: unknown */
};

/* The bytes a mapping of len takes on mode's pages: explicit huge pages are whole. */
size_t pages_length(size_t len, enum page_mode mode);

/*
 * Maps len bytes (see pages_length) for mode, places them as numa asks, fills
 * them with fill (touching every page in this thread) and adds what the kernel
 * gave to *u (when u is not NULL).  NULL, with a one-line reason naming the
 * option in err, when it cannot: `what`, the option the memory is for, when
 * the memory itself is what is missing.
 */
void *pages_map(size_t len, const struct measure_params *params, int fill, struct page_usage *u,
		const char *what, char *err, size_t errlen);
void pages_unmap(void *p, size_t len, enum page_mode mode);

/*
 * Checks that explicit huge pages are reserved for n mappings of len bytes
 * each; 0, or -1 with the command that reserves them in err.
 */
int pages_check(enum page_mode mode, size_t len, size_t n, char *err, size_t errlen);

/* Adds b into a. */
void page_usage_add(struct page_usage *a, const struct page_usage *b);

/*
 * "2 MiB pages (hugetlb), 4 MiB of 4 MiB" or "4 KiB pages, 2 MiB of 2.1 MiB on
 * transparent huge pages", then where known "; all on node 1" or "; on nodes 0 (1 MiB), 1 (1 MiB)".
 */
void page_usage_describe(const struct page_usage *u, char *buf, size_t len);

const char *page_mode_name(enum page_mode m);

/*
 * Reads the smaps entry of the mapping holding addr into u (overwritten);
 * -1 when there is none.  Pure parsing of text in page_usage_parse.
 */
int page_usage_read(const void *addr, struct page_usage *u);
int page_usage_parse(const char *smaps, uintptr_t addr, struct page_usage *u);

#endif
