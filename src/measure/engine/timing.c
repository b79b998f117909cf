/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include "timing.h"

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * What one reading of the clock adds to a timed interval: the median gap
 * between two readings back to back (a median, so that an interrupt between
 * two of them does not count).
 */
uint64_t clock_cost_ns(void)
{
	enum { READS = 101 };
	uint64_t gap[READS];

	for (int i = 0; i < READS; i++) {
		uint64_t t = now_ns();

		gap[i] = now_ns() - t;
	}
	qsort(gap, READS, sizeof(*gap), by_value);
	return gap[READS / 2] ? gap[READS / 2] : 1;
}
