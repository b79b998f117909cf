/* SPDX-License-Identifier: MIT */
/*
 * A small seeded generator (splitmix64): the same seed gives the same call
 * lists on every machine and architecture, so a run can be repeated.
 */
#ifndef COPYPERF_RANDOM_H
#define COPYPERF_RANDOM_H

#include <stdint.h>

struct rng {
	uint64_t state;
};

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

/* Uniform in [0, bound) for bound > 0; the modulo's bias is below bound / 2^64. */
static inline uint64_t rng_below(struct rng *r, uint64_t bound)
{
	return rng_next(r) % bound;
}

/* Uniform in [0, 1). */
static inline double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1p-53;
}

#endif
