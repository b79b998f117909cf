/* SPDX-License-Identifier: MIT */
/* Byte counts as people write them: 4096, 64K, 32M, 1G (powers of 2^10). */
#ifndef COPYPERF_SIZES_H
#define COPYPERF_SIZES_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parses one size with an optional K, M or G suffix (case-insensitive,
 * an optional trailing B or iB).  Returns 0, or -1 with the reason in err.
 */
int parse_size(const char *text, uint64_t *out, char *err, size_t errlen);

/*
 * Parses a comma list whose items are sizes or ranges LO-HI of powers of two
 * (8-64K ascends, 64K-8 descends).  Allocates *out; returns the count, or -1
 * with the reason in err.
 */
long parse_size_list(const char *text, uint64_t **out, char *err, size_t errlen);

/* v rounded up to a multiple of to (to > 0): pages, lines, huge pages. */
static inline uint64_t round_up(uint64_t v, uint64_t to)
{
	return (v + to - 1) / to * to;
}

/* "64 KiB", "8 B", "1.5 MiB": for headers and titles. */
void format_size(uint64_t bytes, char *buf, size_t len);

#endif
