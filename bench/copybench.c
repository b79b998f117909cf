/* SPDX-License-Identifier: MIT */
/*
 * make bench: copyperf_memcpy against the C library's memcpy, side by side in
 * one process, each called through a function pointer, interleaved with the
 * C library a second time as an A/A control (in orders where each contender
 * follows each other as often, see round_order), every copy checked,
 * ROUNDS rounds, in PROCS processes one after the other; medians, spread and
 * ratios, a verdict on every row (no loss: at least 1.00x, a tie within the
 * A/A control passing) and on each gain target, then one summary line a table:
 *   sweep       - the seed's walk: chunks of 8 B..64 KiB through 64 KiB buffers, hot
 *   sweep-flush - the same walk with both buffers flushed at each wrap, the
 *                 timer paused (copyperf's default, what `make run` shows)
 *   sweep-cold  - the same walk through buffers of twice the last level each,
 *                 every chunk from memory (copyperf -c cold)
 *   repeat      - 0..64 B copied again and again between the same two pointers,
 *                 at a page's start, inside it, and at its last bytes
 *   chain       - 1..128 B copies appended one after another, each copy's last byte
 *                 read back at once and the next copy waiting for it
 *   l1          - the same bytes copied again and again (L1-resident)
 *   large       - single copies of 8..256 MiB, pages pre-faulted, caches evicted before each
 *   warm        - 4..32 MiB copied again and again (what stays in the LLC)
 *   threads     - every CPU copying at once, each its own buffers again and again,
 *                 1..256 MiB: what the whole machine sustains (aggregate GB/s)
 *   dist        - the shipped call mixes replayed (copyperf -d's call lists), memcpy's
 *                 against copyperf_memcpy and memmove's against copyperf_memmove, in
 *                 the L1 and L2 working sets; dist-llc in the last level as
 *                 llc_probe() finds it (-w SIZE: dist-llc's working set instead),
 *                 and whether the set stayed there while its rows ran (set_reads),
 *                 dist-cold from memory (twice llc_memory_level()); dist-stream one
 *                 call after another through two walks of twice that level
 *                 (copyperf -w stream); dist-chain at L1 and L2, each call waiting
 *                 for the one before (copyperf --chain)
 * Why several processes: where both copies tie, one process's ratio moves
 * from the next one's by more than a tie's margin (code, stack and buffers
 * land elsewhere each time), so a verdict taken from one process is a coin
 * toss. Each process is a
 * fresh exec of this program; the verdict is on the median of their ratios.
 * Usage: copybench [CASE ...] [-r ROUNDS] [-p PROCS] [-c ROUTINE] [-C ROUTINE] [-w SIZE] [-m]
 * (exit 2 on bad input). Without a case: every table. -m: memmove against
 * copyperf_memmove (or -c's) in every table, not only in memmove's mixes.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "all_cpus.h"
#include "bench_design.h"
#include "copyperf.h"
#include "footprint.h"
#include "fresh_process.h"
#include "measure/backends/shared_routine.h"
#include "measure/call_mixes/call_list.h"
#include "measure/call_mixes/distribution_files.h"
#include "measure/call_mixes/workloads.h"
#include "measure/engine/lane.h"
#include "measure/engine/timing.h"
#include "measure/hardware/cache.h"
#include "measure/hardware/llc_probe.h"
#include "stats/mann_whitney.h"
#include "stats/stats.h"
#include "sizes.h"

#define MAX_ROUNDS 101
#define MAX_PROCS 51
#define MAX_SIZES 64 /* rows of a table */
#define SEED_BUFFER (64u * 1024)
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
	{ "read both buffers", footprint_read },
};
static unsigned rounds = 15, procs = 15;
/*
 * -C: the third contender is this routine, not the C library again, so that two
 * builds of a copy meet in the same process and rounds (ratio over control: -c's
 * routine against -C's); no A/A test then, and no verdict.
 */
static char *control_arg;
static char *llc_arg; /* -w: dist-llc's working set instead of the machine's LLC */
static int move_everywhere; /* -m: memmove's contenders in every table, not only its mixes' */

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
	struct lane *lane; /* sweep-flush, sweep-cold: copyperf's own buffers and cache handling */
	unsigned char *junk; /* large: written before each sample, so every copy starts cold */
	const struct call_list *calls; /* dist: the row's calls, offsets into arena */
	unsigned char *arena;
	struct all_cpus *cpus; /* threads: a worker on every CPU */
};

/* One measurement: returns seconds for the case's bytes at `size` (a row, for some). */
typedef double (*measure_fn)(const struct contender *c, size_t size, const struct buffers *b);

/* The seed's walk: chunk after chunk through the 64 KiB buffers, wrapping, data hot. */
static TIMED_LOOP double measure_sweep(const struct contender *c, size_t size, const struct buffers *b)
{
	copy_fn volatile call = c->fn;
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

static TIMED_LOOP double measure_l1(const struct contender *c, size_t size, const struct buffers *b)
{
	copy_fn volatile call = c->fn;
	size_t count = L1_BYTES / size;
	double t0 = now();

	for (size_t i = 0; i < count; i++)
		call(b->dst, b->src, size);
	return now() - t0;
}

/*
 * Each copy appended where the previous one ended, as a decoder appends to
 * its window, from a source a few bytes off its alignment; its last byte
 * read back at once and folded into the next copy's source address (plus 0:
 * chain_zero is 0, but the compiler cannot know): the read waits for the
 * copy's stores, and the next call for the read. The walk crosses pages, so
 * its copies meet every placement in the proportion a decoder's do.
 */
static volatile size_t chain_zero;
#define CHAIN_SKEW 3

static TIMED_LOOP double measure_chain(const struct contender *c, size_t size, const struct buffers *b)
{
	copy_fn volatile call = c->fn;
	size_t count = CHAIN_BYTES / size, zero = chain_zero, off = 0;
	unsigned char last = 0;
	double t0 = now();

	for (size_t i = 0; i < count; i++) {
		call(b->dst + off, b->src + CHAIN_SKEW + off + (last & zero), size);
		last = b->dst[off + size - 1];
		off += size;
		if (off + size + CHAIN_SKEW > CHAIN_BUFFER)
			off = 0;
	}
	return now() - t0 + (double)(last & zero);
}

static double measure_large(const struct contender *c, size_t size, const struct buffers *b)
{
	copy_fn volatile call = c->fn;
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
static TIMED_LOOP double measure_dist(const struct contender *c, size_t row, const struct buffers *b)
{
	copy_fn volatile call = c->fn;
	double t0 = now();

	(void)row;
	call_list_pass(b->arena, b->calls, call);
	return (now() - t0) / (double)b->calls->n;
}

/*
 * The same, each call waiting for the last byte of the one before
 * (call_list_pass_chained, as copyperf --chain replays them; chain_zero as
 * in measure_chain).
 */
static TIMED_LOOP double measure_dist_chained(const struct contender *c, size_t row,
					      const struct buffers *b)
{
	copy_fn volatile call = c->fn;
	size_t zero = chain_zero;
	double t0 = now(), t;
	unsigned char last = call_list_pass_chained(b->arena, b->calls, call, zero, 0);

	(void)row;
	t = now() - t0;
	return (t + (double)(last & zero)) / (double)b->calls->n;
}

/*
 * Every CPU copies its own buffers; the wall time over the number of CPUs,
 * so that the table's GB/s (one CPU's bytes over this) are the machine's.
 */
static double measure_threads(const struct contender *c, size_t size, const struct buffers *b)
{
	return all_cpus_copy(b->cpus, c->fn, size, THREADS_BYTES) / all_cpus_count(b->cpus);
}

/*
 * The same copy WARM_BLOCK times in a row, so that what it leaves in the
 * cache is what the next one finds; the first of the block is not counted.
 */
static TIMED_LOOP double measure_warm(const struct contender *c, size_t size, const struct buffers *b)
{
	copy_fn volatile call = c->fn;
	double t0 = 0;

	for (unsigned i = 0; i < WARM_BLOCK; i++) {
		if (i == 1)
			t0 = now();
		call(b->dst, b->src, size);
	}
	return (now() - t0) / (WARM_BLOCK - 1);
}

/*
 * The seed's walk as copyperf makes it, with its buffers, cache handling and
 * checks (src/measure/engine/lane.c): flushed at each wrap with the timer paused, or
 * through buffers of twice the last level each, from memory. Every
 * measurement's copies are checked.
 */
static double measure_lane(const struct contender *c, size_t size, const struct buffers *b)
{
	const struct workload w = { .chunk = size };
	const struct copyperf_routine r = { .name = c->name, .fn = c->fn };
	struct lane_time t;
	char why[400];

	if (lane_prepare(b->lane, &w, why, sizeof(why)) != MEASURE_OK) {
		fprintf(stderr, "copybench: %s\n", why);
		exit(1);
	}
	lane_timed(b->lane, c->fn, &w, NULL, &t);
	if (lane_verify(b->lane, &r, &w, why, sizeof(why)) != MEASURE_OK) {
		fprintf(stderr, "copybench: %s copied wrongly at %zu B: %s\n", c->name, size, why);
		exit(1);
	}
	return lane_seconds(&t);
}

/*
 * repeat: small copies between the same two pointers again and again, as a
 * program copies a struct into the same place in a loop. Its rows are a size
 * and one of these placements of the pointers in their pages (offsets from a
 * page's start; the page after it is mapped too), each row timing the calls
 * at every pair of its placement in turn. A page's start is where large
 * blocks and page-aligned buffers begin; at its last bytes a copy, or a
 * vector window past it, crosses into the next page. The last row copies 0
 * bytes between pointers in no mapped page, as programs give an empty
 * buffer's: NULL, and the small addresses an empty Rust slice points to.
 */
struct placement {
	const char *name;
	unsigned n;
	uint16_t src[8], dst[8];
	bool no_page; /* src and dst: addresses, not offsets into the buffers */
};
static const struct placement placements[] = {
	{ "page start", 8, { 0, 0, 40, 0, 1000, 0, 2051, 0 }, { 0, 40, 0, 1000, 0, 2051, 0, 3000 }, false },
	{ "in page", 8, { 8, 17, 1000, 3000, 100, 2048, 64, 2500 },
	  { 40, 2051, 3003, 3000, 200, 2048, 128, 700 }, false },
	{ "src end", 8, { 4095, 4094, 4090, 4088, 4081, 4070, 4065, 4093 },
	  { 40, 1000, 2064, 300, 3000, 64, 500, 2000 }, false },
	{ "dst end", 8, { 40, 1000, 2064, 300, 3000, 64, 500, 2000 },
	  { 4095, 4094, 4090, 4088, 4081, 4070, 4065, 4093 }, false },
};
#define N_PLACEMENTS (sizeof(placements) / sizeof(placements[0]))
static const size_t repeat_sizes[] = { 0, 1, 3, 4, 8, 15, 16, 24, 31, 32, 33, 48, 63, 64 };
#define N_REPEAT_SIZES (sizeof(repeat_sizes) / sizeof(repeat_sizes[0]))
#define REPEAT_PAGE 4096u
#define REPEAT_BUFFER (3 * REPEAT_PAGE) /* the page before, the page, the page after */
static const struct placement no_page = { "no page", 8, { 1, 8, 0, 4, 1, 8, 2, 16 },
					   { 1, 8, 0, 4, 8, 1, 16, 2 }, true };
#define N_GRID_ROWS (N_REPEAT_SIZES * N_PLACEMENTS) /* every size at every placement */
#define N_REPEAT_ROWS (N_GRID_ROWS + 1)             /* and 0 bytes at no_page */

static size_t repeat_size(size_t row)
{
	return row < N_GRID_ROWS ? repeat_sizes[row / N_PLACEMENTS] : 0;
}

static const struct placement *repeat_placement(size_t row)
{
	return row < N_GRID_ROWS ? &placements[row % N_PLACEMENTS] : &no_page;
}

/* The k-th pair of placement pl in the buffers of b: *d and *s. */
static void repeat_pair(const struct placement *pl, unsigned k, const struct buffers *b,
			unsigned char **d, const unsigned char **s)
{
	if (pl->no_page) {
		*d = (unsigned char *)(uintptr_t)pl->dst[k];
		*s = (const unsigned char *)(uintptr_t)pl->src[k];
	} else {
		*d = b->dst + REPEAT_PAGE + pl->dst[k];
		*s = b->src + REPEAT_PAGE + pl->src[k];
	}
}

static TIMED_LOOP double measure_repeat(const struct contender *c, size_t row,
					const struct buffers *b)
{
	copy_fn volatile call = c->fn;
	const struct placement *pl = repeat_placement(row);
	size_t n = repeat_size(row), count = REPEAT_CALLS / pl->n;
	double t0 = now();

	for (unsigned k = 0; k < pl->n; k++) {
		unsigned char *d;
		const unsigned char *s;

		repeat_pair(pl, k, b, &d, &s);
		for (size_t i = 0; i < count; i++)
			call(d, s, n);
	}
	return (now() - t0) / (double)(count * pl->n); /* a call's */
}

/* Each pair of a repeat row copied once into a zeroed destination page, and checked. */
static void check_repeat(const struct contender *c, size_t row, const struct buffers *b)
{
	const struct placement *pl = repeat_placement(row);
	size_t n = repeat_size(row);

	for (unsigned k = 0; k < pl->n; k++) {
		unsigned char *d;
		const unsigned char *s;
		size_t at = (size_t)-1;
		char what[80];

		repeat_pair(pl, k, b, &d, &s);
		memset(b->dst, 0, REPEAT_BUFFER);
		if (c->fn(d, s, n) != d)
			at = 0;
		for (size_t i = 0; at == (size_t)-1 && i < REPEAT_BUFFER; i++) {
			const unsigned char *p = b->dst + i;
			/* n first: a no_page row's d is no object's, not to be compared */
			unsigned char want = n && p >= d && p < d + n ? s[p - d] : 0;

			if (*p != want)
				at = i;
		}
		if (at != (size_t)-1) {
			snprintf(what, sizeof(what), "at %zu B, source +%u, destination +%u", n,
				 pl->src[k], pl->dst[k]);
			wrong_copy(c->name, what, at);
		}
	}
}

/* A table of the report: one case's sizes, or call mixes, measured the same way. */
struct table {
	const char *cases; /* the case name that selects it */
	const char *title;
	measure_fn measure;
	size_t buffer, junk;  /* bytes of each buffer; of the eviction area */
	size_t bytes;         /* per sample, rounded down to whole copies; 0: one copy */
	size_t sizes[MAX_SIZES];
	unsigned n_sizes;     /* repeat: its rows, each a size and a placement */
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

/* A table's sizes and their count, counted by the compiler. */
#define SIZES(...) { __VA_ARGS__ }, sizeof((size_t[]){ __VA_ARGS__ }) / sizeof(size_t)
#define SEED_SIZES \
	SIZES(8, 16, 32, 64, 128, 256, 512, KIB(1), KIB(2), KIB(4), KIB(8), KIB(16), KIB(32), KIB(64))

#define KIB(x) ((size_t)(x) << 10)
#define MIB(x) ((size_t)(x) << 20)

/*
 * The rounds of the tables from memory (dist-cold, dist-stream): a pass there
 * walks twice the last level's lines from memory, long enough to be a sample
 * on its own, and so slow that -r's rounds of it would make up most of make
 * bench's time.
 */
#define FAR_ROUNDS 5

static int report_rows(unsigned t);
static int report_l1(unsigned t);
static int report_large(unsigned t);
static int report_threads(unsigned t);
static int report_dist(unsigned t);

static const struct table tables[] = {
	{ .cases = "sweep",
	  .title = "sweep: the seed's walk, chunks 8 B-64 KiB through 64 KiB buffers, hot cache\n"
		   "(both page-aligned: one page offset, as the seed's kmalloc'd buffers and malloc's large\n"
		   " blocks have; other placements: make bench-walk)",
	  .measure = measure_sweep, .buffer = SEED_BUFFER, .bytes = SWEEP_BYTES, .sizes = SEED_SIZES,
	  .report = report_rows, .gm_target = 1.03 },
	{ .cases = "sweep-flush",
	  .title = "sweep-flush: the seed's walk, both buffers flushed at each wrap, timer paused\n"
		   "(copyperf's default, the table make run shows)",
	  .measure = measure_lane, .buffer = SEED_BUFFER, .bytes = SWEEP_BYTES, .sizes = SEED_SIZES,
	  .report = report_rows, .cache = CACHE_FLUSH, .gm_target = 1.05 },
	{ .cases = "sweep-cold",
	  .title = "sweep-cold: the seed's walk through buffers of twice the last level each, from memory\n"
		   "(copyperf -c cold)",
	  .measure = measure_lane, .bytes = SWEEP_BYTES, .sizes = SEED_SIZES, .report = report_rows,
	  .cache = CACHE_COLD, .gm_target = 1.05 },
	{ .cases = "repeat",
	  .title = "repeat: 0-64 B copied again and again between the same two pointers (ns per call),\n"
		   "8 pairs of page offsets a row, in turn: one or both at a page's start, both inside it,\n"
		   "the source or the destination in its last 31 bytes",
	  .measure = measure_repeat, .buffer = REPEAT_BUFFER, .n_sizes = N_REPEAT_ROWS,
	  .report = report_rows },
	{ .cases = "chain",
	  .title = "chain: 1-128 B copies appended one after another, each copy's last byte read back\n"
		   "at once and the next copy's source depending on it (a decoder reading what it just wrote)",
	  .measure = measure_chain, .buffer = CHAIN_BUFFER, .bytes = CHAIN_BYTES,
	  .sizes = SIZES(1, 2, 4, 8, 16, 24, 32, 48, 64, 128), .report = report_rows },
	{ .cases = "l1", .title = "l1: the same bytes copied again and again (L1-resident)",
	  .measure = measure_l1, .buffer = KIB(16), .bytes = L1_BYTES,
	  .sizes = SIZES(2113, 3000, 4096, 8192, 16384), .report = report_l1 },
	{ .cases = "large", .title = "large: single copies, caches evicted before each",
	  .measure = measure_large, .buffer = LARGE_MAX, .junk = JUNK_BYTES,
	  .sizes = SIZES(MIB(8), MIB(16), MIB(32), MIB(64), MIB(128), MIB(256)),
	  .report = report_large },
	{ .cases = "warm",
	  .title = "warm: the same copy again and again (per copy, blocks of 3 after one untimed)",
	  .measure = measure_warm, .buffer = WARM_MAX, .sizes = SIZES(MIB(4), MIB(8), MIB(16), MIB(32)),
	  .report = report_rows },
	{ .cases = "threads",
	  .title = "threads: every CPU copying its own buffers at once (aggregate GB/s)",
	  .measure = measure_threads, .buffer = LARGE_MAX, .bytes = THREADS_BYTES,
	  .sizes = SIZES(MIB(1), MIB(2), MIB(4), MIB(8), MIB(16), MIB(32), MIB(64), MIB(128), MIB(256)),
	  .report = report_threads, .bound = 1 },
	{ .cases = "dist",
	  .title = "dist: memcpy's call mixes replayed, L1 and L2 working sets (ns per call)",
	  .measure = measure_dist, .report = report_dist, .mixes = "memcpy", .wsets = { "l1", "l2" } },
	{ .cases = "dist",
	  .title = "dist: memmove's call mixes replayed, L1 and L2 working sets (ns per call)",
	  .measure = measure_dist, .report = report_dist, .mixes = "memmove", .wsets = { "l1", "l2" } },
	{ .cases = "dist-llc", .title = "dist-llc: the call mixes, LLC working set (ns per call)",
	  .measure = measure_dist, .report = report_rows, .mixes = "memcpy", .wsets = { "llc" },
	  .gm_target = 1.05 },
	{ .cases = "dist-llc", .title = "dist-llc: the memmove mixes, LLC working set (ns per call)",
	  .measure = measure_dist, .report = report_rows, .mixes = "memmove", .wsets = { "llc" },
	  .gm_target = 1.05 },
	{ .cases = "dist-cold", .title = "dist-cold: the call mixes, cold working set (ns per call)",
	  .measure = measure_dist, .report = report_rows, .mixes = "memcpy", .wsets = { "cold" },
	  .max_rounds = FAR_ROUNDS },
	{ .cases = "dist-cold",
	  .title = "dist-cold: the memmove mixes, cold working set (ns per call)",
	  .measure = measure_dist, .report = report_rows, .mixes = "memmove", .wsets = { "cold" },
	  .max_rounds = FAR_ROUNDS },
	{ .cases = "dist-stream",
	  .title = "dist-stream: the call mixes one after another, from memory (copyperf -w stream:\n"
		   "two walks of twice the last level as memory; ns per call)",
	  .measure = measure_dist, .report = report_rows, .mixes = "memcpy", .wsets = { "stream" },
	  .gm_target = 1.10, .max_rounds = FAR_ROUNDS },
	{ .cases = "dist-stream",
	  .title = "dist-stream: the memmove mixes one after another, from memory (copyperf -w stream:\n"
		   "two walks of twice the last level as memory; ns per call)",
	  .measure = measure_dist, .report = report_rows, .mixes = "memmove", .wsets = { "stream" },
	  .gm_target = 1.10, .max_rounds = FAR_ROUNDS },
	{ .cases = "dist-chain",
	  .title = "dist-chain: memcpy's call mixes, each call waiting for the one before (copyperf\n"
		   "--chain: a decoder's copies), L1 and L2 working sets (ns per call)",
	  .measure = measure_dist_chained, .report = report_rows, .mixes = "memcpy",
	  .wsets = { "l1", "l2" } },
	{ .cases = "dist-chain",
	  .title = "dist-chain: memmove's call mixes, each call waiting for the one before (copyperf\n"
		   "--chain: a decoder's copies), L1 and L2 working sets (ns per call)",
	  .measure = measure_dist_chained, .report = report_rows, .mixes = "memmove",
	  .wsets = { "l1", "l2" } },
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
	return mixes[t].move || move_everywhere ? move_contenders : contenders;
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

	if (working_set_calls(l, d, wset_word(t, r % m->n_ws), ws, DIST_SEED, err, sizeof(err))) {
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
	if (t->measure == measure_chain)
		return (CHAIN_BUFFER - CHAIN_SKEW) / size * size;
	return t->measure == measure_sweep ? SEED_BUFFER / size * size : size;
}

/* Where the bytes written to the destination's start come from in the source. */
static size_t source_skew(const struct table *t)
{
	return t->measure == measure_chain ? CHAIN_SKEW : 0;
}

/* Contender c's warm-up, its copy checked: dist against the first contender's arena. */
static void warm_up(const struct table *t, const struct contender *who, unsigned c,
		    const struct buffers *b, size_t size, unsigned char **reference)
{
	size_t n, at;

	if (c == BOUND || t->measure == measure_lane) { /* reads only; checks every copy itself */
		t->measure(&who[c], size, b);
		return;
	}
	if (t->measure == measure_repeat) {
		check_repeat(&who[c], size, b);
		t->measure(&who[c], size, b);
		return;
	}
	if (t->measure == measure_threads) { /* each CPU's own buffers */
		unsigned cpus = all_cpus_count(b->cpus);

		for (unsigned i = 0; i < cpus; i++)
			memset(all_cpus_buffer(b->cpus, i, 1), 0, size + (size + 64 <= t->buffer ? 64 : 0));
		t->measure(&who[c], size, b);
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
	if (!t->mixes) {
		n = written(t, size);
		memset(b->dst, 0, n + (n + 64 <= t->buffer ? 64 : t->buffer - n));
		t->measure(&who[c], size, b);
		at = first_wrong(b->dst, b->src + source_skew(t), n, n + 64 <= t->buffer ? 64 : t->buffer - n);
		if (at != (size_t)-1) {
			char what[48];

			snprintf(what, sizeof(what), "at %zu B", size);
			wrong_copy(who[c].name, what, at);
		}
		return;
	}
	/* a pass over the calls from the same arena for each: the same bytes after it */
	fill_source(b->arena, b->calls->arena);
	t->measure(&who[c], size, b);
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

/* Table t's rounds: -r's, or fewer where a pass of its calls takes long enough alone. */
static unsigned rounds_of(const struct table *t)
{
	return t->max_rounds && t->max_rounds < rounds ? t->max_rounds : rounds;
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
	for (unsigned i = 0; i < rounds_of(t); i++)
		for (unsigned k = 0; k < n; k++) {
			unsigned c = bench_round_order(n, i, k);

			samples[c][i] = t->measure(&who[c], size, b);
		}
	for (unsigned c = 0; c < n; c++)
		r.s[c] = stats_of(samples[c], rounds_of(t));
	return r;
}

/* Measures every row of table t in this process. */
static void measure_table(unsigned t, struct result *out)
{
	const struct table *tb = &tables[t];
	struct buffers b = { 0 };
	struct lane lane;
	struct measure_params lane_params;

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
	if (tb->measure == measure_lane) { /* copyperf's own buffers: as -c flush or -c cold makes them */
		char err[400];

		lane_params = (struct measure_params){ .total = tb->bytes, .buffer = tb->buffer,
						       .cache = tb->cache, .repeat = 1 };
		if (tb->cache == CACHE_COLD)
			lane_params.buffer = cache_cold_bytes();
		if (lane_open(&lane, &lane_params, err, sizeof(err))) {
			fprintf(stderr, "copybench: %s\n", err);
			exit(1);
		}
		b.lane = &lane;
		for (unsigned i = 0; i < tb->n_sizes; i++)
			out[i] = measure_size(tb, contenders_of(t), &b, tb->sizes[i]);
		lane_close(&lane);
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
	for (unsigned i = 0; i < tb->n_sizes; i++) /* repeat: its rows by number */
		out[i] = measure_size(tb, contenders_of(t), &b,
				      tb->measure == measure_repeat ? i : tb->sizes[i]);
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

/*
 * Whether the last level held a dist-llc table's set while its rows ran: in
 * each process, right after them, random reads through a region of the set's
 * size against reads through twice the L2, as llc_probe() reads them. On a
 * guest whose L3 its host's other guests share, a set that the probe found
 * held at the start can stream from memory minutes later, and its rows then
 * measure memory; the table says so beside its rows.
 */
static int measures_llc(unsigned t)
{
	return tables[t].wsets[0] && !strcmp(tables[t].wsets[0], "llc");
}

/*
 * That ratio for table t, in this process (0: not measured: no L2 known, or
 * no memory). Twice the L2 is read once a process, for both tables.
 */
static double set_reads_ratio(unsigned t)
{
	static double ref;
	uint64_t l2 = cache_data_size(2);
	double set = llc_chase_ns(mixes[t].ws[0], NULL);

	if (!ref)
		ref = l2 ? llc_chase_ns(2 * l2, NULL) : -1;
	return ref > 0 && set > 0 ? set / ref : 0;
}

/* A line of its own beside print_raw's rows: "set TABLE RATIO". */
static void print_set_reads(unsigned t)
{
	printf("set %u %a\n", t, set_reads_ratio(t));
}

/* Reads one line of print_raw's ('r') or print_set_reads' ('s'); 0 at the end. */
static int scan_raw(FILE *in, unsigned *t, unsigned *i, struct result *r, double *set)
{
	char line[1024];
	const char *at;
	int used;

	memset(r, 0, sizeof(*r));
	if (!fgets(line, sizeof(line), in))
		return 0;
	if (sscanf(line, "set %u %la", t, set) == 2)
		return 's';
	if (sscanf(line, "%u %u%n", t, i, &used) != 2)
		return 0;
	at = line + used;
	for (unsigned c = 0; c < MAX_CONTENDERS; c++) {
		if (sscanf(at, " %la %la %la%n", &r->s[c].median, &r->s[c].min, &r->s[c].max, &used) != 3)
			return 0;
		at += used;
	}
	return 'r';
}

/* results[table][size][process] */
static struct result results[N_TABLES][MAX_SIZES][MAX_PROCS];
/* set_reads[table][process]: set_reads_ratio's, 0 where not measured */
static double set_reads[N_TABLES][MAX_PROCS];

/* Runs one child (this program, exec'd afresh) and files its report as process p. */
static void run_child(char *const *child_argv, unsigned p, const int *want)
{
	int got[N_TABLES][MAX_SIZES] = { { 0 } };
	pid_t pid;
	FILE *in = fresh_process_start("copybench", child_argv, &pid);
	unsigned t, i;
	struct result r;
	double set;
	int kind;

	while ((kind = scan_raw(in, &t, &i, &r, &set)))
		if (kind == 's' && t < N_TABLES)
			set_reads[t][p] = set;
		else if (kind == 'r' && t < N_TABLES && i < n_rows(t)) {
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

/* Whether table t's measurements are a call's seconds (dist, repeat), not a sample's. */
static int per_call(unsigned t)
{
	return tables[t].mixes || tables[t].measure == measure_repeat;
}

static struct pooled pool_size(unsigned t, unsigned i)
{
	const struct table *tb = &tables[t];
	size_t bytes = per_call(t) ? 0 : tb->bytes ? tb->bytes / tb->sizes[i] * tb->sizes[i] : tb->sizes[i];
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

		if (per_call(t))
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

/* Row i of table t as the report names it: its size, its mix and working set, or its placement. */
static const char *row_label(unsigned t, unsigned i)
{
	static char label[40];

	if (tables[t].mixes)
		return mixes[t].labels[i];
	if (tables[t].measure == measure_repeat)
		snprintf(label, sizeof(label), "%zu B %s", repeat_size(i), repeat_placement(i)->name);
	else
		snprintf(label, sizeof(label), "%zu", tables[t].sizes[i]);
	return label;
}

/* The width of table t's first column. */
static int label_width(unsigned t)
{
	return tables[t].mixes ? 22 : tables[t].measure == measure_repeat ? 16 : 10;
}

/* Prints one table over its sizes; returns each size's pooled figures in out[]. */
static void report_table(unsigned t, struct pooled *out)
{
	const struct table *tb = &tables[t];
	const struct contender *who = contenders_of(t);
	const char *unit = per_call(t) ? "ns per call" : "GB/s = 1e9 B/s";
	int width = label_width(t);

	for (unsigned i = 0; i < n_rows(t); i++)
		out[i] = pool_size(t, i);
	printf("\n%s\n", tb->title);
	if (procs == 1)
		printf("(%u rounds, interleaved; %s, median [min-max] of the rounds;\n"
		       " ratio: the C library's time over copyperf's; control: over its own, an A/A test;\n"
		       " below: ratio under %.3f and under the control's, or the control under %.2f)\n",
		       rounds_of(tb), unit, BENCH_BELOW, BENCH_CONTROL_FLOOR);
	else
		printf("(%u processes x %u rounds, interleaved; %s: median [min-max] of the\n"
		       " processes' medians; ratio: the C library's time over copyperf's, median [min-max]\n"
		       " of the processes' ratios; control: the C library over its own, an A/A test;\n"
		       " p: Mann-Whitney, ratios against controls; below: ratio median under %.3f\n"
		       " and under the control's median, or the control's under %.2f)\n",
		       procs, rounds_of(tb), unit, BENCH_BELOW, BENCH_CONTROL_FLOOR);
	if (control_arg)
		printf(" -C: the control here is instead the C library's time over %s's (not A/A);\n"
		       " ratio over control: %s against it\n",
		       who[CONTROL].name, who[1].name);
	if (tb->bound)
		printf(" bound: the C library's time over that of reading both buffers (no store),\n"
		       " the most a copy with ordinary stores could gain: it reads its source and\n"
		       " must read each destination line before writing it\n");
	printf("%*s  %26s  %26s  %7s  %13s  %7s  %5s%s\n", width,
	       tb->mixes ? "mix" : tb->measure == measure_repeat ? "size, placement" : "size",
	       who[0].name, who[1].name, "ratio", "[min  -  max]", "control", "p",
	       tb->bound ? "    bound" : "");
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

/* What the closing summary says of a table: its report fills it. */
struct judgement {
	int judged;
	unsigned rows, below;
	double gm, worst;
	char worst_row[40];
	char targets[300];  /* every target, "; " between them */
	char missed[300];   /* those not met */
};
static struct judgement judgements[N_TABLES];

/* Table t's name in its verdicts and the summary: its case, and which mixes (and -w's). */
static const char *table_name(unsigned t)
{
	static char name[64];
	const struct table *tb = &tables[t];
	const char *given = llc_arg && tb->mixes && !strcmp(tb->wsets[0], "llc") ? llc_arg : NULL;

	if (!tb->mixes) {
		snprintf(name, sizeof(name), "%s%s", tb->cases, move_everywhere ? " memmove" : "");
		return name;
	}
	snprintf(name, sizeof(name), "%s%s%s %s", tb->cases, given ? " " : "", given ? given : "",
		 mixes[t].move ? "memmove" : "memcpy");
	return name;
}

static void add_text(char *to, size_t len, const char *text)
{
	size_t used = strlen(to);

	snprintf(to + used, len - used, "%s%s", used ? "; " : "", text);
}

/*
 * One target of table t, printed with its verdict ("met", "NOT MET"; with -C
 * nothing is judged) and the figure it was judged on, and kept for the summary.
 */
static int verdict(unsigned t, const char *target, double got, int ok)
{
	struct judgement *j = &judgements[t];
	char line[160];

	snprintf(line, sizeof(line), "%s: %s", table_name(t), target);
	if (got > 0)
		snprintf(line + strlen(line), sizeof(line) - strlen(line), " (%.3fx)", got);
	printf("  %-66s %s\n", line, control_arg ? "not judged (-C)" : ok ? "met" : "NOT MET");
	add_text(j->targets, sizeof(j->targets), target);
	if (!ok && !control_arg)
		add_text(j->missed, sizeof(j->missed), target);
	return ok || control_arg;
}

/*
 * Table t's rows over all: their geometric mean, the lowest, and the verdict
 * every table has, no row below 1.00x (bench_row_below: a tie with the A/A
 * control passes). Returns that verdict.
 */
static int judge_rows(unsigned t, const struct pooled *v)
{
	struct judgement *j = &judgements[t];
	double ratios[MAX_SIZES] = { 0 };
	unsigned low = 0;

	j->judged = 1;
	j->rows = n_rows(t);
	for (unsigned i = 0; i < j->rows; i++) {
		ratios[i] = v[i].ratio.median;
		j->below += (unsigned)v[i].below;
		if (v[i].ratio.median < v[low].ratio.median)
			low = i;
	}
	j->gm = geometric_mean(ratios, j->rows);
	j->worst = v[low].ratio.median;
	snprintf(j->worst_row, sizeof(j->worst_row), "%s", row_label(t, low));
	printf("%10s  geometric mean of the ratios %.3fx; lowest %.3fx (%s); rows below 1.00x: %u\n",
	       "", j->gm, j->worst, j->worst_row, j->below);
	return verdict(t, "none below 1.00x", 0, j->below == 0);
}

/*
 * Beside a dist-llc table's rows: whether the last level held its set while
 * they ran (set_reads), the median over the processes and their range.
 */
static void report_set_reads(unsigned t)
{
	double r[MAX_PROCS];
	unsigned n = 0;
	char set[32], ref[32];
	struct summary s;

	for (unsigned p = 0; p < procs; p++)
		if (set_reads[t][p] > 0)
			r[n++] = set_reads[t][p];
	format_size(mixes[t].ws[0], set, sizeof(set));
	format_size(2 * cache_data_size(2), ref, sizeof(ref));
	if (!n) {
		printf("%10s  the set, %s, right after its rows: not read (no L2 size known, or no memory)\n",
		       "", set);
		return;
	}
	s = stats_of(r, n);
	printf("%10s  the set, %s, right after its rows: a random read %.1fx one of %s [%.1f-%.1f]\n"
	       "%10s  (median of the processes): %s (held: within %.0fx, the last level probe's rule)\n",
	       "", set, s.median, ref, s.min, s.max, "",
	       llc_reads_hold(s.median, 1) ? "held in the last level" : "not held, partly from memory",
	       LLC_HOLDS_RATIO);
}

/* Every row at least 1.00x, and the geometric mean at least the table's target, if it has one. */
static int report_rows(unsigned t)
{
	struct pooled v[MAX_SIZES];
	int ok;
	char what[80];

	report_table(t, v);
	if (measures_llc(t))
		report_set_reads(t);
	ok = judge_rows(t, v);
	if (tables[t].gm_target > 0) {
		snprintf(what, sizeof(what), "geometric mean >= %.2fx", tables[t].gm_target);
		ok &= verdict(t, what, judgements[t].gm, judgements[t].gm >= tables[t].gm_target);
	}
	return ok;
}

static int report_l1(unsigned t)
{
	struct pooled v[MAX_SIZES];
	int ok;

	report_table(t, v);
	ok = judge_rows(t, v);
	return ok & verdict(t, "2113 B >= 1.30x", v[0].ratio.median, v[0].ratio.median >= 1.30);
}

/* The sizes where the C library leaves speed behind: there a gain of at least 1.25x. */
static int report_at_least(unsigned t, const struct pooled *v)
{
	int ok = 1;

	for (unsigned i = 0; i < tables[t].n_sizes; i++) {
		size_t mib = tables[t].sizes[i] >> 20;
		char what[80];

		if (mib != 64 && mib != 128)
			continue;
		snprintf(what, sizeof(what), "%zu MiB >= 1.25x", mib);
		ok &= verdict(t, what, v[i].ratio.median, v[i].ratio.median >= 1.25);
	}
	return ok;
}

static int report_large(unsigned t)
{
	struct pooled v[MAX_SIZES];
	int ok;

	report_table(t, v);
	ok = judge_rows(t, v);
	return ok & report_at_least(t, v);
}

/*
 * Every CPU copying: no loss anywhere, and at 64 and 128 MiB the gain that
 * non-temporal stores give where each core's own memory traffic is the limit:
 * ordinary stores move three bytes of memory traffic per byte copied,
 * non-temporal ones two.
 */
static int report_threads(unsigned t)
{
	struct pooled v[MAX_SIZES];
	int ok;

	report_table(t, v);
	printf("%10s  every CPU copying: %u CPUs\n", "", all_cpus_online());
	ok = judge_rows(t, v);
	return ok & report_at_least(t, v);
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
	double want_gm = mixes[t].move ? 1.40 : 1.50, want_low = mixes[t].move ? 1.05 : 1.10;
	int ok;

	report_table(t, v);
	ok = judge_rows(t, v);
	for (unsigned k = 0; k < mixes[t].n_ws; k++) {
		char what[100];
		double low, gm = mix_summary(t, v, k, &low);

		snprintf(what, sizeof(what), "%s geometric mean >= %.2fx", tables[t].wsets[k], want_gm);
		ok &= verdict(t, what, gm, gm >= want_gm);
		snprintf(what, sizeof(what), "%s lowest >= %.2fx", tables[t].wsets[k], want_low);
		ok &= verdict(t, what, low, low >= want_low);
	}
	return ok;
}

/* The closing summary: one line a table measured, its worst row, geometric mean and verdict. */
static void report_summary(const int *want)
{
	printf("\nsummary: every table's rows and targets (worst row: its median ratio over the processes;\n"
	       " a row is below 1.00x under %.3f unless the A/A control is as low)\n",
	       BENCH_BELOW);
	printf("%-22s %4s  %-22s %7s  %7s  %-9s  %s\n", "table", "rows", "worst row", "ratio", "gm",
	       "verdict", "targets");
	for (unsigned t = 0; t < N_TABLES; t++) {
		const struct judgement *j = &judgements[t];

		if (!want[t] || !j->judged)
			continue;
		printf("%-22s %4u  %-22s %6.3fx  %6.3fx  %-9s  %s\n", table_name(t), j->rows, j->worst_row,
		       j->worst, j->gm, control_arg ? "not judged" : j->missed[0] ? "NOT MET" : "met",
		       j->targets);
		if (j->missed[0] && !control_arg)
			printf("%-22s %4s  %-22s %7s  %7s  %-9s  not met: %s\n", "", "", "", "", "", "",
			       j->missed);
	}
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
	char *child_argv[N_TABLES + 12], *rounds_arg = NULL, *routine_arg = NULL;
	unsigned n_child = 0;
	char err[512];

	for (int i = 1; i < argc; i++) {
		int found = 0;

		if (strcmp(argv[i], "--raw") == 0) { /* a child of a pooled run */
			raw = 1;
			continue;
		}
		if (strcmp(argv[i], "-m") == 0) {
			move_everywhere = 1;
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
			return usage_error(argv[i], "not a case (sweep, sweep-flush, sweep-cold, repeat, chain, l1, "
						    "large, warm, threads, dist, dist-llc, dist-cold, dist-stream, dist-chain) or "
						    "option (-r N, -p N, -c ROUTINE, -C ROUTINE, -w SIZE, -m)");
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
	if (move_everywhere) {
		if (!overlap_ok)
			return usage_error("-m", "memmove's contenders need a routine correct on "
						 "overlapping buffers (-c)");
		child_argv[n_child++] = "-m";
	}
	for (unsigned t = 0; t < N_TABLES; t++) {
		want[t] |= !any; /* every table, where none is named */
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
				if (measures_llc(t))
					print_set_reads(t);
			}
		return 0;
	}
	printf("copyperf_memcpy: %s\n", copyperf_describe());
	if (llc_probe_done()) { /* dist-llc, dist-cold: measured once, the same in every process */
		const struct llc_probe *lp = llc_probe_done();
		char line[400];

		llc_probe_describe(lp, line, sizeof(line));
		printf("%s\n", line);
		llc_probe_hand_down(lp);
	}
	fflush(stdout);
	for (unsigned p = 0; p < procs; p++)
		run_child(child_argv, p, want);
	for (unsigned t = 0; t < N_TABLES; t++)
		if (want[t])
			ok &= tables[t].report(t);
	report_summary(want);
	return ok ? 0 : 1;
}
