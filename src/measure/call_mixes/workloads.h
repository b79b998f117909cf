/* SPDX-License-Identifier: MIT */
/*
 * What a run measures, point by point: the chunk sizes of the sweep, or one
 * replay per (distribution, working set), its calls drawn from the seed.
 */
#ifndef COPYPERF_WORKLOADS_H
#define COPYPERF_WORKLOADS_H

#include <stdbool.h>
#include <stddef.h>
#include "call_list.h"
#include "distribution.h"
#include "measure/engine/params.h"
#include "measure/engine/sweep.h"

struct workloads {
	struct workload *w;
	size_t n;
	struct distribution *dists; /* a replay's, one per -d name */
	size_t n_dists;
	struct call_list *lists;    /* a replay's, one per workload before workloads_by_threads */
	size_t n_lists;
	char *const *ws_names;      /* a replay's working sets as given, one per -w word */
	uint64_t *ws_bytes;         /* and what they came to on this machine */
	size_t n_ws;
};

/*
 * The working set a -w word stands for on this machine, as fleetbench sizes
 * them: l1 3/4 of the L1 data cache, l2 half the L2, llc half the last level
 * as llc_probe() finds it; cold twice, and stream four times (two walks of
 * twice it each), the level llc_memory_level() takes from memory; a size is
 * itself.  0, with a one-line reason in err, when the machine does not say
 * how large that cache is (or COPYPERF_LLC is not a size).
 */
uint64_t working_set_bytes(const char *word, char *err, size_t errlen);

/* Whether word names a cache level (l1, l2, llc, cold, stream) rather than a size. */
bool working_set_is_level(const char *word);

/* Whether word is stream: calls one after another (call_list_build_stream), not spread. */
bool working_set_is_stream(const char *word);

/*
 * Whether working sets a and b, of a_bytes and b_bytes here, are one point of
 * a measurement (-w refuses two names for it): the same bytes, laid out the
 * same way.
 */
bool working_sets_coincide(const char *a, uint64_t a_bytes, const char *b, uint64_t b_bytes);

/*
 * The calls of d over the working set `word` came to (bytes), drawn from
 * seed: a stream for stream, else spread.  Returns 0, or -1 with the reason.
 */
int working_set_calls(struct call_list *l, const struct distribution *d, const char *word,
		      uint64_t bytes, uint64_t seed, char *err, size_t errlen);

/* Builds the workloads params asks for.  0, or -1 with a one-line reason (bad input). */
int workloads_build(struct workloads *ws, const struct measure_params *params, char *err,
		    size_t errlen);
/* The bytes of the largest replay arena (0 for a chunk sweep). */
size_t workloads_largest_arena(const struct workloads *ws);

/*
 * Every workload once for each of the n thread counts (-j), in that order,
 * workload by workload.  Returns 0, or -1 with the reason (out of memory).
 */
int workloads_by_threads(struct workloads *ws, const unsigned *counts, size_t n, char *err,
			 size_t errlen);
void workloads_free(struct workloads *ws);

#endif
