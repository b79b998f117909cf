/* SPDX-License-Identifier: MIT */
/*
 * The portable memmove: the fast memcpy when the buffers are disjoint; when
 * they overlap, a word loop in the direction that reads every source byte
 * before the copy overwrites it (forward when dst is below src, else backward).
 */
#include "copy_compat.h"

/* dst below src, overlapping: each word is loaded before the store that may cover it. */
static void move_forward(unsigned char *d, const unsigned char *s, size_t n)
{
	while (n && ((uintptr_t)d & (sizeof(cp_word) - 1))) {
		*d++ = *s++;
		n--;
	}
	/* At this point: d is word aligned. */
	for (; n >= sizeof(cp_word); n -= sizeof(cp_word)) {
		*(cp_word *)d = *(const cp_wordu *)s;
		d += sizeof(cp_word);
		s += sizeof(cp_word);
	}
	while (n--)
		*d++ = *s++;
}

/* dst above src, overlapping: the same from the end. */
static void move_backward(unsigned char *d, const unsigned char *s, size_t n)
{
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
}

void *copyperf_generic_memmove(void *dst, const void *src, size_t n)
{
	if (copy_ranges_disjoint(dst, src, n))
		return copyperf_generic_memcpy(dst, src, n);
	if ((uintptr_t)dst < (uintptr_t)src)
		move_forward(dst, src, n);
	else if (dst != src)
		move_backward(dst, src, n);
	return dst;
}
