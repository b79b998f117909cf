/* SPDX-License-Identifier: MIT */
/*
 * `copyperf compare A.json B.json`: B's speed against A's at every point
 * both measured, whether the difference is real, and a CI gate on it.  Its
 * command line is src/builtin-compare.c's.
 */
#ifndef COPYPERF_COMPARE_H
#define COPYPERF_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include "results_file.h"
#include "stats/mann_whitney.h"
#include "stats/stats.h"

/* The level below which a Mann-Whitney p-value counts as a real difference. */
#define COMPARE_ALPHA 0.05

/* B's speed against A's at one point, as compare reads it (and the table's vs libc column). */
struct compare_verdict {
	struct summary a, b; /* of each side's speeds */
	double ratio;        /* B's median speed over A's */
	struct mann_whitney test; /* B's speeds against A's */
	bool significant;    /* p < COMPARE_ALPHA */
	/*
	 * Where significant, the way the test says B differs: 1 faster, -1 slower
	 * (by U, which counts the pairs where B is faster; the medians may tie
	 * where the timer's ticks are coarse); 0 otherwise.
	 */
	int direction;
	bool regression; /* B significantly below floor x A */
};

/*
 * Judges row b against row a, the same point (floor < 1: also whether b is
 * significantly below floor times a). Pooled rows are tested on their runs'
 * speeds, others on their repeats'.
 */
void compare_judge(const struct result_row *a, const struct result_row *b, double floor,
		   struct compare_verdict *v);

/*
 * Prints the comparison of the results files a_list and b_list (each one
 * file, or a comma list of runs whose repeats are pooled) on standard output;
 * with a threshold above 0, also the gate on it.  Returns 0, 1 when the gate
 * is not passed (a regression past the threshold, a point FAILED in B, or no
 * point compared), or -1 with a one-line reason in why when a side cannot be
 * read or the two sides have no kind of point in common.
 */
int compare_files(const char *a_list, const char *b_list, double threshold, char *why,
		  size_t whylen);

#endif
