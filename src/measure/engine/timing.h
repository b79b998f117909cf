/* SPDX-License-Identifier: MIT */
#ifndef COPYPERF_TIMING_H
#define COPYPERF_TIMING_H

#include <stdint.h>
#include <time.h>

/*
 * For the functions whose loops call the routine being timed: each starts on a
 * cache line of its own, so that a change elsewhere in the program does not
 * move the loop across fetch-block boundaries. A copy of 8-32 B costs about
 * six cycles, and the loop's place alone moved it by one (BENCHMARKS.md).
 */
#define TIMED_LOOP __attribute__((noinline, aligned(64)))

/* Nanoseconds from a monotonic clock that NTP does not slew, where there is one. */
static inline uint64_t now_ns(void)
{
	struct timespec ts;

#ifdef CLOCK_MONOTONIC_RAW
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
#else
	clock_gettime(CLOCK_MONOTONIC, &ts);
#endif
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t clock_cost_ns(void);

#endif
