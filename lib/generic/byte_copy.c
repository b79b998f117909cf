/* SPDX-License-Identifier: MIT */
/* The simplest copy there is: the floor every other routine is measured against. */
#include "../internal.h"

COPYPERF_NO_VECTORIZE
void *copyperf_byte_copy(void *dst, const void *src, size_t n)
{
	volatile unsigned char *d = dst; /* volatile: one load and one store per byte, as written */
	const unsigned char *s = src;

	COPYPERF_LOOP_PLAIN
	for (size_t i = 0; i < n; i++)
		d[i] = s[i];
	return dst;
}
