/* SPDX-License-Identifier: MIT */
/*
 * `copyperf compare A.json B.json`: B's speed against A's at every point
 * both measured, whether the difference is real, and a CI gate on it.  Its
 * command line is src/builtin-compare.c's.
 */
#ifndef COPYPERF_COMPARE_H
#define COPYPERF_COMPARE_H

#include <stddef.h>

/* The level below which a Mann-Whitney p-value counts as a real difference. */
#define COMPARE_ALPHA 0.05

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
