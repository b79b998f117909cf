/* SPDX-License-Identifier: MIT */
/* -j resolved on this machine: the thread counts to measure and the CPUs the threads run on. */
#ifndef COPYPERF_THREAD_PLAN_H
#define COPYPERF_THREAD_PLAN_H

#include <stddef.h>
#include "measure/engine/params.h"

struct thread_plan {
	int *cpus;         /* every CPU the process may use, in cpu_order's order */
	size_t n_cpus;
	unsigned *counts;  /* the thread counts, "all" resolved, each once, in the order given */
	size_t n_counts;   /* 0: no -j, one thread as always */
	unsigned most;     /* the largest count: the workers started */
};

/*
 * Resolves n asked counts (0 standing for all n_cpus) into out, dropping
 * repeats; returns how many, or -1 with *bad the first count over n_cpus.
 */
long thread_counts_resolve(const unsigned *asked, size_t n, size_t n_cpus, unsigned *out,
			   unsigned *bad);

/*
 * Makes the plan for params' thread counts.  0, or -1 with a one-line reason
 * naming -j (a usage error).
 */
int thread_plan_make(struct thread_plan *tp, const struct measure_params *params, char *err,
		     size_t errlen);
void thread_plan_free(struct thread_plan *tp);

#endif
