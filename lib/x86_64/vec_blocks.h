/* SPDX-License-Identifier: MIT */
/*
 * The small copies every x86-64 variant starts from: overlapping moves from
 * both ends, every load before any store, so they serve memmove as well.
 */
#ifndef COPYPERF_X86_VEC_BLOCKS_H
#define COPYPERF_X86_VEC_BLOCKS_H

#include <immintrin.h>
#include "../generic/copy_compat.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* 0 <= n < 16. */
ALWAYS_INLINE void copy_below16(unsigned char *d, const unsigned char *s, size_t n)
{
	if (n >= 8) {
		uint64_t a = *(const cp_u64u *)s, b = *(const cp_u64u *)(s + n - 8);

		*(cp_u64u *)d = a;
		*(cp_u64u *)(d + n - 8) = b;
	} else if (n >= 4) {
		uint32_t a = *(const cp_u32u *)s, b = *(const cp_u32u *)(s + n - 4);

		*(cp_u32u *)d = a;
		*(cp_u32u *)(d + n - 4) = b;
	} else if (n >= 2) {
		uint16_t a = *(const cp_u16u *)s, b = *(const cp_u16u *)(s + n - 2);

		*(cp_u16u *)d = a;
		*(cp_u16u *)(d + n - 2) = b;
	} else if (n) {
		*d = *s;
	}
}

/* 16 <= n <= 32. */
ALWAYS_INLINE void copy_16_32(unsigned char *d, const unsigned char *s, size_t n)
{
	__m128i a = _mm_loadu_si128((const __m128i *)s);
	__m128i b = _mm_loadu_si128((const __m128i *)(s + n - 16));

	_mm_storeu_si128((__m128i *)d, a);
	_mm_storeu_si128((__m128i *)(d + n - 16), b);
}

/* 32 <= n <= 64, for the variants that have 32-byte registers. */
ALWAYS_INLINE __attribute__((target("avx2"))) void
copy_32_64(unsigned char *d, const unsigned char *s, size_t n)
{
	__m256i a = _mm256_loadu_si256((const __m256i *)s);
	__m256i b = _mm256_loadu_si256((const __m256i *)(s + n - 32));

	_mm256_storeu_si256((__m256i *)d, a);
	_mm256_storeu_si256((__m256i *)(d + n - 32), b);
}

/* The string copy, forward (the ABI keeps DF clear); never used backward. */
ALWAYS_INLINE void rep_movsb_forward(unsigned char *d, const unsigned char *s, size_t n)
{
	__asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

#endif
