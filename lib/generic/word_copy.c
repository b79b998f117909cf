/* SPDX-License-Identifier: MIT */
/*
 * A naive word-at-a-time copy: bytes until the destination is word aligned,
 * then one machine word per iteration (the source may stay unaligned), then
 * the remaining bytes.  What a straightforward C memcpy does.
 */
#include <stdint.h>
#include "../internal.h"

/* may_alias + aligned(1): a word access that is legal at any address and type. */
typedef unsigned long __attribute__((may_alias, aligned(1))) unaligned_word;
typedef unsigned long __attribute__((may_alias)) aligned_word;

COPYPERF_NO_VECTORIZE
void *copyperf_word_copy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	COPYPERF_LOOP_PLAIN
	while (n && ((uintptr_t)d % sizeof(aligned_word))) {
		*d++ = *s++;
		n--;
	}
	COPYPERF_LOOP_PLAIN
	for (; n >= sizeof(aligned_word); n -= sizeof(aligned_word)) {
		*(aligned_word *)d = *(const unaligned_word *)s;
		d += sizeof(aligned_word);
		s += sizeof(aligned_word);
	}
	COPYPERF_LOOP_PLAIN
	while (n--)
		*d++ = *s++;
	return dst;
}
