/* SPDX-License-Identifier: MIT */
#ifndef COPYPERF_TIMING_H
#define COPYPERF_TIMING_H

#include <stdint.h>
#include <time.h>

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

#endif
