/* SPDX-License-Identifier: MIT */
/*
 * A naive word-at-a-time copy: bytes until the destination is word aligned,
 * then one machine word per iteration (the source may stay unaligned), then
 * the remaining bytes.  What a straightforward C memcpy does.
 */
#include "../internal.h"
#include "copy_compat.h"

COPYPERF_NO_VECTORIZE
void *copyperf_word_copy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	COPYPERF_LOOP_PLAIN
	while (n && ((uintptr_t)d % sizeof(cp_word))) {
		*d++ = *s++;
		n--;
	}
	COPYPERF_LOOP_PLAIN
	for (; n >= sizeof(cp_word); n -= sizeof(cp_word)) {
		*(cp_word *)d = *(const cp_wordu *)s;
		d += sizeof(cp_word);
		s += sizeof(cp_word);
	}
	COPYPERF_LOOP_PLAIN
	while (n--)
		*d++ = *s++;
	return dst;
}
