/* SPDX-License-Identifier: MIT */
/*
 * `copyperf compare A.json B.json`: B's speed against A's at every point
 * both measured, whether the difference is real, and a CI gate on it.
 */
#ifndef COPYPERF_COMPARE_H
#define COPYPERF_COMPARE_H

#include <stddef.h>

/* The level below which a Mann-Whitney p-value counts as a real difference. */
#define COMPARE_ALPHA 0.05

/* argv[0] is "compare".  Returns the exit status: 0, 1 (a regression past --threshold), 2. */
int compare_main(int argc, char **argv);

#endif
