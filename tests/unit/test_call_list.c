/* SPDX-License-Identifier: MIT */
/*
 * How a replay's calls are drawn: the recorded proportions, the alignments
 * asked for, inside their sides, memmove's overlaps as often as recorded, the
 * same calls from the same seed and others from another, and no order a
 * branch predictor could learn.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "measure/call_list.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_proportions_and_sides),
		cmocka_unit_test(test_alignments),
		cmocka_unit_test(test_memmove_overlaps),
		cmocka_unit_test(test_seed_repeats_and_varies),
		cmocka_unit_test(test_size_too_large),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
