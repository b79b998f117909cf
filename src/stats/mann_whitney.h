/* SPDX-License-Identifier: MIT */
/*
 * The Mann-Whitney U rank test (two-sided), as benchstat uses it: does one
 * set of repeats tend to be larger than the other?  It assumes no
 * distribution, which suits timings with their long right tails.
 */
#ifndef COPYPERF_MANN_WHITNEY_H
#define COPYPERF_MANN_WHITNEY_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Up to this many samples in all the p-value is exact: without ties always,
 * with ties while the orderings to count stay few (about 10 against 10).
 */
#define MANN_WHITNEY_EXACT_MAX 50

struct mann_whitney {
	double u;   /* U of a: pairs (a_i, b_j) with a_i > b_j, ties counted as 1/2 */
	double p;   /* two-sided p-value */
	bool exact; /* false: normal approximation with tie and continuity corrections */
};

/* Tests na > 0 samples a against nb > 0 samples b. */
void mann_whitney(const double *a, size_t na, const double *b, size_t nb, struct mann_whitney *out);

/* The smallest two-sided p-value m against n samples can give, 2 / C(m+n, m). */
double mann_whitney_min_p(size_t m, size_t n);

#endif
