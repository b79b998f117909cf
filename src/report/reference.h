/* SPDX-License-Identifier: MIT */
/*
 * Each point read against the C library's routine of its contract, measured
 * at the same point in the same run: memcpy for a routine that takes disjoint
 * buffers, memmove for one that takes overlapping ones. In the kernel the
 * routines carry no overlap flag, so every one is read against the kernel's
 * memcpy, as the 2008 experiment read __copy_tofrom_user against it. The
 * sweep interleaves the routines' measurements, so the two sets of repeats
 * met the same drift: the rank test on them (compare_judge, as `copyperf
 * compare` reads two runs) says whether the two differ.
 */
#ifndef COPYPERF_REFERENCE_H
#define COPYPERF_REFERENCE_H

#include <stdbool.h>
#include "output.h"

struct point_reading {
	const struct point_result *reference; /* NULL: the point is read against nothing */
	double ratio; /* the point's median speed over the reference's: above 1, faster */
	double p;     /* two-sided Mann-Whitney p-value over the two points' measurements */
	int verdict;  /* 1 faster, -1 slower by the test (COMPARE_ALPHA), 0 no difference */
};

/* A report's points read once: at[i] is point i's. */
struct readings {
	struct point_reading *at;
	bool any; /* some point has a reference */
};

/* The name of the routine p is read against: "memmove" or "memcpy". */
const char *reference_name(const struct point_result *p);

/*
 * Reads every point of r against its reference, where there is one: not where
 * the reference was not measured at the point, the point is the reference,
 * either copied wrongly, or a median time is not above 0. Out of memory: the
 * command's one line, and exit 2 (xalloc.h).
 */
void readings_make(struct readings *out, const struct report *r);
void readings_free(struct readings *rd);

#endif
