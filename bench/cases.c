/* SPDX-License-Identifier: MIT */
/*
 * What one measurement of each case does (copybench.h): the timed loops,
 * each starting a line of its own (TIMED_LOOP), and how their copies are
 * checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "all_cpus.h"
#include "copybench.h"
#include "copyperf.h"
#include "measure/call_mixes/call_list.h"
#include "measure/engine/lane.h"
#include "measure/engine/timing.h"

static double now(void)
{
	return (double)now_ns() * 1e-9;
}

void *map_prefaulted(size_t len)
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
void fill_source(unsigned char *p, size_t len)
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
void wrong_copy(const char *who, const char *what, size_t at)
{
	fprintf(stderr, "copybench: %s copied wrongly %s: the first wrong byte at offset %zu\n", who,
		what, at);
	exit(1);
}

/* Whether [0, n) of dst is src's and the next `after` bytes are still 0; else the first wrong one. */
size_t first_wrong(const unsigned char *dst, const unsigned char *src, size_t n, size_t after)
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
struct summary stats_of(const double *v, unsigned n)
{
	struct summary s;

	summarize(v, n, &s);
	return s;
}


/* The seed's walk: chunk after chunk through the 64 KiB buffers, wrapping, data hot. */
TIMED_LOOP double measure_sweep(const struct contender *c, size_t size, const struct buffers *b)
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

TIMED_LOOP double measure_l1(const struct contender *c, size_t size, const struct buffers *b)
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

TIMED_LOOP double measure_chain(const struct contender *c, size_t size, const struct buffers *b)
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

double measure_large(const struct contender *c, size_t size, const struct buffers *b)
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

/*
 * One pass over a row's calls, each after the caller's tests of its size
 * where tested (a constant where it is inlined); seconds per call.
 */
static inline __attribute__((always_inline)) double dist_pass(const struct contender *c,
							      const struct buffers *b, bool tested)
{
	copy_fn volatile call = c->fn;
	double t0 = now();

	if (tested)
		call_list_pass_tested(b->arena, b->calls, call);
	else
		call_list_pass(b->arena, b->calls, call);
	return (now() - t0) / (double)b->calls->n;
}

TIMED_LOOP double measure_dist(const struct contender *c, size_t row, const struct buffers *b)
{
	(void)row;
	return dist_pass(c, b, false);
}

/* The same, each call after the caller's tests of its size (copyperf --tested). */
TIMED_LOOP double measure_dist_tested(const struct contender *c, size_t row,
				      const struct buffers *b)
{
	(void)row;
	return dist_pass(c, b, true);
}

/*
 * One pass as measure_dist's, each call waiting for the last byte of the one
 * before (call_list_pass_chained, as copyperf --chain replays them;
 * chain_zero as in measure_chain).
 */
TIMED_LOOP double measure_dist_chained(const struct contender *c, size_t row,
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
double measure_threads(const struct contender *c, size_t size, const struct buffers *b)
{
	return all_cpus_copy(b->cpus, c->fn, size, THREADS_BYTES) / all_cpus_count(b->cpus);
}

/*
 * The same copy WARM_BLOCK times in a row, so that what it leaves in the
 * cache is what the next one finds; the first of the block is not counted.
 */
TIMED_LOOP double measure_warm(const struct contender *c, size_t size, const struct buffers *b)
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
double measure_lane(const struct contender *c, size_t size, const struct buffers *b)
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
static const struct placement no_page = { "no page", 8, { 1, 8, 0, 4, 1, 8, 2, 16 },
					   { 1, 8, 0, 4, 8, 1, 16, 2 }, true };
#define N_GRID_ROWS (N_REPEAT_SIZES * N_PLACEMENTS) /* every size at every placement */
_Static_assert(N_REPEAT_ROWS == N_GRID_ROWS + 1, "the repeat table's rows, and 0 bytes at no_page");

static size_t repeat_size(size_t row)
{
	return row < N_GRID_ROWS ? repeat_sizes[row / N_PLACEMENTS] : 0;
}

static const struct placement *repeat_placement(size_t row)
{
	return row < N_GRID_ROWS ? &placements[row % N_PLACEMENTS] : &no_page;
}

static const char *repeat_placement_name(size_t row)
{
	return repeat_placement(row)->name;
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

TIMED_LOOP double measure_repeat(const struct contender *c, size_t row,
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

/*
 * The first byte of the destination buffer [dst, dst + len) that is not what
 * copying [s, s + n) to d leaves in a zeroed one, or -1.
 */
static size_t first_wrong_in(const unsigned char *dst, size_t len, const unsigned char *d,
			     const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < len; i++) {
		const unsigned char *p = dst + i;
		/* n first: a no_page row's d is no object's, not to be compared */
		unsigned char want = n && p >= d && p < d + n ? s[p - d] : 0;

		if (*p != want)
			return i;
	}
	return (size_t)-1;
}

/* Ends the run where pair k of placement pl copied size-byte chunks wrongly (at: the byte). */
static void wrong_at_pair(const struct contender *c, size_t size, const struct placement *pl,
			  unsigned k, size_t at)
{
	char what[80];

	snprintf(what, sizeof(what), "at %zu B, source +%u, destination +%u", size, pl->src[k],
		 pl->dst[k]);
	wrong_copy(c->name, what, at);
}

/* Each pair of a repeat row copied once into a zeroed destination page, and checked. */
static void check_repeat(const struct contender *c, size_t row, const struct buffers *b)
{
	const struct placement *pl = repeat_placement(row);
	size_t n = repeat_size(row);

	for (unsigned k = 0; k < pl->n; k++) {
		unsigned char *d;
		const unsigned char *s;
		size_t at = 0;

		repeat_pair(pl, k, b, &d, &s);
		memset(b->dst, 0, REPEAT_BUFFER);
		if (c->fn(d, s, n) == d)
			at = first_wrong_in(b->dst, REPEAT_BUFFER, d, s, n);
		if (at != (size_t)-1)
			wrong_at_pair(c, n, pl, k, at);
	}
}

const struct placed_rows repeat_rows = { repeat_size, repeat_placement_name, check_repeat };

/*
 * sweep-offsets: the seed's walk as the sweep makes it, hot, from other page
 * offsets (copyperf -a S:D), a row timing the walk from each pair of its
 * placement in turn, the sample's copies shared among them. Off a line's
 * start a copy's vectors straddle lines. With the destination a few lines
 * past the source's offset in its page, a forward copy's loads meet the 4 KiB
 * aliases of the stores it has just made (copies that take that for a
 * dependence wait), which some copies leave by copying backward.
 */
static const struct placement offset_placements[] = {
	{ "dst off", 4, { 0, 0, 0, 0 }, { 1, 13, 33, 63 }, false },
	{ "src off", 4, { 1, 13, 33, 63 }, { 0, 0, 0, 0 }, false },
	{ "both off", 4, { 5, 17, 40, 63 }, { 59, 3, 41, 1 }, false },
	{ "dst ahead", 4, { 0, 0, 0, 0 }, { 64, 96, 160, 224 }, false },
};
#define N_OFFSET_PLACEMENTS (sizeof(offset_placements) / sizeof(offset_placements[0]))
static const size_t offset_sizes[] = { SEED_CHUNKS };
_Static_assert(N_OFFSETS_ROWS == sizeof(offset_sizes) / sizeof(offset_sizes[0]) * N_OFFSET_PLACEMENTS,
	       "the sweep-offsets table's rows: every size at every placement");

static size_t offsets_size(size_t row)
{
	return offset_sizes[row / N_OFFSET_PLACEMENTS];
}

static const struct placement *offsets_placement(size_t row)
{
	return &offset_placements[row % N_OFFSET_PLACEMENTS];
}

static const char *offsets_placement_name(size_t row)
{
	return offsets_placement(row)->name;
}

TIMED_LOOP double measure_sweep_offsets(const struct contender *c, size_t row,
					const struct buffers *b)
{
	copy_fn volatile call = c->fn;
	const struct placement *pl = offsets_placement(row);
	size_t size = offsets_size(row), count = SWEEP_BYTES / size;
	double t0 = now();

	for (unsigned k = 0; k < pl->n; k++) {
		unsigned char *d = b->dst + pl->dst[k];
		const unsigned char *s = b->src + pl->src[k];
		size_t off = 0;

		for (size_t i = count * k / pl->n; i < count * (k + 1) / pl->n; i++) {
			call(d + off, s + off, size);
			off += size;
			if (off + size > SEED_BUFFER)
				off = 0;
		}
	}
	return now() - t0;
}

/* One walk through the buffers from each pair of a sweep-offsets row, into a zeroed destination, checked. */
static void check_sweep_offsets(const struct contender *c, size_t row, const struct buffers *b)
{
	const struct placement *pl = offsets_placement(row);
	size_t size = offsets_size(row), n = SEED_BUFFER / size * size;

	for (unsigned k = 0; k < pl->n; k++) {
		unsigned char *d = b->dst + pl->dst[k];
		const unsigned char *s = b->src + pl->src[k];
		size_t at = (size_t)-1;

		memset(b->dst, 0, OFFSETS_BUFFER);
		for (size_t off = 0; off < n && at == (size_t)-1; off += size)
			if (c->fn(d + off, s + off, size) != d + off)
				at = (size_t)(d - b->dst) + off;
		if (at == (size_t)-1)
			at = first_wrong_in(b->dst, OFFSETS_BUFFER, d, s, n);
		if (at != (size_t)-1)
			wrong_at_pair(c, size, pl, k, at);
	}
}

const struct placed_rows sweep_offsets_rows = { offsets_size, offsets_placement_name, check_sweep_offsets };

/* The bytes a table's measurement writes at `size` (not dist's, threads' or a placed table's). */
size_t written(const struct table *t, size_t size)
{
	if (t->measure == measure_chain)
		return (CHAIN_BUFFER - CHAIN_SKEW) / size * size;
	return t->measure == measure_sweep ? SEED_BUFFER / size * size : size;
}

/* Where the bytes written to the destination's start come from in the source. */
size_t source_skew(const struct table *t)
{
	return t->measure == measure_chain ? CHAIN_SKEW : 0;
}

/* Contender c's warm-up, its copy checked: dist against the first contender's arena. */
