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
};

struct result_set {
	const char *source; /* the file name, or "this run" */
	const char *cpu;
	const char *kernel;
	const char *cache;
	uint64_t total, buffer, align_src, align_dst;
	unsigned repeat;
	struct result_row *rows;
	size_t n;
	struct json *doc;     /* when read from a file: owns the strings */
	double *sample_store; /* when read from a file: owns the samples */
};

/* Reads a `copyperf -f json` file.  Returns 0, or -1 with a one-line reason naming it. */
int result_set_read(struct result_set *s, const char *path, char *why, size_t whylen);
/* Borrows the report's results (they must outlive s).  Returns 0, or -1 when out of memory. */
int result_set_from_report(struct result_set *s, const struct report *r);
void result_set_free(struct result_set *s);

/* Bytes per second of every sample of a row, into out (n_samples of them). */
void row_speeds(const struct result_row *row, double *out);

#endif
