/* SPDX-License-Identifier: MIT */
/* The command line: what to measure, how, and where to write it. */
#ifndef COPYPERF_OPTIONS_H
#define COPYPERF_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "measure/engine/params.h"

enum output_format { FORMAT_TABLE, FORMAT_SEED, FORMAT_CSV, FORMAT_JSON };

enum action { ACTION_RUN, ACTION_HELP, ACTION_VERSION, ACTION_LIST };

struct options {
	enum action action;
	char **routines; /* names as given; NULL: every routine available */
	size_t n_routines;
	uint64_t *sizes; /* chunk sizes, in the order measured */
	size_t n_sizes;
	uint64_t total;  /* bytes copied per (routine, chunk) measurement */
	uint64_t buffer; /* bytes in each of the two working buffers */
	enum cache_mode cache;
	uint64_t align_src, align_dst; /* offsets from a page-aligned base */
	unsigned repeat;
	enum output_format format;
	const char *output; /* NULL: stdout */
	int cpu;            /* -1: no pinning */
	bool kernel;        /* measure inside the kernel through /dev/copyperf */
	bool quiet;         /* no progress line on a terminal */
	const char *plot;   /* NULL: no plot; else an .svg or .png file to draw */
	bool counters;      /* hardware counters per point, where the machine has them */
	/* Replay recorded call mixes instead of the chunk sweep (--distribution). */
	char **distributions; /* the -d words as given; NULL: the chunk sweep */
	size_t n_distributions;
	char **working_sets;  /* the -w words as given (default l1,l2) */
	size_t n_working_sets;
	uint64_t seed;        /* draws the call lists */
	bool chained;         /* --chain: each call waits for the one before */
	bool tested;          /* --tested: the caller tests each call's size first */
	/* -j: thread counts as given, 0 standing for "all"; NULL: one thread, as without threads */
	unsigned *threads;
	size_t n_threads;
	enum page_mode pages;
	enum numa_policy numa;
	int numa_node;        /* NUMA_NODE's */
	unsigned given;       /* GIVEN_* of the options given, where a default is not the same */
};

enum {
	GIVEN_SIZES = 1 << 0,
	GIVEN_BUFFER = 1 << 1,
	GIVEN_CACHE = 1 << 2,
	GIVEN_ALIGN = 1 << 3,
	GIVEN_WORKING_SET = 1 << 4,
	GIVEN_SEED = 1 << 5,
};

/*
 * Parses argv into o (defaults first) and checks the options against each
 * other.  Returns 0, or -1 with a one-line reason that names the option in err.
 */
int options_parse(int argc, char **argv, struct options *o, char *err, size_t errlen);
void options_free(struct options *o);

/*
 * The error text for getopt_long's return c, ':' (a value is missing) or '?'
 * (an unknown, ambiguous or misused option), just after it returned it from
 * argv with the options longs.  Every subcommand parses with opterr = 0 and a
 * leading ':' and reports with this.
 */
void option_error(char *err, size_t errlen, int c, char *const *argv, const struct option *longs);

/*
 * arg as a whole number from lo to hi (digits, a minus sign allowed, nothing
 * else).  Returns 0 with *out set, or -1 with err naming opt and the reason.
 */
int option_count(const char *opt, const char *arg, long lo, long hi, long *out, char *err,
		 size_t errlen);

const char *format_name(enum output_format f);

extern const char options_usage[];

#endif
