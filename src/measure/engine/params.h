/* SPDX-License-Identifier: MIT */
/*
 * What the measuring engine is asked to do: which routines, which points
 * (chunk sizes, or recorded call mixes replayed), how each point is measured,
 * and where the threads and their memory are placed.  The command fills it
 * from its command line (src/main.c), and a benchmark fills it itself, so
 * that nothing under measure/ depends on how the command parses its options.
 * The lists are the caller's: they must outlive every use of the parameters.
 */
#ifndef COPYPERF_PARAMS_H
#define COPYPERF_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cache_mode {
	CACHE_FLUSH,       /* flush both buffers at each wrap, timer paused */
	CACHE_FLUSH_TIMED, /* the seed's method: the flush is timed too */
	CACHE_HOT,         /* never flush */
	CACHE_COLD,        /* walk a region far larger than the last-level cache */
};
#define N_CACHE_MODES 4

/* The page size the buffers are asked to be on (the kernel decides). */
enum page_mode { PAGES_DEFAULT, PAGES_4K, PAGES_2M, PAGES_1G, PAGES_THP };

/* Where the buffers' pages are placed. */
enum numa_policy { NUMA_DEFAULT, NUMA_LOCAL, NUMA_INTERLEAVE, NUMA_NODE };

struct measure_params {
	char *const *routines; /* names; NULL: every routine available */
	size_t n_routines;

	/* Every point. */
	uint64_t total;  /* bytes copied per (routine, point) measurement */
	unsigned repeat; /* measurements per point */
	bool counters;   /* hardware counters per point, where the machine has them */

	/* The chunk sweep. */
	const uint64_t *sizes; /* chunk sizes, in the order measured */
	size_t n_sizes;
	uint64_t buffer; /* bytes in each of the two working buffers */
	enum cache_mode cache;
	uint64_t align_src, align_dst; /* offsets from a page-aligned base */

	/* Recorded call mixes replayed instead of the chunk sweep. */
	char *const *distributions; /* the -d words; NULL: the chunk sweep */
	size_t n_distributions;
	char *const *working_sets; /* the -w words */
	size_t n_working_sets;
	uint64_t seed; /* draws the call lists */
	bool chained;  /* each call waits for the last byte of the one before (--chain) */
	bool tested;   /* each call after the caller's tests of its size (--tested) */

	/* Placement. */
	const unsigned *threads; /* thread counts, 0 standing for all; NULL: one thread */
	size_t n_threads;
	enum page_mode pages;
	enum numa_policy numa;
	int numa_node; /* NUMA_NODE's */
};

/* The cache modes' names, as --cache takes them, in enum cache_mode's order. */
extern const char *const cache_mode_names[N_CACHE_MODES];

static inline const char *cache_mode_name(enum cache_mode m)
{
	return cache_mode_names[m];
}

#endif
