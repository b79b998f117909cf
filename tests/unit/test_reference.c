/* SPDX-License-Identifier: MIT */
/*
 * Each routine read against the C library's of its contract at the same
 * point (reference.h), and the table's column and summary lines: which
 * routine is the reference, the ratio's direction, the test's verdict, and
 * no reading where there is nothing to read against.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "assert_near.h"
#include "report/output.h"
#include "report/reference.h"
#include "render_report.h"

/* Seconds of five measurements: the reference's, one twice as fast, one that ties with it. */
static double ref_times[5] = { 1.00, 1.02, 1.04, 1.01, 1.03 };
static double fast_times[5] = { 0.50, 0.51, 0.52, 0.505, 0.515 };
static double tie_times[5] = { 1.015, 0.99, 1.05, 1.005, 1.025 };
static double slow_times[5] = { 2.0, 2.1, 2.2, 2.05, 2.15 };

struct fixture {
	struct options o;
	struct machine_info m;
	struct point_result p[8];
	struct report r;
};

static struct point_result *point(struct fixture *x, const char *routine, bool overlap,
				  uint64_t chunk, double *times)
{
	struct point_result *p = &x->p[x->r.n++];

	memset(p, 0, sizeof(*p));
	p->routine = routine;
	p->space = "user";
	p->overlap_ok = overlap;
	p->chunk = chunk;
	p->total = 1 << 20;
	p->repeats = 5;
	p->samples = times;
	summarize(times, 5, &p->seconds);
	p->verified = true;
	return p;
}

static void start(struct fixture *x)
{
	memset(x, 0, sizeof(*x));
	x->o.repeat = 5;
	x->o.total = x->o.buffer = 1 << 20;
	snprintf(x->m.cpu, sizeof(x->m.cpu), "test CPU");
	x->r = (struct report){ .o = &x->o, .m = &x->m, .results = x->p };
}

/* Point i of the fixture's report read as the table reads it; false where it reads nothing. */
static bool read_point(const struct fixture *x, size_t i, struct point_reading *out)
{
	struct readings rd;
	bool any;

	readings_make(&rd, &x->r);
	*out = rd.at[i];
	any = rd.any;
	readings_free(&rd);
	return out->reference != NULL && any;
}

static bool any_reading(const struct fixture *x)
{
	struct readings rd;
	bool any;

	readings_make(&rd, &x->r);
	any = rd.any;
	readings_free(&rd);
	return any;
}

static void test_memcpy_contract(void **state)
{
	struct fixture x;
	struct point_result *fast, *tie, *ref;
	struct point_reading reading;

	(void)state;
	start(&x);
	ref = point(&x, "memcpy", false, 4096, ref_times);
	fast = point(&x, "fast", false, 4096, fast_times);
	tie = point(&x, "tie", false, 4096, tie_times);
	assert_true(read_point(&x, (size_t)(fast - x.p), &reading));
	assert_ptr_equal(reading.reference, ref);
	assert_near(reading.ratio, 1.02 / 0.51, 1e-9);
	assert_int_equal(reading.verdict, 1);
	assert_near(reading.p, 2.0 / 252, 1e-9); /* all five faster: the smallest p of 5 and 5 */
	assert_true(read_point(&x, (size_t)(tie - x.p), &reading));
	assert_int_equal(reading.verdict, 0);
	assert_true(reading.p > 0.05);
	/* the reference itself is read against nothing */
	assert_false(read_point(&x, (size_t)(ref - x.p), &reading));
	assert_true(any_reading(&x));
}

static void test_slower_and_summary(void **state)
{
	struct fixture x;
	struct point_reading reading;
	char *text;

	(void)state;
	start(&x);
	point(&x, "memcpy", false, 4096, ref_times);
	point(&x, "memcpy", false, 8, ref_times);
	point(&x, "mine", false, 4096, fast_times);
	point(&x, "mine", false, 8, slow_times);
	assert_true(read_point(&x, 3, &reading));
	assert_int_equal(reading.verdict, -1);
	assert_true(reading.ratio < 1);
	text = render_report(output_table, &x.r);
	assert_non_null(strstr(text, "vs libc  verified\n"));
	assert_non_null(strstr(text, "   2.000x*  yes\n"));
	assert_non_null(strstr(text, "   0.486x*  yes\n"));
	/* the reference's own rows carry a dash */
	assert_non_null(strstr(text, "         -  yes\n"));
	/* geometric mean of 2.0 and 1.02/2.1 */
	assert_non_null(strstr(text, "mine against memcpy: geometric mean 0.986x over 2 chunks; "
				     "faster at 1, slower at 1 (8 B)\n"));
	assert_null(strstr(text, "too few"));
	free(text);
	/* 3 measurements a side cannot give p < 0.05: the header says so */
	x.o.repeat = 3;
	text = render_report(output_table, &x.r);
	assert_non_null(strstr(text, "(3 measurements a point are too few for any difference"));
	free(text);
}

/* A routine that takes overlapping buffers is read against memmove, never memcpy. */
static void test_memmove_contract(void **state)
{
	struct fixture x;
	struct point_reading reading;
	char *text;

	(void)state;
	start(&x);
	point(&x, "memcpy", false, 4096, fast_times);
	point(&x, "mine_memmove", true, 4096, fast_times);
	assert_false(read_point(&x, 1, &reading));
	assert_false(any_reading(&x));
	text = render_report(output_table, &x.r);
	assert_null(strstr(text, "vs libc"));
	assert_null(strstr(text, "against"));
	free(text);
	point(&x, "memmove", true, 4096, ref_times);
	assert_true(read_point(&x, 1, &reading));
	assert_ptr_equal(reading.reference, &x.p[2]);
	assert_string_equal(reference_name(&x.p[1]), "memmove");
}

/* Nothing to read: another chunk, another thread count, a FAILED point on either side. */
static void test_nothing_to_read(void **state)
{
	struct fixture x;
	struct point_reading reading;
	char *text;

	(void)state;
	start(&x);
	point(&x, "memcpy", false, 4096, ref_times);
	point(&x, "mine", false, 8, fast_times);
	point(&x, "mine", false, 4096, fast_times)->threads = 2;
	assert_false(read_point(&x, 1, &reading));
	assert_false(read_point(&x, 2, &reading));
	point(&x, "mine", false, 4096, fast_times)->verified = false;
	snprintf(x.p[3].error, sizeof(x.p[3].error), "wrong byte at offset 7");
	assert_false(read_point(&x, 3, &reading));
	point(&x, "other", false, 4096, fast_times);
	assert_true(read_point(&x, 4, &reading));
	x.p[0].verified = false;
	assert_false(read_point(&x, 4, &reading));
	x.p[2].threads = 0; /* the table of a run with threads needs each thread's samples */
	text = render_report(output_table, &x.r);
	assert_null(strstr(text, "vs libc"));
	free(text);
}

/*
 * A coarse timer ties the medians while every measurement of one side is at
 * least as fast: the test's way, not the medians', says which is faster.
 */
static double ticks_ref[9] = { 20, 20, 20, 20, 20, 30, 30, 30, 30 };
static double ticks_mine[9] = { 10, 10, 10, 10, 20, 20, 20, 20, 20 };
static double no_time[5] = { 0, 0, 0, 0, 0 };

static void test_direction_by_rank(void **state)
{
	struct fixture x;
	struct point_reading reading;

	(void)state;
	start(&x);
	point(&x, "memcpy", false, 4096, ticks_ref)->repeats = 9;
	summarize(ticks_ref, 9, &x.p[0].seconds);
	point(&x, "mine", false, 4096, ticks_mine)->repeats = 9;
	summarize(ticks_mine, 9, &x.p[1].seconds);
	assert_true(read_point(&x, 1, &reading));
	assert_near(reading.ratio, 1.0, 1e-12);
	assert_true(reading.p < 0.05);
	assert_int_equal(reading.verdict, 1);
}

/* A median time of 0 (a clock too coarse for the point) is read against nothing: no inf. */
static void test_no_time(void **state)
{
	struct fixture x;
	struct point_reading reading;

	(void)state;
	start(&x);
	point(&x, "memcpy", false, 8, ref_times);
	point(&x, "mine", false, 8, no_time);
	assert_false(read_point(&x, 1, &reading));
	x.p[0].samples = no_time;
	summarize(no_time, 5, &x.p[0].seconds);
	x.p[1].samples = ref_times;
	summarize(ref_times, 5, &x.p[1].seconds);
	assert_false(read_point(&x, 1, &reading));
}

/* In the kernel, every routine against the kernel's memcpy, under its own column name. */
static void test_kernel(void **state)
{
	struct fixture x;
	char *text;

	(void)state;
	start(&x);
	point(&x, "memcpy", false, 4096, slow_times)->space = "kernel";
	point(&x, "copy_to_user", false, 4096, ref_times)->space = "kernel";
	text = render_report(output_table, &x.r);
	assert_non_null(strstr(text, "the kernel's memcpy"));
	assert_non_null(strstr(text, "vs memcpy  verified\n"));
	assert_non_null(strstr(text, "copy_to_user against memcpy: geometric mean 2.059x over 1 "
				     "chunk; faster at 1, slower at 0\n"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memcpy_contract),
		cmocka_unit_test(test_slower_and_summary),
		cmocka_unit_test(test_memmove_contract),
		cmocka_unit_test(test_nothing_to_read),
		cmocka_unit_test(test_direction_by_rank),
		cmocka_unit_test(test_no_time),
		cmocka_unit_test(test_kernel),
	};

	return cmocka_run_group_tests_name("reference", tests, NULL, NULL);
}
