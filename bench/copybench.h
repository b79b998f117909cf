/* SPDX-License-Identifier: MIT */
/*
 * copybench, make bench's engine: what its parts share.
 *   copybench.c  - the command line, then the run: the measuring processes, the report
 *   cases.c      - what one measurement of each case does, and the check of its copies
 *   tables.c     - the tables: each one's case, rows (sizes or call mixes) and targets
 *   processes.c  - one process measuring its tables; the fresh processes gathered
 *   verdicts.c   - the report: rows pooled over the processes, verdicts, the summary
 */
#ifndef COPYBENCH_H
#define COPYBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "measure/engine/params.h"
#include "stats/stats.h"

#define MAX_ROUNDS 101
#define MAX_PROCS 51
#define MAX_SIZES 64 /* rows of a table */
#define MAX_TABLES 32
#define SEED_BUFFER (64u * 1024)
/* The seed's chunk sizes, 8 B to 64 KiB, doubling: the sweeps' rows. */
#define SEED_CHUNKS 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536
#define SWEEP_BYTES (4u << 20) /* per measurement: the walk repeated */
#define L1_BYTES (8u << 20)
#define CHAIN_BYTES (256u << 10) /* per measurement of the chain table */
#define CHAIN_BUFFER ((size_t)8 << 10) /* its walk: two pages, L1-resident */
#define LARGE_MAX (256u << 20)
#define JUNK_BYTES (128u << 20) /* four times this machine's 32 MiB L3 */
#define WARM_MAX (32u << 20)
#define WARM_BLOCK 4
#define THREADS_BYTES (256u << 20) /* per CPU and sample: the copy repeated */
#define DIST_SEED 2008 /* copyperf -d's default: the same calls */
#define REPEAT_CALLS 65536 /* per sample of a repeat row, over its placements */
#define REPEAT_PAGE 4096u
#define REPEAT_BUFFER (3 * REPEAT_PAGE) /* the page before, the page, the page after */
#define N_REPEAT_ROWS (14 * 4 + 1) /* every size at every placement, and 0 bytes at no page */
#define OFFSETS_BUFFER (SEED_BUFFER + 4096u) /* the seed's walk, and room for its placements */
#define N_OFFSETS_ROWS (14 * 4) /* sweep-offsets: the seed's sizes at each placement */

typedef void *(*copy_fn)(void *, const void *, size_t);

struct contender {
	const char *name;
	copy_fn fn;
};

/*
 * The third is the first again: its ratio to the first (an A/A test) is how
 * far two identical copies measure apart, the yardstick for a tie.
 */
enum { N_CONTENDERS = 3, CONTROL = 2, BOUND = 3, MAX_CONTENDERS = 4 };
extern struct contender contenders[MAX_CONTENDERS];
/* The memmove mixes' contenders; -c replaces the second of both. */
extern struct contender move_contenders[MAX_CONTENDERS];

/* The command line's: rounds a process, processes, and the options below. */
extern unsigned rounds, procs;
/*
 * -C: the third contender is this routine, not the C library again, so that two
 * builds of a copy meet in the same process and rounds (ratio over control: -c's
 * routine against -C's); no A/A test then, and no verdict.
 */
extern char *control_arg;
extern char *llc_arg; /* -w: dist-llc's working set instead of the machine's LLC */
extern int move_everywhere; /* -m: memmove's contenders in every table, not only its mixes' */

/* ---- cases.c: what one measurement does ------------------------------------------------ */

struct buffers {
	unsigned char *src, *dst;
	struct lane *lane; /* sweep-flush, sweep-cold: copyperf's own buffers and cache handling */
	unsigned char *junk; /* large: written before each sample, so every copy starts cold */
	const struct call_list *calls; /* dist: the row's calls, offsets into arena */
	unsigned char *arena;
	struct all_cpus *cpus; /* threads: a worker on every CPU */
};

/* One measurement: returns seconds for the case's bytes at `size` (a row, for some). */
typedef double (*measure_fn)(const struct contender *c, size_t size, const struct buffers *b);

/* Each case's measurement; a table names its case by one of these. */
double measure_sweep(const struct contender *c, size_t size, const struct buffers *b);
double measure_l1(const struct contender *c, size_t size, const struct buffers *b);
double measure_chain(const struct contender *c, size_t size, const struct buffers *b);
double measure_large(const struct contender *c, size_t size, const struct buffers *b);
double measure_dist(const struct contender *c, size_t row, const struct buffers *b);
double measure_dist_chained(const struct contender *c, size_t row, const struct buffers *b);
double measure_dist_tested(const struct contender *c, size_t row, const struct buffers *b);
double measure_threads(const struct contender *c, size_t size, const struct buffers *b);
double measure_warm(const struct contender *c, size_t size, const struct buffers *b);
double measure_lane(const struct contender *c, size_t size, const struct buffers *b);
double measure_repeat(const struct contender *c, size_t row, const struct buffers *b);
double measure_sweep_offsets(const struct contender *c, size_t row, const struct buffers *b);

/* len bytes of fresh memory, every page touched; exits when there is none. */
void *map_prefaulted(size_t len);
/* A source's bytes: a period of 251, which no copy's block size divides, and never 0. */
void fill_source(unsigned char *p, size_t len);
/* Ends the run: contender who copied wrongly (what: where), at byte at. */
void wrong_copy(const char *who, const char *what, size_t at);
/* Whether [0, n) of dst is src's and the next `after` bytes are still 0; else the first wrong one. */
size_t first_wrong(const unsigned char *dst, const unsigned char *src, size_t n, size_t after);
/* The project's summary (src/stats/stats.c), as a value. */
struct summary stats_of(const double *v, unsigned n);

/*
 * The rows of a table that places its pointers (repeat, sweep-offsets): each row a size
 * and a placement, pairs of offsets into the pointers' pages that the row's
 * measurement takes in turn; the measurement is given the row's number.
 */
struct placed_rows {
	size_t (*size)(size_t row);
	const char *(*placement)(size_t row); /* the placement's name */
	/* Each pair of the row copied once into a zeroed destination and checked; exits if wrong. */
	void (*check)(const struct contender *c, size_t row, const struct buffers *b);
};
extern const struct placed_rows repeat_rows, sweep_offsets_rows;
/* The bytes a table's measurement writes at `size` (not dist's, threads' or a placed table's). */
struct table;
size_t written(const struct table *t, size_t size);
/* Where the bytes written to the destination's start come from in the source. */
size_t source_skew(const struct table *t);

/* ---- tables.c: the tables --------------------------------------------------------------- */

/* A table of the report: one case's sizes, or call mixes, measured the same way. */
struct table {
	const char *cases; /* the case name that selects it */
	const char *title;
	measure_fn measure;
	size_t buffer, junk;  /* bytes of each buffer; of the eviction area */
	size_t bytes;         /* per sample, rounded down to whole copies; 0: one copy */
	size_t sizes[MAX_SIZES];
	unsigned n_sizes;     /* where placed: its rows, each a size and a placement */
	const struct placed_rows *placed; /* repeat, sweep-offsets: the rows' sizes and placements */
	int (*report)(unsigned t); /* prints table t's rows and verdicts; 0 if one is not met */
	const char *mixes;    /* dist: the -d word of its distributions, one row per working set */
	const char *wsets[2]; /* dist: the -w words (NULL: fewer) */
	int bound;            /* also time the read of both buffers (footprint.h) */
	enum cache_mode cache; /* measure_lane's: flush or cold */
	double gm_target;     /* report_rows and report_far: the geometric mean's; 0: none */
	unsigned max_rounds;  /* at most this many rounds (0: -r's): a pass from memory is long */
};

/* A dist table's rows, made when the program starts: the same in every process. */
struct mix_rows {
	struct distribution *dists;
	unsigned n_dists, n_ws;
	uint64_t ws[2];
	char labels[MAX_SIZES][32];
	int move; /* memmove's contenders */
};

extern const struct table tables[];
extern const unsigned n_tables;
extern struct mix_rows mixes[MAX_TABLES];

/* Rows of table t: its sizes, or its mixes times its working sets. */
unsigned n_rows(unsigned t);
const struct contender *contenders_of(unsigned t);
/* Table t's k-th working set as -w words name it: dist-llc's is -w's where given. */
const char *wset_word(unsigned t, unsigned k);
/* Reads the distributions of the dist tables and sizes their working sets on this machine. */
int load_mixes(unsigned t, char *err, size_t errlen);
/* One row of a dist table: its calls, drawn as copyperf -d draws them, in a fresh arena. */
void load_row(unsigned t, unsigned r, struct call_list *l, struct buffers *b);
/* Table t's rounds: -r's, or fewer where a pass of its calls takes long enough alone. */
unsigned rounds_of(const struct table *t);
/* Whether table t is measured in the last level (dist-llc), where set_reads says if it held. */
int measures_llc(unsigned t);

/* ---- processes.c: measuring ------------------------------------------------------------- */

/* One size's result in one process: per contender, the median, min and max seconds. */
struct result {
	struct summary s[MAX_CONTENDERS]; /* the bound's is zero where a table has none */
};

/* Measures every row of table t in this process. */
void measure_table(unsigned t, struct result *out);
/* A child's report, one line per size: table, size index, then med/min/max of each contender. */
void print_raw(unsigned t, const struct result *r, unsigned n);
/* A line of its own beside print_raw's rows: "set TABLE RATIO" (set_reads). */
void print_set_reads(unsigned t);
/* Runs one child (this program, exec'd afresh) and files its report as process p. */
void run_child(char *const *child_argv, unsigned p, const int *want);

/* results[table][size][process], as the children reported them */
extern struct result results[MAX_TABLES][MAX_SIZES][MAX_PROCS];
/* set_reads[table][process]: the set's random read over twice the L2's, 0 where not measured */
extern double set_reads[MAX_TABLES][MAX_PROCS];

/* ---- verdicts.c: the report ------------------------------------------------------------- */

/* Each prints table t's rows and verdicts; 0 if one is not met. */
int report_rows(unsigned t);
int report_l1(unsigned t);
int report_large(unsigned t);
int report_threads(unsigned t);
int report_dist(unsigned t);
/* The closing summary: one line a table measured, its worst row, geometric mean and verdict. */
void report_summary(const int *want);

#endif
