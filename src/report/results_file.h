/* SPDX-License-Identifier: MIT */
/*
 * One run's results as `plot` and `compare` see them: read back from a JSON
 * results file, or taken from the sweep just made (`--plot`).
 */
#ifndef COPYPERF_RESULTS_FILE_H
#define COPYPERF_RESULTS_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "measure/call_mixes/call_list.h"

struct report;
struct json;
struct summary;

struct result_row {
	const char *routine;
	const char *space;
	uint64_t chunk;          /* 0 in a replay row */
	/* A replayed call mix (--distribution); distribution is NULL in a chunk row. */
	const char *distribution;
	const char *working_set_name; /* l1, l2, llc, cold, stream, or the size as given */
	uint64_t working_set;         /* bytes */
	enum call_layout layout;      /* spread in files from before streams */
	bool chained;                 /* each call waited for the one before (--chain) */
	bool tested;                  /* each call came after the caller's tests of its size */
	uint64_t calls;               /* per measurement */
	unsigned threads;        /* copying at once (-j); 1 in files from before -j */
	uint64_t total;          /* bytes copied per measurement, by all threads */
	size_t n_samples;
	const double *samples;   /* seconds of each measurement (pooled: for the row's work) */
	bool verified;
	size_t n_runs;           /* pooled rows: the runs whose samples they hold */
	const double *run_speeds; /* pooled rows: each run's median speed (see row_speeds) */
};

struct result_set {
	const char *source; /* the file name, or "this run" */
	const char *cpu;
	const char *kernel;
	const char *cache;
	uint64_t total, buffer, align_src, align_dst;
	unsigned repeat;
	uint64_t seed;        /* drew a replay's call lists (pooled: the first run's) */
	bool seeds_vary;      /* pooled from runs drawn with different seeds */
	unsigned runs;        /* results files pooled into this set: 1 unless pooled */
	struct result_row *rows;
	size_t n;
	struct json *doc;     /* when read from a file: owns the strings */
	double *sample_store; /* when read from a file or pooled: owns the samples */
	double *run_store;    /* when pooled: owns the rows' run_speeds */
	const struct result_row **index; /* the rows by point, for result_set_find (owned) */
};

/*
 * Reads a `copyperf -f json` file.  Returns 0, or -1 with a one-line reason
 * naming it (a point given twice is refused: nothing could say which to take).
 */
int result_set_read(struct result_set *s, const char *path, char *why, size_t whylen);
/* Borrows the report's results (they must outlive s).  Returns 0, or -1 when out of memory. */
int result_set_from_report(struct result_set *s, const struct report *r);
/*
 * Pools n > 0 sets into one: every point (see row_same_point) with the samples
 * of all the sets that have it, verified only if verified in all; a run that
 * copied other bytes (or made other calls) per measurement has its samples
 * scaled to the first run's.  Borrows the sets' strings (they must outlive
 * out).  Returns 0, or -1 when out of memory.
 */
int result_set_pool(struct result_set *out, const struct result_set *sets, size_t n,
		    const char *label);
void result_set_free(struct result_set *s);

/* Whether a and b walked alike: the same cache mode, buffers and alignment (any two replays). */
bool result_sets_same_walk(const struct result_set *a, const struct result_set *b);

/*
 * Whether n sets may be pooled: measured with the same cache mode, buffers
 * and alignment (another total or seed is scaled away, these are not).
 * Returns 0, or -1 with a reason naming the first two that differ.
 */
int result_sets_alike(const struct result_set *sets, size_t n, char *why, size_t whylen);

/* The (first) row of s that is the same point as key, or NULL. */
const struct result_row *result_set_find(const struct result_set *s, const struct result_row *key);

/*
 * The kinds of point seen so far in sets given one by one: the first set that
 * held chunk rows, and the first that held replay rows.  Start it zeroed.
 */
struct result_kinds {
	const char *chunk, *replay;
};

/*
 * Adds s's rows to k.  Returns 0, or -1 when chunk and replay rows have now
 * been seen, with a reason naming the two sets (nothing lines up between them).
 */
int result_kinds_add(struct result_kinds *k, const struct result_set *s, char *why, size_t whylen);

static inline bool row_is_replay(const struct result_row *r)
{
	return r->distribution != NULL;
}

/* A row of `copyperf program`: a side's runs of a command, each run one "call". */
static inline bool row_is_program(const struct result_row *r)
{
	return r->distribution && r->working_set_name && !strcmp(r->working_set_name, "program");
}

/* The distinct thread counts of s's verified rows, at most max of them, into out (ascending). */
size_t result_set_thread_counts(const struct result_set *s, unsigned *out, size_t max);

/* True when s holds replay rows (after result_kinds_add, all its rows are). */
bool result_set_is_replay(const struct result_set *s);
/*
 * How s's replay rows were called, for a line that describes s: "calls
 * chained" (--chain) when all were, "some calls chained" when some were (a
 * pool of runs with and without it), the same for "tested" (--tested), both
 * joined ("calls chained and tested"), or NULL when none were either.
 */
const char *result_set_calling(const struct result_set *s);
/* True when s's rows are all a program's runs (copyperf program): times per run, not per call. */
bool result_set_is_program(const struct result_set *s);

/* The same routine in the same space: one line of a plot, one geometric mean. */
bool row_same_routine(const struct result_row *a, const struct result_row *b);

/*
 * Measured at the same place: the same chunk, or the same mix and working set
 * (in bytes, and spread or a stream, chained or not, tested or not), on as
 * many threads.
 */
bool row_same_place(const struct result_row *a, const struct result_row *b);

/* The same point: the same routine at the same place. */
bool row_same_point(const struct result_row *a, const struct result_row *b);

/*
 * Where a row was measured, for labels and messages: "chunk 4096" or
 * "memcpy_fleet l1", with ", 2 threads" when it was more than one.
 */
void row_where(const struct result_row *r, char *buf, size_t len);

/*
 * The speed of every sample of a row, into out (n_samples of them): bytes per
 * second of a chunk row, calls per second of a replay row.
 */
void row_speeds(const struct result_row *row, double *out);

/*
 * The speeds a row's times give, as the results' writers give them: its work
 * over the median, the longest and the shortest time (with an even count the
 * median of the speeds would be another number).
 */
void row_speed_summary(const struct result_row *row, struct summary *out);

#endif
