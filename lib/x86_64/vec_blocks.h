/* SPDX-License-Identifier: MIT */
/*
 * The small copies every x86-64 variant without byte masks starts from, and
 * the string copy: overlapping moves from both ends, every load before any
 * store, so they serve memmove as well.
 */
#ifndef COPYPERF_X86_VEC_BLOCKS_H
#define COPYPERF_X86_VEC_BLOCKS_H

#include <immintrin.h>
#include "../generic/copy_compat.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

/*
 * 0 <= n <= 64 with few size tests, for the ISAs without byte masks: four
 * overlapping moves from both ends whose middle pair moves with the size
 * (k), so 16..64 bytes take one path and 4..15 another, where a ladder of
 * widths takes five (BENCHMARKS.md, "Call mixes"). Every load comes before
 * any store: memmove too.
 */
ALWAYS_INLINE void copy_upto_64(unsigned char *d, const unsigned char *s, size_t n)
{
	if (n >= 16) { /* [0,16) [k,k+16) [n-16-k,n-k) [n-16,n): all of it for n <= 64 */
		size_t k = (size_t)(n > 32) << 4;
		__m128i a = _mm_loadu_si128((const __m128i *)s);
		__m128i b = _mm_loadu_si128((const __m128i *)(s + k));
		__m128i c = _mm_loadu_si128((const __m128i *)(s + n - 16 - k));
		__m128i e = _mm_loadu_si128((const __m128i *)(s + n - 16));

		_mm_storeu_si128((__m128i *)d, a);
		_mm_storeu_si128((__m128i *)(d + k), b);
		_mm_storeu_si128((__m128i *)(d + n - 16 - k), c);
		_mm_storeu_si128((__m128i *)(d + n - 16), e);
	} else if (n >= 4) { /* the same with 4-byte words, for n <= 16 */
		size_t k = (size_t)(n >= 8) << 2;
		uint32_t a = *(const cp_u32u *)s, b = *(const cp_u32u *)(s + k);
		uint32_t c = *(const cp_u32u *)(s + n - 4 - k), e = *(const cp_u32u *)(s + n - 4);

		*(cp_u32u *)d = a;
		*(cp_u32u *)(d + k) = b;
		*(cp_u32u *)(d + n - 4 - k) = c;
		*(cp_u32u *)(d + n - 4) = e;
	} else if (n) { /* 1..3: first, middle, last */
		unsigned char a = s[0], b = s[n >> 1], c = s[n - 1];

		d[0] = a;
		d[n >> 1] = b;
		d[n - 1] = c;
	}
}

/*
 * 0 <= n < 32 by a ladder of widths, the smallest first: two moves from both
 * ends of the widest that fits, and below 4 bytes the first byte and the last
 * two. No store is made twice: where a destination crosses a page every store
 * that spans the boundary is slow, and copy_upto_64 would make two of them
 * where this makes at most one (and none below 4 bytes that it need not).
 * Every load comes before any store: memmove too.
 */
ALWAYS_INLINE void copy_under_32_ladder(unsigned char *d, const unsigned char *s, size_t n)
{
	if (n < 4) {
		if (n) {
			unsigned char a = s[0];

			if (n > 1) {
				uint16_t b = *(const cp_u16u *)(s + n - 2);

				*(cp_u16u *)(d + n - 2) = b;
			}
			*d = a;
		}
	} else if (n < 8) {
		uint32_t a = *(const cp_u32u *)s, b = *(const cp_u32u *)(s + n - 4);

		*(cp_u32u *)d = a;
		*(cp_u32u *)(d + n - 4) = b;
	} else if (n < 16) {
		uint64_t a = *(const cp_u64u *)s, b = *(const cp_u64u *)(s + n - 8);

		*(cp_u64u *)d = a;
		*(cp_u64u *)(d + n - 8) = b;
	} else {
		__m128i a = _mm_loadu_si128((const __m128i *)s);
		__m128i b = _mm_loadu_si128((const __m128i *)(s + n - 16));

		_mm_storeu_si128((__m128i *)d, a);
		_mm_storeu_si128((__m128i *)(d + n - 16), b);
	}
}

/*
 * Whether n bytes from d (n <= 4096) end in another page than they start, with
 * pages of 4 KiB or more; for 0 bytes, whether d starts a page. In integers:
 * d may be NULL.
 */
ALWAYS_INLINE int crosses_page(const unsigned char *d, size_t n)
{
	uintptr_t first = (uintptr_t)d;

	return ((first ^ (first + n - 1)) & 4096) != 0;
}

/* The string copy, forward (the ABI keeps DF clear); never used backward. */
ALWAYS_INLINE void rep_movsb_forward(unsigned char *d, const unsigned char *s, size_t n)
{
	__asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

#endif
