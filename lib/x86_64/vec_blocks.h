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

/* The string copy, forward (the ABI keeps DF clear); never used backward. */
ALWAYS_INLINE void rep_movsb_forward(unsigned char *d, const unsigned char *s, size_t n)
{
	__asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

#endif
