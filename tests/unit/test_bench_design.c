/* SPDX-License-Identifier: MIT */
/*
 * make bench's design (bench/bench_design.h): the round orders balance who
 * follows whom, and the rule for a row below 1.00x.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "../../bench/bench_design.h"

/*
 * Rounds run one after another over whole cycles: how often contender b
 * runs right after a (across rounds too), and how often a takes place k.
 */
static void count(unsigned n, unsigned cycle, unsigned follows[4][4], unsigned place[4][4])
{
	unsigned prev = bench_round_order(n, cycle - 1, n - 1); /* the cycle wraps */

	for (unsigned i = 0; i < cycle; i++)
		for (unsigned k = 0; k < n; k++) {
			unsigned c = bench_round_order(n, i, k);

			follows[prev][c]++;
			place[c][k]++;
			prev = c;
		}
}

static void balanced(unsigned n, unsigned cycle, unsigned place_spread)
{
	unsigned follows[4][4] = { { 0 } }, place[4][4] = { { 0 } }, lo = ~0u, hi = 0;
	unsigned plo = ~0u, phi = 0;

	count(n, cycle, follows, place);
	for (unsigned a = 0; a < n; a++)
		for (unsigned b = 0; b < n; b++) {
			if (a == b) {
				assert_int_equal(follows[a][b], 0); /* never after itself */
				continue;
			}
			lo = follows[a][b] < lo ? follows[a][b] : lo;
			hi = follows[a][b] > hi ? follows[a][b] : hi;
		}
	assert_int_equal(hi, lo); /* a rotation (A B C, B C A, C A B) has 2 and 1 */
	for (unsigned a = 0; a < n; a++)
		for (unsigned k = 0; k < n; k++) {
			plo = place[a][k] < plo ? place[a][k] : plo;
			phi = place[a][k] > phi ? place[a][k] : phi;
		}
	assert_true(phi - plo <= place_spread);
	for (unsigned i = 0; i < cycle; i++) { /* every round an order: each contender once */
		unsigned seen = 0;

		for (unsigned k = 0; k < n; k++)
			seen |= 1u << bench_round_order(n, i, k);
		assert_int_equal(seen, (1u << n) - 1);
	}
}

static void test_three_contenders(void **state)
{
	(void)state;
	balanced(3, 6, 0);
}

static void test_four_contenders(void **state)
{
	(void)state;
	balanced(4, 12, 2);
}

static void test_below(void **state)
{
	(void)state;
	assert_false(bench_row_below(1.000, 1.000));
	assert_false(bench_row_below(0.995, 0.990)); /* 0.995 is 1.00 at two decimals */
	assert_true(bench_row_below(0.990, 1.000));
	assert_false(bench_row_below(0.990, 0.985)); /* the control as low: the machine's */
	assert_true(bench_row_below(0.700, 0.690));  /* a control that far off excuses nothing */
	assert_true(bench_row_below(0.990, 0.975));
	assert_true(bench_row_below(NAN, 1.0));
	assert_true(bench_row_below(INFINITY, 1.0));
	assert_true(bench_row_below(0, 1.0));
	assert_false(bench_row_below(1.5, NAN));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_three_contenders),
		cmocka_unit_test(test_four_contenders),
		cmocka_unit_test(test_below),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
