/* SPDX-License-Identifier: MIT */
/* The output formats: table, seed, csv and json, all from the same results. */
#ifndef COPYPERF_OUTPUT_H
#define COPYPERF_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "copyperf.h"
#include "machine.h"
#include "measure/engine/sweep.h"
#include "measure/placement/cpu_order.h"
#include "measure/placement/pages.h"
#include "options.h"

struct report {
	const struct options *o;
	const struct machine_info *m;
	const struct point_result *results;
	size_t n;
	const int *cpus;  /* -j: the CPUs of the threads, in the order they are used */
	size_t n_cpus;    /* 0 without -j */
	const struct page_usage *pages; /* what the kernel gave the buffers; NULL in the kernel */
};

/* Writes the report in o->format; returns 0, or -1 if writing failed. */
int output_write(FILE *f, const struct report *r);

void output_table(FILE *f, const struct report *r);
void output_seed(FILE *f, const struct report *r);
void output_csv(FILE *f, const struct report *r);
void output_json(FILE *f, const struct report *r);

/* The 2008 post's line for one point, without the newline. */
void seed_line(char *buf, size_t len, uint64_t chunk, double seconds, uint64_t total);

/* 1 MB = 2^20 bytes, as in the seed. */
#define BYTES_PER_MB 1048576.0

/* True when any point carries hardware counters: every format then adds their columns. */
bool report_has_counters(const struct report *r);

/*
 * True when the report's points are replayed call mixes (--distribution), each
 * named by its distribution and working set, rather than chunks: a run is one
 * or the other, and the options say which.
 */
static inline bool report_is_replay(const struct report *r)
{
	return r->o->distributions != NULL;
}

/* How a replay point's calls lie, as the results files name it: "spread" or "stream". */
static inline const char *call_layout_name(enum call_layout l)
{
	return l == CALLS_STREAM ? "stream" : "spread";
}

/* Mean cycles per unit of a point's measurement (units in one), or -1 when not counted. */
static inline double cycles_per(const struct point_result *p, uint64_t units)
{
	double cycles = counter_mean(&p->counters, COUNTER_CYCLES);

	return cycles < 0 ? -1 : cycles / (double)units;
}

/* Mean cycles per byte copied of a point, or -1 when its cycles were not counted. */
static inline double cycles_per_byte(const struct point_result *p)
{
	return cycles_per(p, p->total);
}

/* Mean cycles per call of a replay point, or -1 when its cycles were not counted. */
static inline double cycles_per_call(const struct point_result *p)
{
	return cycles_per(p, p->calls);
}

/* True when the points were measured with -j: every format then shows the threads. */
static inline bool report_is_threaded(const struct report *r)
{
	return r->n_cpus > 0;
}

/*
 * A -j point's threads: each one's median speed (bytes per second of its own
 * copies) into speeds, p->threads of them, and the slowest and fastest.
 */
void point_thread_speeds(const struct point_result *p, double *speeds, double *slowest,
			 double *fastest);

/* One line: the CPUs the threads ran on, in the order they were taken. */
void report_describe_threads(const struct report *r, char *buf, size_t len);

/* Bytes per second of a point at a time in seconds. */
static inline double rate(const struct point_result *p, double seconds)
{
	return (double)p->total / seconds;
}

#endif
