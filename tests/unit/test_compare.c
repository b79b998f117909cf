/* SPDX-License-Identifier: MIT */
/*
 * The statistics behind `copyperf compare`: the Mann-Whitney U test (exact
 * p-values checked against a brute-force count of every ordering, the normal
 * approximation against a value worked by hand) and the geometric mean.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "assert_near.h"
#include "report/compare.h"
#include "stats/stats.h"
#include "stats/mann_whitney.h"

/*
 * The oracle: every way of choosing which m of the pooled values
 * are a's, its U counted pair by pair (ties 1/2), the two-sided p-value from
 * the tails.  Shares nothing with the rank sums under test.
 */
static double brute_force_p(const double *a, size_t m, const double *b, size_t n)
{
	double all[16], u_observed = 0, below = 0, above = 0, count = 0;
	size_t total = m + n;

	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < n; j++)
			u_observed += a[i] > b[j] ? 1 : a[i] == b[j] ? 0.5 : 0;
	memcpy(all, a, m * sizeof(*a));
	memcpy(all + m, b, n * sizeof(*b));
	for (uint32_t mask = 0; mask < (1u << total); mask++) {
		double u = 0;

		if ((size_t)__builtin_popcount(mask) != m)
			continue;
		for (size_t i = 0; i < total; i++)
			for (size_t j = 0; j < total; j++)
				if ((mask & (1u << i)) && !(mask & (1u << j)))
					u += all[i] > all[j] ? 1 : all[i] == all[j] ? 0.5 : 0;
		count++;
		below += u <= u_observed;
		above += u >= u_observed;
	}
	double p = 2 * (below < above ? below : above) / count;

	return p < 1 ? p : 1;
}

static void test_exact_separated(void **state)
{
	const double a[] = { 6, 7, 8, 9, 10 }, b[] = { 1, 2, 3, 4, 5 };
	struct mann_whitney t;

	(void)state;
	mann_whitney(a, 5, b, 5, &t);
	assert_true(t.exact);
	assert_near(t.u, 25, 0);
	/* only 2 of the C(10,5) = 252 orderings are as extreme */
	assert_near(t.p, 2.0 / 252, 1e-12);
	mann_whitney(b, 5, a, 5, &t);
	assert_near(t.u, 0, 0);
	assert_near(t.p, 2.0 / 252, 1e-12);
}

static void test_exact_matches_brute_force(void **state)
{
	(void)state;
	srand(6);
	for (int trial = 0; trial < 200; trial++) {
		size_t m = 1 + (size_t)rand() % 8, n = 1 + (size_t)rand() % 8;
		double a[8], b[8], all[16];
		struct mann_whitney t;

		/* distinct values: a random split of 0..m+n-1 */
		for (size_t i = 0; i < m + n; i++)
			all[i] = (double)i;
		for (size_t i = m + n - 1; i > 0; i--) {
			size_t j = (size_t)rand() % (i + 1);
			double x = all[i];

			all[i] = all[j];
			all[j] = x;
		}
		for (size_t i = 0; i < m; i++)
			a[i] = all[i];
		for (size_t i = 0; i < n; i++)
			b[i] = all[m + i];
		mann_whitney(a, m, b, n, &t);
		assert_true(t.exact);
		assert_near(t.p, brute_force_p(a, m, b, n), 1e-12);
	}
}

static void test_three_against_three_never_significant(void **state)
{
	const double a[] = { 4, 5, 6 }, b[] = { 1, 2, 3 };
	struct mann_whitney t;

	(void)state;
	mann_whitney(a, 3, b, 3, &t);
	/* 2 of C(6,3) = 20 orderings: three repeats cannot show a difference at 5% */
	assert_near(t.p, 0.1, 1e-12);
	assert_false(t.p < COMPARE_ALPHA);
}

static void test_exact_with_ties_matches_brute_force(void **state)
{
	(void)state;
	srand(7);
	for (int trial = 0; trial < 200; trial++) {
		size_t m = 1 + (size_t)rand() % 7, n = 1 + (size_t)rand() % 7;
		double a[8], b[8];
		struct mann_whitney t;

		/* few distinct values: ties on most draws */
		for (size_t i = 0; i < m; i++)
			a[i] = (double)(rand() % 4);
		for (size_t i = 0; i < n; i++)
			b[i] = (double)(rand() % 4);
		mann_whitney(a, m, b, n, &t);
		assert_true(t.exact);
		assert_near(t.p, brute_force_p(a, m, b, n), 1e-12);
	}
}

/* Three identical runs against three: ties, yet never below 2/20 (the approximation said 0.047). */
static void test_exact_with_ties_small(void **state)
{
	const double a[] = { 7, 7, 7 }, b[] = { 5, 5, 5 };
	struct mann_whitney t;

	(void)state;
	mann_whitney(a, 3, b, 3, &t);
	assert_true(t.exact);
	assert_near(t.p, 0.1, 1e-12);
}

/*
 * Too many orderings to count: a = {1..5} x 3, b = {3..7} x 3.  U = 9 x 4.5 =
 * 40.5, mean 112.5; ties: 1, 2, 6, 7 three times, 3, 4, 5 six times, so
 * sum(t^3 - t) = 4 x 24 + 3 x 210 = 726; variance 225/12 (31 - 726/870) =
 * 565.603; z = (72 - 0.5) / 23.7824 = 3.00642; p = erfc(z / sqrt 2) = 0.0026434.
 */
static void test_normal_approximation_with_ties(void **state)
{
	double a[15], b[15];
	struct mann_whitney t;

	(void)state;
	for (int i = 0; i < 15; i++) {
		a[i] = 1 + i % 5;
		b[i] = 3 + i % 5;
	}
	mann_whitney(a, 15, b, 15, &t);
	assert_false(t.exact);
	assert_near(t.u, 40.5, 0);
	assert_near(t.p, 0.0026434, 1e-6);
}

static void test_identical_samples_not_significant(void **state)
{
	const double a[] = { 3, 1, 2, 5, 4 }, b[] = { 1, 2, 3, 4, 5 }, same[] = { 2, 2, 2 };
	struct mann_whitney t;

	(void)state;
	mann_whitney(a, 5, b, 5, &t);
	assert_near(t.u, 12.5, 0);
	assert_near(t.p, 1, 1e-12);
	mann_whitney(same, 3, same, 3, &t);
	assert_near(t.p, 1, 0);
}

static void test_large_samples_use_the_approximation(void **state)
{
	double a[40], b[40];
	struct mann_whitney t;

	(void)state;
	for (int i = 0; i < 40; i++) {
		a[i] = 100 + i;
		b[i] = 100 + i + 0.5;
	}
	mann_whitney(a, 40, b, 40, &t);
	assert_false(t.exact);
	/* interleaved almost perfectly: U = 780 of 1600, no evidence */
	assert_near(t.u, 780, 0);
	assert_true(t.p > 0.8);
	for (int i = 0; i < 40; i++)
		b[i] += 100;
	mann_whitney(a, 40, b, 40, &t);
	assert_true(t.p < 1e-10);
}

/* U from the rank sums equals U counted pair by pair, ties and all, at any size. */
static void test_u_matches_the_pairs(void **state)
{
	double a[300], b[300];

	(void)state;
	srand(7);
	for (int round = 0; round < 200; round++) {
		size_t m = 1 + (size_t)rand() % 300, n = 1 + (size_t)rand() % 300;
		int spread = 1 + rand() % 50; /* few values: many ties */
		struct mann_whitney t;
		double u = 0;

		for (size_t i = 0; i < m; i++)
			a[i] = rand() % spread;
		for (size_t j = 0; j < n; j++)
			b[j] = rand() % spread + (round % 3) * 0.5;
		for (size_t i = 0; i < m; i++)
			for (size_t j = 0; j < n; j++)
				u += a[i] > b[j] ? 1 : a[i] == b[j] ? 0.5 : 0;
		mann_whitney(a, m, b, n, &t);
		assert_near(t.u, u, 0);
	}
}

static void test_geometric_mean(void **state)
{
	const double r[] = { 0.5, 2 }, s[] = { 0.9, 0.9, 0.9 }, one[] = { 1.25 };

	(void)state;
	assert_near(geometric_mean(r, 2), 1, 1e-15);
	assert_near(geometric_mean(s, 3), 0.9, 1e-15);
	assert_near(geometric_mean(one, 1), 1.25, 1e-15);
	/* not the arithmetic mean: (1 + 4) / 2 = 2.5 against sqrt(4) = 2 */
	const double t[] = { 1, 4 };

	assert_near(geometric_mean(t, 2), 2, 1e-15);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_separated),
		cmocka_unit_test(test_exact_matches_brute_force),
		cmocka_unit_test(test_three_against_three_never_significant),
		cmocka_unit_test(test_exact_with_ties_matches_brute_force),
		cmocka_unit_test(test_exact_with_ties_small),
		cmocka_unit_test(test_normal_approximation_with_ties),
		cmocka_unit_test(test_identical_samples_not_significant),
		cmocka_unit_test(test_large_samples_use_the_approximation),
		cmocka_unit_test(test_u_matches_the_pairs),
		cmocka_unit_test(test_geometric_mean),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
