/* SPDX-License-Identifier: MIT */
/*
 * The sweep engine: every (routine, chunk) point measured params.repeat
 * times, in an interleaved order so that drift on a noisy machine hits every
 * routine alike.  Where and how one measurement runs is a backend's business.
 */
#ifndef COPYPERF_SWEEP_H
#define COPYPERF_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "measure/call_mixes/call_list.h"
#include "measure/hardware/counters.h"
#include "params.h"
#include "stats/stats.h"

enum measure_status {
	MEASURE_OK = 0,
	MEASURE_WRONG = 1, /* the copy was wrong: the point is FAILED, with the reason */
	MEASURE_ERROR = -1, /* the measurement could not be made: the run stops */
	MEASURE_NO_MEMORY = -2, /* its memory could not be had (ulimit -v): the run stops */
};

/* What a point measures: a chunk size walked through the buffers, or a list of calls replayed. */
struct workload {
	uint64_t chunk;                /* the chunk sweep's; 0 for a replay */
	const struct call_list *calls; /* a replay's; NULL for a chunk */
	const char *distribution;      /* a replay's: the name, the working set's name and bytes */
	const char *working_set_name;
	uint64_t working_set;
	unsigned threads;              /* -j: threads copying at once; 0: this thread alone */
};

struct backend {
	const char *space; /* "user" or "kernel" */
	size_t n_routines;
	const char *const *routine_names;
	const bool *overlap_ok; /* per routine: correct for overlapping buffers (memmove) */
	/* Copies the parameters' total bytes of w with routine r, timed, then verifies. */
	enum measure_status (*measure)(struct backend *b, size_t r, const struct workload *w,
				       double *seconds, char *why, size_t whylen);
	void *ctx;
	/* The last measurement's hardware counters, or NULL when none are counted. */
	const struct counter_values *counters;
	/* With -j: the last measurement's seconds of each thread, or NULL. */
	const double *thread_seconds;
	/* With -j: measurements kept although the threads' starts lay apart (thread_pool.c). */
	const unsigned long *starts_apart;
};

/* Zeroes *b and gives it a zeroed context of ctx_size bytes; NULL, with err set, if out of memory. */
void *backend_start(struct backend *b, size_t ctx_size, char *err, size_t errlen);

struct point_result {
	const char *routine;
	const char *space;
	bool overlap_ok; /* the routine is correct for overlapping buffers (memmove's contract) */
	uint64_t chunk;
	uint64_t total; /* bytes copied per measurement, by all threads: whole chunks only */
	unsigned repeats;
	double *samples; /* seconds of each measurement, in the order taken (all threads') */
	/*
	 * -j: threads copying at once (0 without -j, one thread as always), and the
	 * seconds of each thread's own copies: thread_samples[k * threads + t]
	 */
	unsigned threads;
	double *thread_samples;
	struct summary seconds;
	bool verified;
	char error[200]; /* when !verified: what was wrong */
	/* Replayed call mixes (--distribution); distribution is NULL for a chunk point. */
	const char *distribution;     /* its name */
	const char *working_set_name; /* l1, l2, llc, cold, stream, or the size as given */
	uint64_t working_set;         /* bytes the calls' offsets spread over */
	/*
	 * how its calls lie: a stream and a spread list of the same bytes are two
	 * points, since one walks memory in order and the other at random
	 */
	enum call_layout layout;
	bool chained;                 /* each call waited for the one before (--chain) */
	bool tested;                  /* each call came after the caller's tests of its size */
	uint64_t calls;               /* calls per measurement, all threads' (total: their bytes) */
	struct counter_values counters; /* summed over the repeats; none if .measurements is 0 */
};

/* Reports progress: done of total measurements so far. */
typedef void (*progress_fn)(size_t done, size_t total, void *arg);

/* Whether routine r of b measures w: memmove mixes only with routines that allow overlap. */
bool sweep_runs(const struct backend *b, size_t r, const struct workload *w);

#define SWEEP_INTERRUPTED (-2)
#define SWEEP_NO_MEMORY (-3)

/*
 * Runs the sweep over the workloads; *out gets a result for every routine
 * and workload it runs (sweep_runs), routine-major, in the order they were
 * given.  Returns 0, -1 with the reason in why when a measurement could not
 * be made, SWEEP_NO_MEMORY with the reason when memory ran out (before or
 * between measurements), or SWEEP_INTERRUPTED, with how far it got in why,
 * when SIGINT or SIGTERM was caught (interrupt.h).
 */
int sweep_run(const struct measure_params *params, struct backend *b, const struct workload *w,
	      size_t nw, progress_fn progress, void *arg, struct point_result **out, size_t *n_out,
	      char *why, size_t whylen);

void sweep_free(struct point_result *results, size_t n);

/* Bytes copied by one measurement: the whole chunks that fit in total. */
static inline uint64_t point_total(uint64_t total, uint64_t chunk)
{
	return total / chunk * chunk;
}

/* A replay point's mean bytes per call. */
static inline double point_mean_size(const struct point_result *p)
{
	return p->calls ? (double)p->total / (double)p->calls : 0;
}

/* The threads a point copied on: 1 without -j. */
static inline unsigned point_threads(const struct point_result *p)
{
	return p->threads ? p->threads : 1;
}

/* A replay point's nanoseconds per call at a time in seconds. */
static inline double point_ns_per_call(const struct point_result *p, double seconds)
{
	return seconds * 1e9 / (double)p->calls;
}

#endif
