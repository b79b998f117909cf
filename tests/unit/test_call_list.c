/* SPDX-License-Identifier: MIT */
/*
 * How a replay's calls are drawn: the recorded proportions, the alignments
 * asked for, inside their sides, memmove's overlaps as often as recorded, the
 * same calls from the same seed and others from another, and no order a
 * branch predictor could learn.  A stream's calls one after another through
 * its sides, to the span's end, as aligned and as overlapping as drawn.  A
 * chained pass's calls each take the byte read back from the one before.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "measure/call_mixes/call_list.h"

#define N 65536

/* A distribution built in memory: sizes and alignments with their probabilities. */
struct made {
	struct distribution d;
	struct dist_value sizes[8], aligns[8];
};

static void make(struct made *m, enum dist_kind kind, double overlap, const uint64_t *sizes,
		 const double *ps, size_t n_sizes, const uint64_t *aligns, size_t n_aligns)
{
	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < n_sizes; i++) {
		m->sizes[i] = (struct dist_value){ sizes[i], ps[i], 1, 1 };
		m->d.mean_size += (double)sizes[i] * ps[i];
	}
	for (size_t i = 0; i < n_aligns; i++)
		m->aligns[i] = (struct dist_value){ aligns[i], 1.0 / (double)n_aligns, 3, 1 };
	m->d.name = m->d.path = "made";
	m->d.kind = kind;
	m->d.sizes = m->sizes;
	m->d.n_sizes = n_sizes;
	m->d.aligns = m->aligns;
	m->d.n_aligns = n_aligns;
	m->d.overlap = overlap;
	m->d.max_size = sizes[n_sizes - 1];
	m->d.largest = &m->sizes[n_sizes - 1];
}

static const uint64_t sizes[] = { 0, 8, 100, 3000 };
static const double ps[] = { 0.1, 0.5, 0.3, 0.1 };
static const uint64_t aligns[] = { 1, 8, 64 };

static void build(struct call_list *l, const struct distribution *d, uint64_t ws, uint64_t seed)
{
	char err[256];

	assert_int_equal(call_list_build(l, d, ws, seed, N, err, sizeof(err)), 0);
}

static void test_proportions_and_sides(void **state)
{
	struct made m;
	struct call_list l;
	size_t count[4] = { 0 };

	(void)state;
	make(&m, DIST_MEMCPY, 0, sizes, ps, 4, aligns, 3);
	build(&l, &m.d, 16384, 1);
	assert_int_equal(l.n, N);
	assert_true(l.dst_side >= l.src_side + l.side + 4096); /* a page between the sides */
	for (size_t i = 0; i < l.n; i++) {
		const struct call *c = &l.calls[i];
		size_t k = 0;

		while (k < 4 && sizes[k] != c->size)
			k++;
		assert_true(k < 4);
		count[k]++;
		/* inside their sides, the source side's and the destination side's */
		assert_true(c->src >= l.src_side && c->src + c->size <= l.src_side + l.side);
		assert_true(c->dst >= l.dst_side && c->dst + c->size <= l.dst_side + l.side);
		/* calls that fit start inside the working set's half */
		if (c->size + 64 <= l.span)
			assert_true(c->src - l.src_side + c->size <= l.span);
	}
	/* each size its share of N, as nearly as whole calls can hold it */
	for (size_t k = 0; k < 4; k++)
		assert_true(count[k] + 1 >= (size_t)(ps[k] * N) && count[k] <= (size_t)(ps[k] * N) + 1);
	assert_true(l.bytes == count[1] * 8 + count[2] * 100 + count[3] * 3000);
	call_list_free(&l);
}

/* The largest power of two dividing the offset is the alignment asked for (64: at least). */
static void test_alignments(void **state)
{
	struct made m;
	struct call_list l;
	size_t seen[65] = { 0 };

	(void)state;
	make(&m, DIST_MEMCPY, 0, sizes, ps, 4, aligns, 3);
	build(&l, &m.d, 65536, 2);
	for (size_t i = 0; i < l.n; i++) {
		uint32_t off[2] = { l.calls[i].src, l.calls[i].dst };

		for (int k = 0; k < 2; k++) {
			uint32_t low = off[k] & -off[k];

			assert_true(low == 1 || low == 8 || low >= 64);
			seen[low >= 64 ? 64 : low]++;
		}
	}
	/* each a third of the pointers, within a few percent */
	for (int a = 1; a <= 64; a *= 8)
		assert_true(seen[a] > 2 * N * 0.30 && seen[a] < 2 * N * 0.37);
	call_list_free(&l);
}

static void test_memmove_overlaps(void **state)
{
	static const uint64_t msizes[] = { 16, 200 };
	static const double mps[] = { 0.5, 0.5 };
	struct made m;
	struct call_list l;
	size_t overlapping = 0, backward = 0;

	(void)state;
	make(&m, DIST_MEMMOVE, 0.25, msizes, mps, 2, aligns, 3);
	build(&l, &m.d, 16384, 3);
	assert_int_equal(l.src_side, l.dst_side); /* one buffer */
	for (size_t i = 0; i < l.n; i++) {
		const struct call *c = &l.calls[i];

		assert_true(c->src >= l.src_side && c->src + c->size <= l.src_side + l.side);
		assert_true(c->dst >= l.dst_side && c->dst + c->size <= l.dst_side + l.side);
		if (c->src < c->dst + c->size && c->dst < c->src + c->size) {
			overlapping++;
			backward += c->dst > c->src; /* memmove must copy these from the end */
		}
	}
	assert_int_equal(overlapping, l.overlapping);
	assert_true(overlapping > N * 0.23 && overlapping < N * 0.27);
	assert_true(backward > overlapping * 0.4 && backward < overlapping * 0.6);
	call_list_free(&l);
}

static void test_seed_repeats_and_varies(void **state)
{
	struct made m;
	struct call_list a, b, c;
	size_t same_next = 0;

	(void)state;
	make(&m, DIST_MEMCPY, 0, sizes, ps, 4, aligns, 3);
	build(&a, &m.d, 16384, 7);
	build(&b, &m.d, 16384, 7);
	build(&c, &m.d, 16384, 8);
	assert_memory_equal(a.calls, b.calls, N * sizeof(*a.calls));
	assert_true(memcmp(a.calls, c.calls, N * sizeof(*a.calls)) != 0);
	assert_true(a.bytes == c.bytes); /* the same mix, in another order */
	/* shuffled: a size is followed by the same size about as often as its share says */
	for (size_t i = 1; i < a.n; i++)
		same_next += a.calls[i].size == a.calls[i - 1].size;
	assert_true(same_next < N * (0.01 + 0.25 + 0.09 + 0.01) * 1.1);
	call_list_free(&a);
	call_list_free(&b);
	call_list_free(&c);
}

static void test_size_too_large(void **state)
{
	static const uint64_t huge[] = { 8, (1ull << 30) + 1 };
	static const double hp[] = { 0.5, 0.5 };
	struct made m;
	struct call_list l;
	char err[256];

	(void)state;
	make(&m, DIST_MEMCPY, 0, huge, hp, 2, aligns, 3);
	m.sizes[1].line = 1;
	m.sizes[1].column = 7;
	assert_int_equal(call_list_build(&l, &m.d, 16384, 1, 16, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "made:1:7: size 1073741825 is larger than the working set allows"));
}

/* A stream: two walks of 16 MiB each, the alignments 8 and 64 so that each shows. */
#define STREAM_WS (32u << 20)
static const uint64_t stream_aligns[] = { 8, 64 };
#define STREAM_MAX_ALIGN 64

static void build_stream(struct call_list *l, const struct distribution *d, uint64_t ws,
			 uint64_t seed)
{
	char err[256];

	if (call_list_build_stream(l, d, ws, seed, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(l->layout, CALLS_STREAM);
	assert_true(l->n > 0 && l->n <= CALL_LIST_STREAM_CALLS);
}

/* Whether off is a multiple of one of the alignments a stream's calls draw. */
static bool aligned_as_drawn(uint64_t off)
{
	for (size_t k = 0; k < sizeof(stream_aligns) / sizeof(stream_aligns[0]); k++)
		if (off % stream_aligns[k] == 0)
			return true;
	return false;
}

/* at starts at or after end, the previous call's, and less than the largest alignment past it. */
static void assert_next(uint64_t at, uint64_t end)
{
	if (at < end || at >= end + STREAM_MAX_ALIGN)
		fail_msg("a call at %llu after one that ended at %llu", (unsigned long long)at,
			 (unsigned long long)end);
}

/*
 * memcpy: each source right after the previous source, each destination right
 * after the previous destination, as aligned as drawn, inside their sides, the
 * sizes in the recorded proportions and the walk at the span's end.
 */
static void test_stream_memcpy(void **state)
{
	struct made m;
	struct call_list l;
	size_t count[4] = { 0 }, at64 = 0;
	uint64_t src_end = 0, dst_end = 0;

	(void)state;
	make(&m, DIST_MEMCPY, 0, sizes, ps, 4, stream_aligns, 2);
	build_stream(&l, &m.d, STREAM_WS, 1);
	assert_true(l.span == STREAM_WS / 2);
	assert_true(l.dst_side >= l.src_side + l.side + 4096); /* a page between the sides */
	for (size_t i = 0; i < l.n; i++) {
		const struct call *c = &l.calls[i];
		uint64_t src = c->src - l.src_side, dst = c->dst - l.dst_side;
		size_t k = 0;

		while (k < 4 && sizes[k] != c->size)
			k++;
		assert_true(k < 4);
		count[k]++;
		assert_true(c->src >= l.src_side && c->src + c->size <= l.src_side + l.side);
		assert_true(c->dst >= l.dst_side && c->dst + c->size <= l.dst_side + l.side);
		assert_true(src + c->size <= l.span && dst + c->size <= l.span);
		assert_true(aligned_as_drawn(src) && aligned_as_drawn(dst));
		at64 += src % 64 == 0;
		if (i) {
			assert_next(src, src_end);
			assert_next(dst, dst_end);
		}
		src_end = src + c->size;
		dst_end = dst + c->size;
	}
	/* 64 drawn for half the sources, and an 8 lands on a multiple of 64 now and then */
	assert_true(at64 > l.n * 0.45);
	/* the first call that would have passed the span's end ended the walk */
	assert_true((src_end > dst_end ? src_end : dst_end) + sizes[3] + STREAM_MAX_ALIGN >= l.span);
	/* a stretch of the shuffled sizes: their shares of it, within a percent */
	for (size_t k = 0; k < 4; k++)
		assert_true(count[k] > (ps[k] - 0.01) * l.n && count[k] < (ps[k] + 0.01) * l.n);
	assert_true(l.bytes == count[1] * 8 + count[2] * 100 + count[3] * 3000);
	assert_int_equal(l.overlapping, 0);
	call_list_free(&l);
}

/*
 * memmove: the sources one after another, a call overlapping its source as
 * often as recorded, the others' destinations one after another, all in the
 * one side.
 */
static void test_stream_memmove(void **state)
{
	static const uint64_t msizes[] = { 16, 200 };
	static const double mps[] = { 0.5, 0.5 };
	struct made m;
	struct call_list l;
	size_t overlapping = 0, backward = 0, apart = 0;
	uint64_t src_end = 0, dst_end = 0;

	(void)state;
	make(&m, DIST_MEMMOVE, 0.25, msizes, mps, 2, stream_aligns, 2);
	build_stream(&l, &m.d, STREAM_WS / 4, 3);
	assert_int_equal(l.src_side, l.dst_side); /* one buffer */
	for (size_t i = 0; i < l.n; i++) {
		const struct call *c = &l.calls[i];
		uint64_t src = c->src - l.src_side, dst = c->dst - l.dst_side;

		assert_true(c->src >= l.src_side && c->src + c->size <= l.src_side + l.side);
		assert_true(c->dst >= l.dst_side && c->dst + c->size <= l.dst_side + l.side);
		assert_true(src + c->size <= l.span && aligned_as_drawn(src));
		if (i)
			assert_next(src, src_end);
		src_end = src + c->size;
		if (call_ranges_overlap(src, dst, c->size)) {
			overlapping++;
			backward += dst > src; /* memmove must copy these from the end */
			continue;
		}
		assert_true(aligned_as_drawn(dst));
		if (apart++)
			assert_next(dst, dst_end);
		dst_end = dst + c->size;
	}
	assert_int_equal(overlapping, l.overlapping);
	assert_true(overlapping > l.n * 0.23 && overlapping < l.n * 0.27);
	assert_true(backward > overlapping * 0.4 && backward < overlapping * 0.6);
	assert_true(src_end + msizes[1] + STREAM_MAX_ALIGN >= l.span);
	call_list_free(&l);
}

static void test_stream_seed_repeats(void **state)
{
	struct made m;
	struct call_list a, b, c;

	(void)state;
	make(&m, DIST_MEMCPY, 0, sizes, ps, 4, stream_aligns, 2);
	build_stream(&a, &m.d, STREAM_WS / 8, 7);
	build_stream(&b, &m.d, STREAM_WS / 8, 7);
	build_stream(&c, &m.d, STREAM_WS / 8, 8);
	assert_int_equal(a.n, b.n);
	assert_memory_equal(a.calls, b.calls, a.n * sizeof(*a.calls));
	assert_true(a.n != c.n || memcmp(a.calls, c.calls, a.n * sizeof(*a.calls)) != 0);
	call_list_free(&a);
	call_list_free(&b);
	call_list_free(&c);
}

/* What a chained pass's calls were given: the source of each, from the arena's base. */
static unsigned char *chain_base;
static size_t chain_calls, chain_sources[64];

static void *chain_copy(void *dst, const void *src, size_t n)
{
	if (chain_calls < 64)
		chain_sources[chain_calls] = (size_t)((const unsigned char *)src - chain_base);
	chain_calls++;
	memcpy(dst, src, n);
	return dst;
}

/*
 * Each call of a chained pass reads back the last byte the call before it
 * copied (the byte before its destination, for a call of 0 bytes) and adds
 * it, times zero, to its own source: with every bit of zero set, the source
 * each call is given shows which byte that was. The pass's first call takes
 * the byte it is given, and the pass returns the last one read.
 */
static void test_chained_pass(void **state)
{
	struct call calls[] = { { 4096, 8192, 3 }, { 4200, 8300, 0 }, { 4300, 8400, 5 } };
	struct call_list l = { .calls = calls, .n = 3 };
	unsigned char *arena = calloc(1, 12288), last;

	(void)state;
	assert_non_null(arena);
	for (size_t k = 4096; k < 8192; k++)
		arena[k] = (unsigned char)(k * 7 + 1);
	arena[8299] = 40; /* the byte before the 0-byte call's destination */
	chain_base = arena;
	chain_calls = 0;
	last = call_list_pass_chained(arena, &l, chain_copy, ~(size_t)0, 9);
	assert_int_equal(chain_calls, 3);
	assert_int_equal(chain_sources[0], 4096 + 9);
	/* the first call copied arena[4105..4107] to 8192..8194: its last byte, 8194's */
	assert_int_equal(chain_sources[1], 4200 + arena[8194]);
	assert_int_equal(arena[8194], (unsigned char)(4107 * 7 + 1));
	assert_int_equal(chain_sources[2], 4300 + 40);
	assert_int_equal(last, arena[8404]);
	/* with zero 0, the sources are the list's own */
	chain_calls = 0;
	call_list_pass_chained(arena, &l, chain_copy, 0, 9);
	assert_int_equal(chain_sources[0], 4096);
	assert_int_equal(chain_sources[1], 4200);
	assert_int_equal(chain_sources[2], 4300);
	free(arena);
}

/*
 * The caller's tests of each size change which branches run before a call,
 * never the call: a tested pass, chained or not, makes the same calls with
 * the same arguments as the pass without them, every size's bits tested
 * both ways, and returns the same last byte.
 */
static void test_tested_pass(void **state)
{
	struct call calls[] = { { 4096, 8192, 0 }, { 4200, 8300, 255 }, { 4500, 8600, 170 },
				{ 4700, 8900, 85 }, { 4800, 9200, 1 }, { 4900, 9300, 256 } };
	struct call_list l = { .calls = calls, .n = sizeof(calls) / sizeof(calls[0]) };
	unsigned char *arena = calloc(1, 12288), last_plain, last_tested;
	size_t plain[64];

	(void)state;
	assert_non_null(arena);
	for (size_t k = 4096; k < 8192; k++)
		arena[k] = (unsigned char)(k * 7 + 1);
	chain_base = arena;
	for (int zero = 0; zero < 2; zero++) {
		size_t z = zero ? ~(size_t)0 : 0;

		chain_calls = 0;
		last_plain = call_list_pass_chained(arena, &l, chain_copy, z, 3);
		assert_int_equal(chain_calls, l.n);
		memcpy(plain, chain_sources, sizeof(plain));
		chain_calls = 0;
		last_tested = call_list_pass_chained_tested(arena, &l, chain_copy, z, 3);
		assert_int_equal(chain_calls, l.n);
		assert_memory_equal(chain_sources, plain, l.n * sizeof(plain[0]));
		assert_int_equal(last_tested, last_plain);
	}
	chain_calls = 0;
	call_list_pass_tested(arena, &l, chain_copy);
	assert_int_equal(chain_calls, l.n);
	for (size_t i = 0; i < l.n; i++)
		assert_int_equal(chain_sources[i], calls[i].src);
	/* and each destination holds its source's bytes */
	for (size_t i = 0; i < l.n; i++)
		assert_memory_equal(arena + calls[i].dst, arena + calls[i].src, calls[i].size);
	free(arena);
}

/* A stream has no walk from calls of 0 bytes, nor from calls too small to end it in time. */
static void test_stream_refused(void **state)
{
	static const uint64_t zero[] = { 0 }, one[] = { 1 };
	static const double all[] = { 1 };
	struct made m;
	struct call_list l;
	char err[256];

	(void)state;
	make(&m, DIST_MEMCPY, 0, zero, all, 1, aligns, 3);
	assert_int_equal(call_list_build_stream(&l, &m.d, STREAM_WS, 1, err, sizeof(err)), -1);
	assert_string_equal(err, "made: every call copies 0 bytes: a stream has nothing to walk");
	assert_false(call_list_stream_fits(&m.d, STREAM_WS));
	/* 1 B a call: a span of CALL_LIST_STREAM_CALLS bytes takes more calls than that */
	make(&m, DIST_MEMCPY, 0, one, all, 1, aligns, 3);
	assert_int_equal(call_list_build_stream(&l, &m.d, 2ull * CALL_LIST_STREAM_CALLS, 1, err,
						sizeof(err)), -1);
	assert_non_null(strstr(err, "made: calls of 1.0 bytes on average would take more than "
				    "33554432 calls"));
	assert_null(strchr(err, '\n'));
	assert_false(call_list_stream_fits(&m.d, 2ull * CALL_LIST_STREAM_CALLS));
	/* and one a sixteenth of that walks */
	assert_true(call_list_stream_fits(&m.d, 2ull * CALL_LIST_STREAM_CALLS / 16));
	build_stream(&l, &m.d, 2ull * CALL_LIST_STREAM_CALLS / 16, 1);
	call_list_free(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_proportions_and_sides),
		cmocka_unit_test(test_alignments),
		cmocka_unit_test(test_memmove_overlaps),
		cmocka_unit_test(test_seed_repeats_and_varies),
		cmocka_unit_test(test_size_too_large),
		cmocka_unit_test(test_stream_memcpy),
		cmocka_unit_test(test_stream_memmove),
		cmocka_unit_test(test_stream_seed_repeats),
		cmocka_unit_test(test_stream_refused),
		cmocka_unit_test(test_chained_pass),
		cmocka_unit_test(test_tested_pass),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
