/* SPDX-License-Identifier: MIT */
/*
 * Each point read against the C library's routine of its contract, measured
 * at the same point in the same run: memcpy for a routine that takes disjoint
 * buffers, memmove for one that takes overlapping ones. In the kernel the
 * routines carry no overlap flag, so every one is read against the kernel's
 * memcpy, as the 2008 experiment read __copy_tofrom_user against it. The
 * sweep interleaves the routines' measurements, so the two sets of repeats
 * met the same drift: the rank test on them says whether the two differ.
 */
#ifndef COPYPERF_REFERENCE_H
#define COPYPERF_REFERENCE_H

#include <stdbool.h>
#include "output.h"

struct point_reading {
	const struct point_result *reference;
	double ratio; /* the point's median speed over the reference's: above 1, faster */
	double p;     /* two-sided Mann-Whitney p-value over the two points' measurements */
	int verdict;  /* 1 faster, -1 slower, 0 no difference at COMPARE_ALPHA */
};

/* The name of the routine p is read against: "memmove" or "memcpy". */
const char *reference_name(const struct point_result *p);

/*
 * Reads p against its reference in r. False, *out untouched, where there is
 * nothing to read: the reference was not measured at p's point, p is the
 * reference, or either copied wrongly.
 */
bool point_read(const struct report *r, const struct point_result *p, struct point_reading *out);

/* True when some point of r has a reference to be read against. */
bool report_has_readings(const struct report *r);

#endif
