/* SPDX-License-Identifier: MIT */
/* The statistics every reported number rests on. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "assert_near.h"
#include "stats/stats.h"

static void test_median_odd_even(void **state)
{
	const double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, one[] = { 7 };

	(void)state;
	assert_near(median_of(odd, 3), 3, 0);
	assert_near(median_of(even, 4), 2.5, 0);
	assert_near(median_of(one, 1), 7, 0);
}

static void test_median_leaves_input_alone(void **state)
{
	double v[] = { 3, 2, 1 };

	(void)state;
	median_of(v, 3);
	assert_near(v[0], 3, 0);
	assert_near(v[2], 1, 0);
}

static void test_median_of_many(void **state)
{
	double v[101];

	(void)state;
	for (int i = 0; i < 101; i++)
		v[i] = (i * 37) % 101; /* a permutation of 0..100 */
	assert_near(median_of(v, 101), 50, 0);
}

static void test_summary(void **state)
{
	const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct summary s;

	(void)state;
	summarize(v, 8, &s);
	assert_near(s.min, 2, 0);
	assert_near(s.max, 9, 0);
	assert_near(s.mean, 5, 1e-12);
	assert_near(s.median, 4.5, 0);
	assert_near(s.stddev, 2.138089935299395, 1e-12); /* sample, n - 1 */
	summarize(v, 1, &s);
	assert_near(s.stddev, 0, 0);
	assert_near(s.median, 2, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median_odd_even),
		cmocka_unit_test(test_median_leaves_input_alone),
		cmocka_unit_test(test_median_of_many),
		cmocka_unit_test(test_summary),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
