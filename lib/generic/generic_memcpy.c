/* SPDX-License-Identifier: MIT */
/*
 * The portable memcpy, correct on any architecture: overlapping head and tail
 * moves for small sizes (every load before any store), then a word loop with
 * the destination aligned.  Compiled into the library and into the module.
 */
#include "copy_compat.h"

/* Copies 1 <= n <= 16 bytes with at most four loads, all before the stores. */
static inline void copy_upto16(unsigned char *d, const unsigned char *s, size_t n)
{
	if (n >= 8) {
		uint64_t a = *(const cp_u64u *)s, b = *(const cp_u64u *)(s + n - 8);

		*(cp_u64u *)d = a;
		*(cp_u64u *)(d + n - 8) = b;
	} else if (n >= 4) {
		uint32_t a = *(const cp_u32u *)s, b = *(const cp_u32u *)(s + n - 4);

		*(cp_u32u *)d = a;
		*(cp_u32u *)(d + n - 4) = b;
	} else {
		unsigned char a = s[0], b = s[n / 2], c = s[n - 1];

		d[0] = a;
		d[n / 2] = b;
		d[n - 1] = c;
	}
}

/* Copies 16 <= n <= 32 bytes: two 16-byte blocks from both ends. */
static inline void copy_16_32(unsigned char *d, const unsigned char *s, size_t n)
{
	uint64_t a = *(const cp_u64u *)s, b = *(const cp_u64u *)(s + 8);
	uint64_t c = *(const cp_u64u *)(s + n - 16), e = *(const cp_u64u *)(s + n - 8);

	*(cp_u64u *)d = a;
	*(cp_u64u *)(d + 8) = b;
	*(cp_u64u *)(d + n - 16) = c;
	*(cp_u64u *)(d + n - 8) = e;
}

void *copyperf_generic_memcpy(void *__restrict dst, const void *__restrict src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	size_t skew;

	if (n == 0)
		return dst;
	if (n <= 16) {
		copy_upto16(d, s, n);
		return dst;
	}
	if (n <= 32) {
		copy_16_32(d, s, n);
		return dst;
	}
	/* Head: 16 bytes as they are, then step forward to a word-aligned destination. */
	copy_16_32(d, s, 16);
	skew = sizeof(cp_word) - ((uintptr_t)d & (sizeof(cp_word) - 1));
	d += skew;
	s += skew;
	n -= skew;
	/* At this point: d is word aligned, n > 16. The last 16 bytes go by the tail. */
	while (n > 16 + 4 * sizeof(cp_word)) {
		cp_word w0 = ((const cp_wordu *)s)[0], w1 = ((const cp_wordu *)s)[1];
		cp_word w2 = ((const cp_wordu *)s)[2], w3 = ((const cp_wordu *)s)[3];

		((cp_word *)d)[0] = w0;
		((cp_word *)d)[1] = w1;
		((cp_word *)d)[2] = w2;
		((cp_word *)d)[3] = w3;
		d += 4 * sizeof(cp_word);
		s += 4 * sizeof(cp_word);
		n -= 4 * sizeof(cp_word);
	}
	/* 16 < n <= 16 + 4 words: at most two overlapping 16..32-byte blocks. */
	if (n > 32) {
		copy_16_32(d, s, 32);
		d += 32;
		s += 32;
		n -= 32;
	}
	if (n >= 16)
		copy_16_32(d, s, n);
	else
		copy_upto16(d, s, n);
	return dst;
}
