/* SPDX-License-Identifier: MIT */
/* Portable memmove: forward when the destination is below the source, else backward. */
#include <stdint.h>
#include "../internal.h"

void *copyperf_memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if ((uintptr_t)d - (uintptr_t)s >= n) /* no overlap that a forward copy would clobber */
		return copyperf_memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}
