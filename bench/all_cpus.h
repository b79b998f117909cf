/* SPDX-License-Identifier: MIT */
/*
 * Every CPU copying at once, for make bench's threads table: one worker per
 * CPU of the process's affinity mask (in copyperf -j's order), pinned there, each with its own pair
 * of buffers mapped and first touched by itself (local to its NUMA node),
 * all released together by one barrier.
 */
#ifndef COPYBENCH_ALL_CPUS_H
#define COPYBENCH_ALL_CPUS_H

#include <stddef.h>

typedef void *(*all_cpus_copy_fn)(void *, const void *, size_t);

struct all_cpus;

/* The CPUs this process may run on; 0 if it cannot tell. */
unsigned all_cpus_online(void);

/* Starts the workers with buffers of `buffer` bytes each; NULL (and a message) on failure. */
struct all_cpus *all_cpus_start(size_t buffer);

/* The number of workers (CPUs). */
unsigned all_cpus_count(const struct all_cpus *p);

/*
 * Each worker copies `size` bytes from its source to its destination,
 * bytes / size times; returns the seconds from the first worker's start to
 * the last one's end.
 */
double all_cpus_copy(struct all_cpus *p, all_cpus_copy_fn fn, size_t size, size_t bytes);

/* Worker i's source (which 0) or destination (1) buffer, for a check of what it copies. */
unsigned char *all_cpus_buffer(struct all_cpus *p, unsigned i, int which);

void all_cpus_stop(struct all_cpus *p);

#endif
