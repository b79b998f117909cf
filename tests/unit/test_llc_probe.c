/* SPDX-License-Identifier: MIT */
/*
 * Where the last level is taken to end: the regions tried, in order, the first
 * that does not hold, a machine whose figure holds, chases that cannot be
 * made, machines too small to probe; the median of three; a real chase;
 * COPYPERF_LLC; the level cold and stream are sized from; the line that
 * tells a reader which it was.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "measure/hardware/llc_probe.h"

#define MiB (1ull << 20)

/* A machine on paper: reads take `fast` ns below `knee` bytes, `slow` from there; `fail` bytes: no memory. */
struct curve {
	uint64_t knee, fail;
	double fast, slow;
	uint64_t asked[16];
	size_t n_asked;
};

static double fake_chase(uint64_t bytes, void *ctx)
{
	struct curve *c = ctx;

	assert_true(c->n_asked < 16);
	c->asked[c->n_asked++] = bytes;
	if (c->fail && bytes >= c->fail)
		return -1;
	return c->knee && bytes >= c->knee ? c->slow : c->fast;
}

static void assert_asked(const struct curve *c, const uint64_t *want, size_t n)
{
	assert_int_equal(c->n_asked, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(c->asked[i], want[i]);
}

/* A guest told 508 MiB whose core finds 16: the first region to miss is the size. */
static void test_knee(void **state)
{
	struct curve c = { .knee = 16 * MiB, .fast = 14, .slow = 100 };
	static const uint64_t want[] = { 2 * MiB, 4 * MiB, 8 * MiB, 16 * MiB };
	struct llc_probe p;

	(void)state;
	llc_probe_with(&p, 508 * MiB, 1 * MiB, fake_chase, &c);
	assert_asked(&c, want, 4); /* nothing past the first miss */
	assert_true(p.probed);
	assert_int_equal(p.size, 16 * MiB);
	assert_int_equal(p.miss_bytes, 16 * MiB);
	assert_int_equal(p.reported, 508 * MiB);
	assert_int_equal(p.ref_bytes, 2 * MiB);
	assert_true(p.ref_ns == 14 && p.miss_ns == 100);
}

/* A machine that tells the truth: every region up to half of it holds. */
static void test_reported_holds(void **state)
{
	struct curve c = { .fast = 14 };
	static const uint64_t want[] = { 2 * MiB, 4 * MiB, 8 * MiB, 16 * MiB };
	struct llc_probe p;

	(void)state;
	llc_probe_with(&p, 32 * MiB, 1 * MiB, fake_chase, &c);
	assert_asked(&c, want, 4);
	assert_true(p.probed);
	assert_int_equal(p.size, 32 * MiB);
	assert_int_equal(p.miss_bytes, 0);
}

/* The ratio is the line: at it a region holds, past it not. */
static void test_ratio_edge(void **state)
{
	struct curve at = { .knee = 4 * MiB, .fast = 10, .slow = 10 * LLC_HOLDS_RATIO };
	struct curve past = { .knee = 4 * MiB, .fast = 10, .slow = 10 * LLC_HOLDS_RATIO + 0.01 };
	struct llc_probe p;

	(void)state;
	llc_probe_with(&p, 32 * MiB, 1 * MiB, fake_chase, &at);
	assert_int_equal(p.size, 32 * MiB);
	llc_probe_with(&p, 32 * MiB, 1 * MiB, fake_chase, &past);
	assert_int_equal(p.size, 4 * MiB);
}

/* A chase that cannot be made leaves the machine's figure. */
static void test_chase_fails(void **state)
{
	struct curve first = { .fail = 1, .fast = 14 };
	struct curve later = { .knee = 64 * MiB, .fail = 8 * MiB, .fast = 14, .slow = 100 };
	struct llc_probe p;

	(void)state;
	llc_probe_with(&p, 508 * MiB, 1 * MiB, fake_chase, &first);
	assert_false(p.probed);
	assert_int_equal(p.size, 508 * MiB);
	llc_probe_with(&p, 508 * MiB, 1 * MiB, fake_chase, &later);
	assert_true(p.probed);
	assert_int_equal(p.size, 508 * MiB);
	assert_int_equal(p.miss_bytes, 0);
	assert_int_equal(later.n_asked, 3); /* 2 and 4 MiB held, 8 could not be had */
}

/* No L2 to start from, or a last level too near it to tell them apart: nothing read. */
static void test_not_probed(void **state)
{
	struct curve c = { .fast = 14 };
	struct llc_probe p;

	(void)state;
	llc_probe_with(&p, 32 * MiB, 0, fake_chase, &c);
	assert_int_equal(p.size, 32 * MiB);
	llc_probe_with(&p, 4 * MiB, 1 * MiB, fake_chase, &c); /* half of it is not past 4x the L2 */
	assert_int_equal(p.size, 4 * MiB);
	llc_probe_with(&p, 0, 1 * MiB, fake_chase, &c);
	assert_int_equal(p.size, 0);
	assert_int_equal(c.n_asked, 0);
	assert_false(p.probed);
}

/* Of three probes, one that found the middle size; of two equal, the first. */
static void test_median(void **state)
{
	struct llc_probe r[3] = { { .size = 16 * MiB }, { .size = 8 * MiB }, { .size = 32 * MiB } };

	(void)state;
	assert_ptr_equal(llc_probe_median(r, 3), &r[0]);
	r[0].size = 32 * MiB; /* 32, 8, 32 */
	assert_ptr_equal(llc_probe_median(r, 3), &r[0]);
	r[2].size = 8 * MiB; /* 32, 8, 8 */
	assert_ptr_equal(llc_probe_median(r, 3), &r[1]);
	assert_ptr_equal(llc_probe_median(r, 1), &r[0]);
}

/*
 * Cold and stream: from the reported level where it is larger than the one
 * found, up to LLC_REACH times that; a given level as given.
 */
static void test_memory_level(void **state)
{
	struct llc_probe p = { .probed = true, .size = 8 * MiB, .reported = 32 * MiB };

	(void)state;
	assert_int_equal(llc_memory_level(&p), 32 * MiB); /* a quarter found: the reported */
	p.size = 16 * MiB;
	p.reported = 508 * MiB; /* a host's whole L3: four times the level found */
	assert_int_equal(llc_memory_level(&p), LLC_REACH * 16 * MiB);
	p.reported = 16 * MiB; /* found as reported */
	assert_int_equal(llc_memory_level(&p), 16 * MiB);
	p.reported = 0; /* the machine says nothing */
	assert_int_equal(llc_memory_level(&p), 16 * MiB);
	p = (struct llc_probe){ .given = true, .size = 1 * MiB, .memory = 3 * MiB, .reported = 32 * MiB };
	assert_int_equal(llc_memory_level(&p), 3 * MiB);
}

/* The real chase: a time for a region, none for less than two lines. */
static void test_real_chase(void **state)
{
	double ns = llc_chase_ns(256 * 1024, NULL);

	(void)state;
	assert_true(ns > 0 && ns < 1e6);
	assert_true(llc_chase_ns(64, NULL) < 0);
}

/* COPYPERF_LLC is taken as it is, and nothing is read. */
static void test_given(void **state)
{
	const struct llc_probe *p;
	char line[400];

	(void)state;
	assert_null(llc_probe_done());
	setenv("COPYPERF_LLC", "24M", 1);
	p = llc_probe();
	assert_ptr_equal(llc_probe_done(), p);
	assert_true(p->given && !p->bad_given && !p->probed);
	assert_int_equal(p->size, 24 * MiB);
	assert_int_equal(llc_memory_level(p), 24 * MiB); /* one size: cold from it too */
	llc_probe_describe(p, line, sizeof(line));
	assert_non_null(strstr(line, "24 MiB (COPYPERF_LLC"));
	assert_null(strstr(line, "cold and stream from"));
}

/* Each way the figure came says so, with the figures. */
static void test_describe(void **state)
{
	struct curve knee = { .knee = 16 * MiB, .fast = 14, .slow = 98 };
	struct curve flat = { .fast = 14 };
	struct llc_probe p;
	char line[400];

	(void)state;
	llc_probe_with(&p, 508 * MiB, 1 * MiB, fake_chase, &knee);
	llc_probe_describe(&p, line, sizeof(line));
	assert_string_equal(line, "llc, cold: from a last level of 16 MiB as measured: random reads "
				  "of 16 MiB took 7.0x as long as of 2 MiB (the machine reports 508 MiB); "
				  "cold and stream from 64 MiB, the most a core is taken to reach");
	llc_probe_with(&p, 32 * MiB, 1 * MiB, fake_chase, &flat);
	llc_probe_describe(&p, line, sizeof(line));
	assert_non_null(strstr(line, "the machine reports, 32 MiB (random reads of half of it"));
	assert_null(strstr(line, "cold and stream from"));
	knee.knee = 8 * MiB;
	knee.n_asked = 0;
	llc_probe_with(&p, 32 * MiB, 1 * MiB, fake_chase, &knee);
	llc_probe_describe(&p, line, sizeof(line));
	assert_non_null(strstr(line, "(the machine reports 32 MiB); cold and stream from 32 MiB, "
				     "the level reported"));
	llc_probe_with(&p, 32 * MiB, 0, fake_chase, &flat);
	llc_probe_describe(&p, line, sizeof(line));
	assert_non_null(strstr(line, "32 MiB (not measured)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_knee),	    cmocka_unit_test(test_reported_holds),
		cmocka_unit_test(test_ratio_edge),  cmocka_unit_test(test_chase_fails),
		cmocka_unit_test(test_not_probed),  cmocka_unit_test(test_real_chase),
		cmocka_unit_test(test_given),	    cmocka_unit_test(test_describe),
		cmocka_unit_test(test_median),	    cmocka_unit_test(test_memory_level),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
