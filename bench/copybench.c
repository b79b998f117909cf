/* SPDX-License-Identifier: MIT */
/*
 * make bench: copyperf_memcpy against the C library's memcpy, side by side in
 * one process, each called through a function pointer, interleaved with the
 * C library a second time as an A/A control (in orders where each contender
 * follows each other as often, see round_order), every copy checked once,
 * ROUNDS rounds, in PROCS processes one after the other; medians, spread and
 * ratios for the cases the library's targets name:
 *   sweep  - the seed's walk: chunks of 8 B..64 KiB through 64 KiB buffers, hot
 *   l1     - the same bytes copied again and again (L1-resident)
 *   large  - single copies of 8..256 MiB, pages pre-faulted, caches evicted before each
 *   warm   - 4..32 MiB copied again and again (what stays in the LLC): where
 *            non-temporal stores start to pay; run it with COPYPERF_NT_THRESHOLD
 *            low and high to see the crossover
 *   threads - every CPU copying at once, each its own buffers again and again,
 *            1..256 MiB: what the whole machine sustains (aggregate GB/s)
 *   dist   - the shipped call mixes replayed (copyperf -d's call lists), memcpy's
 *            against copyperf_memcpy and memmove's against copyperf_memmove, in
 *            the L1 and L2 working sets; dist-llc and dist-cold farther out,
 *            from the last level as llc_probe() finds it (-w SIZE: dist-llc's
 *            working set instead)
 * Why several processes: where both copies tie, one process's ratio moves by
 * 1-3% from the next one's (code, stack and buffers land elsewhere each time),
 * so a verdict taken from one process is a coin toss. Each process is a
 * fresh exec of this program; the verdict is on the median of their ratios.
 * Usage: copybench [sweep|l1|large|warm|threads|dist|dist-llc|dist-cold ...] [-r ROUNDS]
 * [-p PROCS] [-c ROUTINE] [-C ROUTINE] [-w SIZE] (exit 2 on bad input). Without a case: sweep, l1, large, threads
 * and dist, with a verdict on each target.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "copyperf.h"
#include "all_cpus.h"
#include "bench_design.h"
#include "footprint.h"
#include "fresh_process.h"
#include "measure/call_list.h"
#include "measure/llc_probe.h"
#include "measure/shared_routine.h"
#include "measure/workloads.h"
#include "stats/mann_whitney.h"
#include "stats/stats.h"
#include "measure/timing.h"

#define MAX_ROUNDS 101
#define MAX_PROCS 51
#define MAX_SIZES 20 /* rows of a table */
#define SEED_BUFFER (64u * 1024)
#define SWEEP_BYTES (4u << 20) /* per measurement: the walk repeated */
#define L1_BYTES (8u << 20)
#define LARGE_MAX (256u << 20)
#define JUNK_BYTES (128u << 20) /* four times this machine's 32 MiB L3 */
#define WARM_MAX (32u << 20)
#define WARM_BLOCK 4
#define THREADS_BYTES (256u << 20) /* per CPU and sample: the copy repeated */
#define DIST_SEED 2008 /* copyperf -d's default: the same calls */

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
static struct contender contenders[MAX_CONTENDERS] = {
	{ "memcpy", memcpy },
	{ "copyperf_memcpy", copyperf_memcpy },
	{ "memcpy", memcpy },
	{ "read both buffers", footprint_read },
};
/* The memmove mixes' contenders; -c replaces the second of both. */
static struct contender move_contenders[MAX_CONTENDERS] = {
	{ "memmove", memmove },
	{ "copyperf_memmove", copyperf_memmove },
	{ "memmove", memmove },
};
static unsigned rounds = 15, procs = 15;
/*
 * -C: the third contender is this routine, not the C library again, so that two
 * builds of a copy meet in the same process and rounds (ratio over control: -c's
 * routine against -C's); no A/A test then, and no verdict.
 */
static char *control_arg;
static char *llc_arg; /* -w: dist-llc's working set instead of the machine's LLC */

static double now(void)
{
	return (double)now_ns() * 1e-9;
}

static void *map(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		fprintf(stderr, "copybench: cannot map %zu bytes\n", len);
		exit(1);
	}
	memset(p, 0x5a, len); /* pre-fault: page faults are not what is measured */
	return p;
}

/* A source's bytes: a period of 251, which no copy's block size divides, and never 0. */
static void fill_source(unsigned char *p, size_t len)
{
	size_t done = len < 251 ? len : 251;

	for (size_t i = 0; i < done; i++)
		p[i] = (unsigned char)(i + 1);
	for (; done < len; done *= 2) /* whole periods, doubling */
		memcpy(p + done, p, done < len - done ? done : len - done);
}

/*
 * Every contender's copy is checked once, after its warm-up: a copy that is
 * fast because it is wrong must not meet a target.  A wrong one ends the run.
 */
static void wrong_copy(const char *who, const char *what, size_t at)
{
	fprintf(stderr, "copybench: %s copied wrongly %s: the first wrong byte at offset %zu\n", who,
		what, at);
	exit(1);
}

/* Whether [0, n) of dst is src's and the next `after` bytes are still 0; else the first wrong one. */
static size_t first_wrong(const unsigned char *dst, const unsigned char *src, size_t n, size_t after)
{
	if (memcmp(dst, src, n)) /* first: arenas of up to 1 GiB */
		for (size_t i = 0; i < n; i++)
			if (dst[i] != src[i])
				return i;
	for (size_t i = n; i < n + after; i++)
		if (dst[i])
			return i;
	return (size_t)-1;
}

/* The project's summary (src/stats/stats.c), as a value. */
static struct summary stats_of(const double *v, unsigned n)
{
	struct summary s;

	summarize(v, n, &s);
	return s;
}

/* ---- what one process measures ------------------------------------------------------- */

struct buffers {
	unsigned char *src, *dst;
	unsigned char *junk; /* large: written before each sample, so every copy starts cold */
	const struct call_list *calls; /* dist: the row's calls, offsets into arena */
	unsigned char *arena;
	struct all_cpus *cpus; /* threads: a worker on every CPU */
};

/* One measurement: returns seconds for the case's bytes at `size`. */
typedef double (*measure_fn)(copy_fn fn, size_t size, const struct buffers *b);

/* The seed's walk: chunk after chunk through the 64 KiB buffers, wrapping, data hot. */
static TIMED_LOOP double measure_sweep(copy_fn fn, size_t size, const struct buffers *b)
{
	copy_fn volatile call = fn;
	size_t count = SWEEP_BYTES / size, off = 0;
	double t0 = now();

	for (size_t i = 0; i < count; i++) {
		call(b->dst + off, b->src + off, size);
		off += size;
		if (off + size > SEED_BUFFER)
			off = 0;
	}
	return now() - t0;
}

static TIMED_LOOP double measure_l1(copy_fn fn, size_t size, const struct buffers *b)
{
	copy_fn volatile call = fn;
	size_t count = L1_BYTES / size;
	double t0 = now();

	for (size_t i = 0; i < count; i++)
		call(b->dst, b->src, size);
	return now() - t0;
}

static double measure_large(copy_fn fn, size_t size, const struct buffers *b)
{
	copy_fn volatile call = fn;
	double t0;

	/*
	 * Interleaved contenders would otherwise inherit each other's cache
	 * state (one leaves dst in L3, the other evicts it): evict everything.
	 */
	memset(b->junk, (int)size, JUNK_BYTES);
	t0 = now();
	call(b->dst, b->src, size);
	return now() - t0;
}

/* One pass over a row's calls; seconds per call. */
static TIMED_LOOP double measure_dist(copy_fn fn, size_t row, const struct buffers *b)
{
	copy_fn volatile call = fn;
	double t0 = now();

	(void)row;
	call_list_pass(b->arena, b->calls, call);
	return (now() - t0) / (double)b->calls->n;
}

/*
 * Every CPU copies its own buffers; the wall time over the number of CPUs,
 * so that the table's GB/s (one CPU's bytes over this) are the machine's.
 */
static double measure_threads(copy_fn fn, size_t size, const struct buffers *b)
{
	return all_cpus_copy(b->cpus, fn, size, THREADS_BYTES) / all_cpus_count(b->cpus);
}

/*
 * The same copy WARM_BLOCK times in a row, so that what it leaves in the
 * cache is what the next one finds; the first of the block is not counted.
 */
static TIMED_LOOP double measure_warm(copy_fn fn, size_t size, const struct buffers *b)
{
	copy_fn volatile call = fn;
	double t0 = 0;

	for (unsigned i = 0; i < WARM_BLOCK; i++) {
		if (i == 1)
			t0 = now();
		call(b->dst, b->src, size);
	}
	return (now() - t0) / (WARM_BLOCK - 1);
}

/* A table of the report: one case's sizes, or call mixes, measured the same way. */
struct table {
	const char *cases; /* the case name(s) that select it */
	const char *title;
	measure_fn measure;
	size_t buffer, junk;  /* bytes of each buffer; of the eviction area */
	size_t bytes;         /* per sample, rounded down to whole copies; 0: one copy */
	size_t sizes[MAX_SIZES];
	unsigned n_sizes;
	int (*report)(unsigned t); /* prints table t's rows and verdicts; 0 if one is not met */
	const char *mixes;    /* dist: the -d word of its distributions, one row per working set */
	const char *wsets[2]; /* dist: the -w words (NULL: fewer) */
	int bound;            /* also time the read of both buffers (footprint.h) */
};

/* A dist table's rows, made when the program starts: the same in every process. */
struct mix_rows {
	struct distribution *dists;
	unsigned n_dists, n_ws;
	uint64_t ws[2];
	char labels[MAX_SIZES][32];
	int move; /* memmove's contenders */
};

/* A table's sizes and their count, counted by the compiler. */
#define SIZES(...) { __VA_ARGS__ }, sizeof((size_t[]){ __VA_ARGS__ }) / sizeof(size_t)

#define KIB(x) ((size_t)(x) << 10)
#define MIB(x) ((size_t)(x) << 20)

static int report_sweep(unsigned t);
static int report_l1(unsigned t);
static int report_large(unsigned t);
static int report_warm(unsigned t);
static int report_threads(unsigned t);
static int report_dist(unsigned t);
static int report_far(unsigned t);

static const struct table tables[] = {
	{ "sweep", "sweep: the seed's walk, chunks 8 B-64 KiB through 64 KiB buffers, hot cache\n"
		   "(both page-aligned: one page offset, as the seed's kmalloc'd buffers and malloc's large\n"
		   " blocks have; other placements: BENCHMARKS.md, nineteenth session)",
	  measure_sweep, SEED_BUFFER, 0, SWEEP_BYTES,
	  SIZES(8, 16, 32, 64, 128, 256, 512, KIB(1), KIB(2), KIB(4), KIB(8), KIB(16), KIB(32),
		KIB(64)),
	  report_sweep, NULL, { NULL }, 0 },
	{ "l1", "l1: the same bytes copied again and again (L1-resident)", measure_l1, KIB(16), 0,
	  L1_BYTES, SIZES(2113, 3000, 4096, 8192, 16384), report_l1, NULL, { NULL }, 0 },
	{ "large", "large: single copies, caches evicted before each", measure_large, LARGE_MAX,
	  JUNK_BYTES, 0, SIZES(MIB(8), MIB(16), MIB(32), MIB(64), MIB(128), MIB(256)),
	  report_large, NULL, { NULL }, 0 },
	{ "warm", "warm: the same copy again and again (per copy, blocks of 3 after one untimed)",
	  measure_warm, WARM_MAX, 0, 0, SIZES(MIB(4), MIB(8), MIB(16), MIB(32)), report_warm,
	  NULL, { NULL }, 0 },
	{ "threads", "threads: every CPU copying its own buffers at once (aggregate GB/s)",
	  measure_threads, LARGE_MAX, 0, THREADS_BYTES,
	  SIZES(MIB(1), MIB(2), MIB(4), MIB(8), MIB(16), MIB(32), MIB(64), MIB(128), MIB(256)),
	  report_threads, NULL, { NULL }, 1 },
	{ "dist", "dist: memcpy's call mixes replayed, L1 and L2 working sets (ns per call)",
	  measure_dist, 0, 0, 0, { 0 }, 0, report_dist, "memcpy", { "l1", "l2" }, 0 },
	{ "dist", "dist: memmove's call mixes replayed, L1 and L2 working sets (ns per call)",
	  measure_dist, 0, 0, 0, { 0 }, 0, report_dist, "memmove", { "l1", "l2" }, 0 },
	{ "dist-llc", "dist-llc: the call mixes, LLC working set (ns per call)", measure_dist, 0,
	  0, 0, { 0 }, 0, report_far, "memcpy", { "llc", NULL }, 0 },
	{ "dist-llc", "dist-llc: the memmove mixes, LLC working set (ns per call)", measure_dist,
	  0, 0, 0, { 0 }, 0, report_far, "memmove", { "llc", NULL }, 0 },
	{ "dist-cold", "dist-cold: the call mixes, cold working set (ns per call)", measure_dist,
	  0, 0, 0, { 0 }, 0, report_far, "memcpy", { "cold", NULL }, 0 },
	{ "dist-cold", "dist-cold: the memmove mixes, cold working set (ns per call)",
	  measure_dist, 0, 0, 0, { 0 }, 0, report_far, "memmove", { "cold", NULL }, 0 },
};
enum { N_TABLES = sizeof(tables) / sizeof(tables[0]) };

static struct mix_rows mixes[N_TABLES];

/* Rows of table t: its sizes, or its mixes times its working sets. */
static unsigned n_rows(unsigned t)
{
	return tables[t].mixes ? mixes[t].n_dists * mixes[t].n_ws : tables[t].n_sizes;
}

static const struct contender *contenders_of(unsigned t)
{
	return mixes[t].move ? move_contenders : contenders;
}

/* Table t's k-th working set as -w words name it: dist-llc's is -w's where given. */
static const char *wset_word(unsigned t, unsigned k)
{
	const char *w = tables[t].wsets[k];

	return llc_arg && w && !strcmp(w, "llc") ? llc_arg : w;
}

/* Reads the distributions of the dist tables and sizes their working sets on this machine. */
static int load_mixes(unsigned t, char *err, size_t errlen)
{
	const struct table *tb = &tables[t];
	struct mix_rows *m = &mixes[t];
	char *word = (char *)tb->mixes;
	size_t n = 0;
	int status = distribution_load(&word, 1, &m->dists, &n, err, errlen);

	m->n_dists = n < MAX_SIZES / 2 ? (unsigned)n : MAX_SIZES / 2;
	for (unsigned i = 0; i < m->n_dists; i++)
		m->move |= m->dists[i].kind == DIST_MEMMOVE;
	for (unsigned k = 0; k < 2 && tb->wsets[k] && !status; k++) {
		m->ws[k] = working_set_bytes(wset_word(t, k), err, errlen);
		status = m->ws[k] ? 0 : -1;
		m->n_ws += status == 0;
	}
	for (unsigned r = 0; r < n_rows(t); r++)
		snprintf(m->labels[r], sizeof(m->labels[r]), "%s %s", m->dists[r / m->n_ws].name,
			 wset_word(t, r % m->n_ws));
	return status;
}

/* One row of a dist table: its calls, drawn as copyperf -d draws them, in a fresh arena. */
static void load_row(unsigned t, unsigned r, struct call_list *l, struct buffers *b)
{
	const struct mix_rows *m = &mixes[t];
	uint64_t ws = m->ws[r % m->n_ws];
	const struct distribution *d = &m->dists[r / m->n_ws];
	char err[256];

	if (call_list_build(l, d, ws, DIST_SEED, call_list_calls(ws, d->mean_size), err, sizeof(err))) {
		fprintf(stderr, "copybench: %s\n", err);
		exit(1);
	}
	b->calls = l;
	b->arena = map(l->arena);
}

/* One size's result in one process: per contender, the median, min and max seconds. */
struct result {
	struct summary s[MAX_CONTENDERS]; /* the bound's is zero where a table has none */
};

/* The bytes a table's measurement writes at `size` (not dist's or threads'). */
static size_t written(const struct table *t, size_t size)
{
	return t->measure == measure_sweep ? SEED_BUFFER / size * size : size;
}

/* Contender c's warm-up, its copy checked: dist against the first contender's arena. */
static void warm_up(const struct table *t, const struct contender *who, unsigned c,
		    const struct buffers *b, size_t size, unsigned char **reference)
{
	size_t n, at;

	if (c == BOUND) { /* reads only */
		t->measure(who[c].fn, size, b);
		return;
	}
	if (t->measure == measure_threads) { /* each CPU's own buffers */
		unsigned cpus = all_cpus_count(b->cpus);

		for (unsigned i = 0; i < cpus; i++)
			memset(all_cpus_buffer(b->cpus, i, 1), 0, size + (size + 64 <= t->buffer ? 64 : 0));
		t->measure(who[c].fn, size, b);
		for (unsigned i = 0; i < cpus; i++) {
			at = first_wrong(all_cpus_buffer(b->cpus, i, 1), all_cpus_buffer(b->cpus, i, 0),
					 size, size + 64 <= t->buffer ? 64 : 0);
			if (at != (size_t)-1) {
				char what[64];

				snprintf(what, sizeof(what), "at %zu B on CPU %u of %u", size, i + 1, cpus);
				wrong_copy(who[c].name, what, at);
			}
		}
		return;
	}
	if (t->measure != measure_dist) {
		n = written(t, size);
		memset(b->dst, 0, n + (n + 64 <= t->buffer ? 64 : t->buffer - n));
		t->measure(who[c].fn, size, b);
		at = first_wrong(b->dst, b->src, n, n + 64 <= t->buffer ? 64 : t->buffer - n);
		if (at != (size_t)-1) {
			char what[48];

			snprintf(what, sizeof(what), "at %zu B", size);
			wrong_copy(who[c].name, what, at);
		}
		return;
	}
	/* a pass over the calls from the same arena for each: the same bytes after it */
	fill_source(b->arena, b->calls->arena);
	t->measure(who[c].fn, size, b);
	if (!*reference) {
		*reference = malloc(b->calls->arena);
		if (!*reference) {
			fprintf(stderr, "copybench: out of memory for a reference arena\n");
			exit(1);
		}
		memcpy(*reference, b->arena, b->calls->arena);
		return;
	}
	at = first_wrong(b->arena, *reference, b->calls->arena, 0);
	if (at != (size_t)-1)
		wrong_copy(who[c].name, "on a call mix (its arena against the first contender's)", at);
}

static struct result measure_size(const struct table *t, const struct contender *who,
				  const struct buffers *b, size_t size)
{
	double samples[MAX_CONTENDERS][MAX_ROUNDS];
	unsigned n = t->bound ? MAX_CONTENDERS : N_CONTENDERS;
	struct result r = { 0 };
	unsigned char *reference = NULL;

	for (unsigned c = 0; c < n; c++)
		warm_up(t, who, c, b, size, &reference);
	free(reference);
	for (unsigned i = 0; i < rounds; i++)
		for (unsigned k = 0; k < n; k++) {
			unsigned c = bench_round_order(n, i, k);

			samples[c][i] = t->measure(who[c].fn, size, b);
		}
	for (unsigned c = 0; c < n; c++)
		r.s[c] = stats_of(samples[c], rounds);
	return r;
}

/* Measures every row of table t in this process. */
static void measure_table(unsigned t, struct result *out)
{
	const struct table *tb = &tables[t];
	struct buffers b = { NULL, NULL, NULL, NULL, NULL, NULL };

	if (tb->mixes) {
		for (unsigned r = 0; r < n_rows(t); r++) {
			struct call_list l;

			load_row(t, r, &l, &b);
			out[r] = measure_size(tb, contenders_of(t), &b, r);
			munmap(b.arena, l.arena);
			call_list_free(&l);
		}
		return;
	}
	if (tb->measure == measure_threads) {
		b.cpus = all_cpus_start(tb->buffer);
		if (b.cpus == NULL)
			exit(1);
		for (unsigned i = 0; i < all_cpus_count(b.cpus); i++) /* after each worker's first touch */
			fill_source(all_cpus_buffer(b.cpus, i, 0), tb->buffer);
	} else {
		b.src = map(tb->buffer);
		b.dst = map(tb->buffer);
		fill_source(b.src, tb->buffer);
	}
	b.junk = tb->junk ? map(tb->junk) : NULL;
	for (unsigned i = 0; i < tb->n_sizes; i++)
		out[i] = measure_size(tb, contenders, &b, tb->sizes[i]);
	if (b.cpus) {
		all_cpus_stop(b.cpus);
	} else {
		munmap(b.src, tb->buffer);
		munmap(b.dst, tb->buffer);
	}
	if (b.junk)
		munmap(b.junk, tb->junk);
}

/* ---- several processes ----------------------------------------------------------------- */

/* A child's report, one line per size: table, size index, then med/min/max of each contender. */
static void print_raw(unsigned t, const struct result *r, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		printf("%u %u", t, i);
		for (unsigned c = 0; c < MAX_CONTENDERS; c++)
			printf(" %a %a %a", r[i].s[c].median, r[i].s[c].min, r[i].s[c].max);
		printf("\n");
	}
}

/* Reads one line of print_raw's; 0 at the end. */
static int scan_raw(FILE *in, unsigned *t, unsigned *i, struct result *r)
{
	memset(r, 0, sizeof(*r));
	if (fscanf(in, "%u %u", t, i) != 2)
		return 0;
	for (unsigned c = 0; c < MAX_CONTENDERS; c++)
		if (fscanf(in, "%la %la %la", &r->s[c].median, &r->s[c].min, &r->s[c].max) != 3)
			return 0;
	return 1;
}

/* results[table][size][process] */
static struct result results[N_TABLES][MAX_SIZES][MAX_PROCS];

/* Runs one child (this program, exec'd afresh) and files its report as process p. */
static void run_child(char *const *child_argv, unsigned p, const int *want)
{
	int got[N_TABLES][MAX_SIZES] = { { 0 } };
	pid_t pid;
	FILE *in = fresh_process_start("copybench", child_argv, &pid);
	unsigned t, i;
	struct result r;

	while (scan_raw(in, &t, &i, &r))
		if (t < N_TABLES && i < n_rows(t)) {
			results[t][i][p] = r;
			got[t][i] = 1;
		}
	if (!fresh_process_end(in, pid)) {
		fprintf(stderr, "copybench: measuring process %u failed\n", p + 1);
		exit(1);
	}
	for (t = 0; t < N_TABLES; t++)
		for (i = 0; want[t] && i < n_rows(t); i++)
			if (!got[t][i]) {
				fprintf(stderr, "copybench: process %u did not report %s row %u\n", p + 1,
					tables[t].cases, i + 1);
				exit(1);
			}
}

/* ---- the report ----------------------------------------------------------------------- */

struct pooled {
	struct summary gbs[2]; /* GB/s of each contender (dist: ns per call): median [min, max] */
	struct summary ratio;  /* over the processes, the C library's time over copyperf's */
	struct summary control; /* the same for the C library against itself */
	struct summary bound;   /* the C library's time over reading both buffers (table's bound) */
	double p;            /* Mann-Whitney p of the ratios against the controls (1: one process) */
	int below;           /* below 1.00x (bench_row_below) */
};

static struct pooled pool_size(unsigned t, unsigned i)
{
	const struct table *tb = &tables[t];
	size_t bytes = tb->mixes ? 0 : tb->bytes ? tb->bytes / tb->sizes[i] * tb->sizes[i] : tb->sizes[i];
	double r[MAX_PROCS], a[MAX_PROCS], o[MAX_PROCS], med[2][MAX_PROCS];
	struct mann_whitney mw = { 0, 1, true };
	struct pooled v;

	for (unsigned p = 0; p < procs; p++) {
		const struct result *res = &results[t][i][p];

		for (unsigned c = 0; c < 2; c++)
			med[c][p] = res->s[c].median;
		r[p] = res->s[0].median / res->s[1].median;
		a[p] = res->s[0].median / res->s[CONTROL].median;
		o[p] = tb->bound ? res->s[0].median / res->s[BOUND].median : 0;
	}
	for (unsigned c = 0; c < 2; c++) {
		struct summary sec = procs == 1 ? results[t][i][0].s[c] : stats_of(med[c], procs);

		if (tb->mixes) /* a call's seconds */
			v.gbs[c] = (struct summary){ .median = sec.median * 1e9, .min = sec.min * 1e9,
						     .max = sec.max * 1e9 };
		else
			v.gbs[c] = (struct summary){ .median = bytes / sec.median / 1e9,
						     .min = bytes / sec.max / 1e9,
						     .max = bytes / sec.min / 1e9 };
	}
	v.ratio = stats_of(r, procs);
	v.control = stats_of(a, procs);
	v.bound = stats_of(o, procs);
	if (procs > 1)
		mann_whitney(r, procs, a, procs, &mw);
	v.p = mw.p;
	/* a ratio that is no number (a time of 0) meets nothing */
	if (!isfinite(v.ratio.median) || !(v.ratio.median > 0))
		v.ratio.median = 0;
	v.below = bench_row_below(v.ratio.median, v.control.median);
	return v;
}

/* Row i of table t as the report names it: its size, or its mix and working set. */
static const char *row_label(unsigned t, unsigned i)
{
	static char size[24];

	if (tables[t].mixes)
		return mixes[t].labels[i];
	snprintf(size, sizeof(size), "%zu", tables[t].sizes[i]);
	return size;
}

/* Prints one table over its sizes; returns each size's pooled figures in out[]. */
static void report_table(unsigned t, struct pooled *out)
{
	const struct table *tb = &tables[t];
	const struct contender *who = contenders_of(t);
	const char *unit = tb->mixes ? "ns per call" : "GB/s = 1e9 B/s";
	int width = tb->mixes ? 22 : 10;

	for (unsigned i = 0; i < n_rows(t); i++)
		out[i] = pool_size(t, i);
	printf("\n%s\n", tb->title);
	if (procs == 1)
		printf("(%u rounds, interleaved; %s, median [min-max] of the rounds;\n"
		       " ratio: the C library's time over copyperf's; control: over its own, an A/A test;\n"
		       " below: ratio under %.3f and under the control's, or the control under %.2f)\n",
		       rounds, unit, BENCH_BELOW, BENCH_CONTROL_FLOOR);
	else
		printf("(%u processes x %u rounds, interleaved; %s: median [min-max] of the\n"
		       " processes' medians; ratio: the C library's time over copyperf's, median [min-max]\n"
		       " of the processes' ratios; control: the C library over its own, an A/A test;\n"
		       " p: Mann-Whitney, ratios against controls; below: ratio median under %.3f\n"
		       " and under the control's median, or the control's under %.2f)\n",
		       procs, rounds, unit, BENCH_BELOW, BENCH_CONTROL_FLOOR);
	if (control_arg)
		printf(" -C: the control here is instead the C library's time over %s's (not A/A);\n"
		       " ratio over control: %s against it\n",
		       who[CONTROL].name, who[1].name);
	if (tb->bound)
		printf(" bound: the C library's time over that of reading both buffers (no store),\n"
		       " the most a copy with ordinary stores could gain: it reads its source and\n"
		       " must read each destination line before writing it\n");
	printf("%*s  %26s  %26s  %7s  %13s  %7s  %5s%s\n", width, tb->mixes ? "mix" : "size", who[0].name,
	       who[1].name, "ratio", "[min  -  max]", "control", "p", tb->bound ? "    bound" : "");
	for (unsigned i = 0; i < n_rows(t); i++) {
		const struct pooled *v = &out[i];

		printf("%*s", width, row_label(t, i));
		for (unsigned c = 0; c < 2; c++)
			printf("  %8.2f [%7.2f-%7.2f]", v->gbs[c].median, v->gbs[c].min, v->gbs[c].max);
		printf("  %6.3fx  [%.3f-%.3f]  %6.3fx  %.3f", v->ratio.median, v->ratio.min, v->ratio.max,
		       v->control.median, v->p);
		if (tb->bound)
			printf("  %6.3fx", v->bound.median);
		printf("%s\n", v->below ? "  below" : "");
	}
}

/* The geometric mean of table t's ratios; whether any size is below 1.00x. */
static double summarize_table(unsigned t, const struct pooled *v, int *any_below)
{
	unsigned n = n_rows(t), below = 0, low = 0;
	double ratios[MAX_SIZES] = { 0 }, gm;

	for (unsigned i = 0; i < n; i++) {
		ratios[i] = v[i].ratio.median;
		below += (unsigned)v[i].below;
		if (v[i].ratio.median < v[low].ratio.median)
			low = i;
	}
	gm = geometric_mean(ratios, n);
	printf("%10s  geometric mean of the ratios %.3fx; lowest %.3fx (%s); rows below 1.00x: %u\n",
	       "", gm, v[low].ratio.median, row_label(t, low), below);
	*any_below = below > 0;
	return gm;
}

static int verdict(const char *what, int ok)
{
	if (control_arg) {
		printf("  %-60s %s\n", what, "not judged (-C)");
		return 1;
	}
	printf("  %-60s %s\n", what, ok ? "met" : "NOT MET");
	return ok;
}

static int report_sweep(unsigned t)
{
	struct pooled v[MAX_SIZES];
	int below;
	double gm;

	report_table(t, v);
	gm = summarize_table(t, v, &below);
	return verdict("sweep: >= 1.00x at every size", !below) &
	       verdict("sweep: geometric mean >= 1.03x", gm >= 1.03);
}

static int report_l1(unsigned t)
{
	struct pooled v[MAX_SIZES];
	int below;
	double gm;

	report_table(t, v);
	gm = summarize_table(t, v, &below);
	return verdict("l1: >= 1.30x at 2113 B", v[0].ratio.median >= 1.30) &
	       verdict("l1: geometric mean >= 1.15x, none below 1.00x", gm >= 1.15 && !below);
}

static int report_large(unsigned t)
{
	struct pooled v[MAX_SIZES];
	int ok = 1;

	report_table(t, v);
	for (unsigned i = 0; i < tables[t].n_sizes; i++) {
		char what[80];
		size_t mib = tables[t].sizes[i] >> 20;
		int faster = mib == 64 || mib == 128; /* where the C library leaves speed behind */

		snprintf(what, sizeof(what), "large: %zu MiB >= %s", mib, faster ? "1.25x" : "1.00x");
		ok &= verdict(what, faster ? v[i].ratio.median >= 1.25 : !v[i].below);
	}
	return ok;
}

static int report_warm(unsigned t)
{
	struct pooled v[MAX_SIZES];

	report_table(t, v);
	return 1; /* informative: no target */
}

/*
 * Every CPU copying: >= 1.05x from 1 MiB, >= 1.40x at 32, 64 and 128 MiB,
 * where ordinary stores move three bytes of memory traffic per byte copied
 * and non-temporal ones two (so 1.5x is the limit).
 */
static int report_threads(unsigned t)
{
	struct pooled v[MAX_SIZES];
	int ok = 1;

	report_table(t, v);
	printf("%10s  every CPU copying: %u CPUs\n", "", all_cpus_online());
	for (unsigned i = 0; i < tables[t].n_sizes; i++) {
		char what[80];
		size_t mib = tables[t].sizes[i] >> 20;
		double want = mib >= 32 && mib <= 128 ? 1.40 : 1.05;

		snprintf(what, sizeof(what), "threads: %zu MiB >= %.2fx", mib, want);
		ok &= verdict(what, v[i].ratio.median >= want);
	}
	return ok;
}

/* The geometric mean and the lowest ratio of the rows of one working set (k) of table t. */
static double mix_summary(unsigned t, const struct pooled *v, unsigned k, double *lowest)
{
	unsigned n = mixes[t].n_dists, step = mixes[t].n_ws;
	double ratios[MAX_SIZES] = { 0 };

	*lowest = v[k].ratio.median;
	for (unsigned d = 0; d < n; d++) {
		ratios[d] = v[d * step + k].ratio.median;
		if (ratios[d] < *lowest)
			*lowest = ratios[d];
	}
	return geometric_mean(ratios, n);
}

/* memcpy's mixes: >= 1.50x in geometric mean, none below 1.10x; memmove's 1.40x and 1.05x. */
static int report_dist(unsigned t)
{
	struct pooled v[MAX_SIZES];
	const char *kind = mixes[t].move ? "memmove" : "memcpy";
	double want_gm = mixes[t].move ? 1.40 : 1.50, want_low = mixes[t].move ? 1.05 : 1.10;
	int ok = 1, below;

	report_table(t, v);
	summarize_table(t, v, &below);
	for (unsigned k = 0; k < mixes[t].n_ws; k++) {
		char what[100];
		double low, gm = mix_summary(t, v, k, &low);

		snprintf(what, sizeof(what), "dist %s %s: geometric mean %.3fx >= %.2fx", kind,
			 tables[t].wsets[k], gm, want_gm);
		ok &= verdict(what, gm >= want_gm);
		snprintf(what, sizeof(what), "dist %s %s: lowest %.3fx >= %.2fx", kind,
			 tables[t].wsets[k], low, want_low);
		ok &= verdict(what, low >= want_low);
	}
	return ok;
}

/* Past the L2: llc >= 1.05x in geometric mean, no mix below 1.00x anywhere. */
static int report_far(unsigned t)
{
	struct pooled v[MAX_SIZES];
	int below;
	double gm;
	char what[100], mean[100];
	int cold = !strcmp(tables[t].wsets[0], "cold");
	const char *given = llc_arg && !cold ? llc_arg : NULL; /* -w's, named in the verdicts */

	report_table(t, v);
	gm = summarize_table(t, v, &below);
	snprintf(what, sizeof(what), "%s%s%s %s: no mix below 1.00x", tables[t].cases,
		 given ? " " : "", given ? given : "", mixes[t].move ? "memmove" : "memcpy");
	if (cold)
		return verdict(what, !below);
	snprintf(mean, sizeof(mean), "dist-llc%s%s: geometric mean >= 1.05x", given ? " " : "",
		 given ? given : "");
	return verdict(what, !below) & verdict(mean, gm >= 1.05);
}

static int usage_error(const char *arg, const char *why)
{
	fprintf(stderr, "copybench: %s: %s\n", arg, why);
	return 2;
}

/*
 * -c's or -C's routine: a registry name, or FILE:SYMBOL[:overlap] from a shared
 * object (another build of the library, say). NULL, the error printed, if none.
 */
static const struct copyperf_routine *routine_named(const char *option, const char *name)
{
	char why[400];
	const struct copyperf_routine *r = shared_routine_named(name, why, sizeof(why));

	if (r == NULL)
		fprintf(stderr, "copybench: %s %s\n", option, why);
	return r;
}

static int parse_count(const char *arg, unsigned lo, unsigned hi, unsigned *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || v < lo || v > hi)
		return 0;
	*out = (unsigned)v;
	return 1;
}

int main(int argc, char **argv)
{
	int want[N_TABLES] = { 0 }, any = 0, raw = 0, ok = 1, overlap_ok = 1;
	char *child_argv[N_TABLES + 11], *rounds_arg = NULL, *routine_arg = NULL;
	unsigned n_child = 0;
	char err[512];

	for (int i = 1; i < argc; i++) {
		int found = 0;

		if (strcmp(argv[i], "--raw") == 0) { /* a child of a pooled run */
			raw = 1;
			continue;
		}
		if ((strcmp(argv[i], "-r") == 0 || strcmp(argv[i], "-p") == 0 || strcmp(argv[i], "-c") == 0 ||
		     strcmp(argv[i], "-C") == 0 || strcmp(argv[i], "-w") == 0) &&
		    i + 1 == argc)
			return usage_error(argv[i], "needs a value");
		if (strcmp(argv[i], "-r") == 0) {
			if (!parse_count(argv[++i], 3, MAX_ROUNDS, &rounds))
				return usage_error(argv[i], "rounds (-r) must be 3..101");
			rounds_arg = argv[i];
			continue;
		}
		if (strcmp(argv[i], "-p") == 0) {
			if (!parse_count(argv[++i], 1, MAX_PROCS, &procs))
				return usage_error(argv[i], "processes (-p) must be 1..51");
			continue;
		}
		if (strcmp(argv[i], "-w") == 0) {
			llc_arg = argv[++i];
			if (!working_set_bytes(llc_arg, err, sizeof(err)))
				return usage_error(llc_arg, "not a working set (-w): a size such as 16M");
			continue;
		}
		if (strcmp(argv[i], "-c") == 0 || strcmp(argv[i], "-C") == 0) {
			int slot = argv[i][1] == 'c' ? 1 : CONTROL;
			const struct copyperf_routine *r = routine_named(argv[i], argv[i + 1]);

			if (r == NULL)
				return 2;
			i++;
			contenders[slot].name = move_contenders[slot].name = r->name;
			contenders[slot].fn = move_contenders[slot].fn = r->fn;
			*(slot == 1 ? &routine_arg : &control_arg) = argv[i];
			overlap_ok &= (r->flags & COPYPERF_OVERLAP_OK) != 0;
			continue;
		}
		for (unsigned t = 0; t < N_TABLES; t++)
			if (strcmp(argv[i], tables[t].cases) == 0)
				want[t] = found = any = 1;
		if (!found)
			return usage_error(argv[i], "not a case (sweep, l1, large, warm, threads, dist, "
						    "dist-llc, dist-cold) or option (-r N, -p N, -c ROUTINE, -C ROUTINE, -w SIZE)");
	}
	/* What each measuring process is told: the same, once each, and --raw. */
	child_argv[n_child++] = argv[0];
	child_argv[n_child++] = "--raw";
	if (rounds_arg) {
		child_argv[n_child++] = "-r";
		child_argv[n_child++] = rounds_arg;
	}
	if (routine_arg) {
		child_argv[n_child++] = "-c";
		child_argv[n_child++] = routine_arg;
	}
	if (control_arg) {
		child_argv[n_child++] = "-C";
		child_argv[n_child++] = control_arg;
	}
	if (llc_arg) {
		child_argv[n_child++] = "-w";
		child_argv[n_child++] = llc_arg;
	}
	for (unsigned t = 0; t < N_TABLES; t++) {
		/* warm and the far mixes only when asked for */
		want[t] |= !any && (t < 3 || !strcmp(tables[t].cases, "threads") ||
				    !strcmp(tables[t].cases, "dist"));
		if (want[t] && (t == 0 || strcmp(tables[t].cases, tables[t - 1].cases)))
			child_argv[n_child++] = (char *)tables[t].cases;
		if (want[t] && tables[t].mixes && load_mixes(t, err, sizeof(err))) {
			fprintf(stderr, "copybench: %s\n", err);
			return 1;
		}
		/* as copyperf -d: a routine wrong on overlapping buffers sits out memmove's mixes */
		if (want[t] && mixes[t].move && !overlap_ok) {
			want[t] = 0;
			if (!raw)
				printf("%s: not measured, %s is not correct on overlapping buffers\n",
				       tables[t].cases, contenders[1].name);
		}
	}
	child_argv[n_child] = NULL;

	if (raw) {
		for (unsigned t = 0; t < N_TABLES; t++)
			if (want[t]) {
				struct result r[MAX_SIZES];

				measure_table(t, r);
				print_raw(t, r, n_rows(t));
			}
		return 0;
	}
	printf("copyperf_memcpy: %s\n", copyperf_describe());
	if (llc_probe_done()) { /* dist-llc, dist-cold: measured once, the same in every process */
		const struct llc_probe *lp = llc_probe_done();
		char line[400];

		llc_probe_describe(lp, line, sizeof(line));
		printf("%s\n", line);
		snprintf(line, sizeof(line), "%llu", (unsigned long long)lp->size);
		setenv("COPYPERF_LLC", line, 1);
	}
	fflush(stdout);
	for (unsigned p = 0; p < procs; p++)
		run_child(child_argv, p, want);
	for (unsigned t = 0; t < N_TABLES; t++)
		if (want[t])
			ok &= tables[t].report(t);
	return ok ? 0 : 1;
}
