/* SPDX-License-Identifier: MIT */
/*
 * Position-dependent test data: a copy that lands at the wrong offset, skips
 * a byte or writes nothing is told apart from a right one.
 */
#ifndef COPYPERF_PATTERN_H
#define COPYPERF_PATTERN_H

#include <stddef.h>
#include <stdint.h>

/* The byte expected at position i of a source (a multiplicative hash of i). */
static inline unsigned char pattern_byte(uint64_t i)
{
	return (unsigned char)(((i + 1) * 0x9E3779B97F4A7C15ull) >> 56);
}

/* buf[k] = pattern_byte(first + k), or its complement with invert. */
void pattern_fill(unsigned char *buf, size_t len, uint64_t first, int invert);

/*
 * Index of the first k in [0, len) where buf[k] is not the (inverted) pattern
 * at first + k, or len if there is none.
 */
size_t pattern_mismatch(const unsigned char *buf, size_t len, uint64_t first, int invert);

/*
 * A walk's pass over its buffers, checked before the next pass overwrites
 * it against ref, what a right pass leaves (a copy of the source that no
 * routine is given, so that one writing its source cannot move the mark):
 * the first k in [0, len) where dst[k] is not ref[k], with dst left as it
 * was; or len, with dst made the complement of ref again, so that the next
 * pass must write every byte to pass its own check.
 */
size_t pattern_pass_check(unsigned char *dst, const unsigned char *ref, size_t len);

/*
 * Whether a timed walk checks its passes at its wraps (with its timer paused)
 * rather than leaving them to an untimed walk of the same calls: in every
 * cache mode but hot with passes under 4 MiB.  Even at 256 GB/s a 4 MiB pass
 * takes 16 us, 800 times the clock read a pause leaves in the time; a hot
 * 256-byte pass takes 5 ns.
 */
static inline int pattern_pass_checked_in_walk(int hot, size_t walk)
{
	return !hot || walk >= ((size_t)4 << 20);
}

#endif
