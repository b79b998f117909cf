/* SPDX-License-Identifier: MIT */
/*
 * The portable memmove: the forward copy when the buffers do not overlap in a
 * way that would clobber unread source bytes, else a backward word loop.
 */
#include "copy_compat.h"

void *copyperf_generic_memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	/* dst - src >= n (unsigned): dst is below src, or past the source's end. */
	if ((uintptr_t)d - (uintptr_t)s >= n)
		return copyperf_generic_memcpy(dst, src, n);
	/* Backward: dst is above src and they overlap.  Bytes to a word-aligned end first. */
	while (n && ((uintptr_t)(d + n) & (sizeof(cp_word) - 1))) {
		n--;
		d[n] = s[n];
	}
	/* At this point: d + n is word aligned. */
	while (n >= sizeof(cp_word)) {
		n -= sizeof(cp_word);
		*(cp_word *)(d + n) = *(const cp_wordu *)(s + n);
	}
	while (n) {
		n--;
		d[n] = s[n];
	}
	return dst;
}
