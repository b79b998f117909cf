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

struct report;
struct json;

struct result_row {
	const char *routine;
	const char *space;
	uint64_t chunk;
	uint64_t total;          /* bytes copied per measurement */
	size_t n_samples;
	const double *samples;   /* seconds of each measurement */
	bool verified;
	size_t n_runs;           /* pooled rows: the runs whose samples they hold */
	const double *run_speeds; /* pooled rows: each run's median bytes per second */
};

struct result_set {
	const char *source; /* the file name, or "this run" */
	const char *cpu;
	const char *kernel;
	const char *cache;
	uint64_t total, buffer, align_src, align_dst;
	unsigned repeat;
	unsigned runs;        /* results files pooled into this set: 1 unless pooled */
	struct result_row *rows;
	size_t n;
	struct json *doc;     /* when read from a file: owns the strings */
	double *sample_store; /* when read from a file or pooled: owns the samples */
	double *run_store;    /* when pooled: owns the rows' run_speeds */
};

/* Reads a `copyperf -f json` file.  Returns 0, or -1 with a one-line reason naming it. */
int result_set_read(struct result_set *s, const char *path, char *why, size_t whylen);
/* Borrows the report's results (they must outlive s).  Returns 0, or -1 when out of memory. */
int result_set_from_report(struct result_set *s, const struct report *r);
/*
 * Pools n > 0 sets into one: every (routine, space, chunk) with the samples of
 * all the sets that have it, verified only if verified in all.  Borrows the
 * sets' strings (they must outlive out).  Returns 0, or -1 when out of memory.
 */
int result_set_pool(struct result_set *out, const struct result_set *sets, size_t n,
		    const char *label);
void result_set_free(struct result_set *s);

/* The row of s with key's routine, space and chunk, or NULL. */
const struct result_row *result_set_find(const struct result_set *s, const struct result_row *key);

/* Bytes per second of every sample of a row, into out (n_samples of them). */
void row_speeds(const struct result_row *row, double *out);

#endif
