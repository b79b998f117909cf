/* SPDX-License-Identifier: MIT */
/*
 * -j: worker threads, each pinned to its own CPU and holding its own lane
 * (buffers allocated and first touched by that thread, so on its NUMA node).
 * A measurement on k of them: every one prepares, one barrier starts them
 * all (its last step spinning, so that they start together), the next waits
 * for the last to finish, then each verifies its copies.
 */
#ifndef COPYPERF_THREAD_POOL_H
#define COPYPERF_THREAD_POOL_H

#include <pthread.h>
#include <stdatomic.h>
#include "measure/engine/lane.h"
#include "pages.h"
#include "pinned_pool.h"

struct worker;

/* Tries of a measurement whose threads' starts lie apart (thread_pool_measure). */
#define THREAD_POOL_TRIES 4
/* Starts closer than this many clock reads are together, whatever the time (about 20 us). */
#define THREAD_POOL_APART_CLOCKS 1000

struct thread_pool {
	struct pinned_pool pool; /* the threads: pinned, each opening its lane first */
	const struct measure_params *params;
	struct worker *workers;
	pthread_barrier_t start, timed; /* the workers alone: the caller sleeps through a measurement */
	/* the job every worker reads at a release */
	const struct copyperf_routine *routine;
	const struct workload *w;
	unsigned k;            /* workers taking part: the first k */
	atomic_uint arrived;   /* of them, at the start (see thread_pool.c) */
	unsigned long apart;   /* measurements kept with the starts still apart after retakes */
	uint64_t apart_floor;  /* ns: starts closer than this are together */
};

/*
 * Starts n workers on cpus[0..n-1] and lets each open its lane for params.
 * Returns 0, or -1 with a one-line reason (a usage error: what params asks
 * cannot be had) in err; thread_pool_stop must follow either way.
 */
int thread_pool_start(struct thread_pool *p, const struct measure_params *params,
		      const int *cpus, unsigned n, char *err, size_t errlen);
void thread_pool_stop(struct thread_pool *p);

/*
 * One measurement of w with routine on the first k workers.  *seconds gets
 * the aggregate time (the first thread's start to the last one's end, less
 * each thread's paused time), thread_seconds[i] each thread's own.  A wrong
 * copy in any thread is MEASURE_WRONG, why naming the thread and its CPU.
 */
enum measure_status thread_pool_measure(struct thread_pool *p, const struct copyperf_routine *routine,
					const struct workload *w, unsigned k, double *seconds,
					double *thread_seconds, char *why, size_t whylen);

/* What the kernel gave the buffers of every worker, summed. */
void thread_pool_pages(const struct thread_pool *p, struct page_usage *u);

#endif
