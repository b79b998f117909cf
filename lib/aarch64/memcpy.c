/* SPDX-License-Identifier: MIT */
/*
 * libcopyperf's memcpy on AArch64: 16-byte q-register moves, heads and tails
 * done as overlapping blocks from both ends (no byte loops), and for large
 * copies each whole destination block of the `dc zva` size zeroed first, so
 * the core need not read the old destination.
 */
#include "../internal.h"
#include "../generic/copy_compat.h"
#include "zva_block.h"
#include "zva_policy.h"

/* A q register: legal at any address (unaligned ldr/str q) and for any type. */
typedef unsigned char qword __attribute__((vector_size(16), may_alias, aligned(1)));


/* 32 < n <= 128: up to four blocks from each end, every load before any store. */
static inline void copy_32_128(unsigned char *d, const unsigned char *s, size_t n)
{
	qword a = *(const qword *)s, b = *(const qword *)(s + 16);
	qword y = *(const qword *)(s + n - 32), z = *(const qword *)(s + n - 16);

	if (n > 64) {
		qword c = *(const qword *)(s + 32), e = *(const qword *)(s + 48);
		qword w = *(const qword *)(s + n - 64), x = *(const qword *)(s + n - 48);

		*(qword *)(d + 32) = c;
		*(qword *)(d + 48) = e;
		*(qword *)(d + n - 64) = w;
		*(qword *)(d + n - 48) = x;
	}
	*(qword *)d = a;
	*(qword *)(d + 16) = b;
	*(qword *)(d + n - 32) = y;
	*(qword *)(d + n - 16) = z;
}

/* n, a multiple of 64, in 64-byte steps (ldp/stp q pairs). */
static inline void copy_64s(unsigned char *d, const unsigned char *s, size_t n)
{
	for (size_t off = 0; off < n; off += 64) {
		const qword *q = (const qword *)(s + off);
		qword a = q[0], b = q[1], c = q[2], e = q[3];
		qword *o = (qword *)(d + off);

		o[0] = a;
		o[1] = b;
		o[2] = c;
		o[3] = e;
	}
}

/* Whole blocks of the block-aligned d: zero each with dc zva, then fill it. */
static void copy_zva_blocks(unsigned char *d, const unsigned char *s, size_t blocks,
			    size_t block)
{
	for (; blocks; blocks--, d += block, s += block) {
		__asm__ volatile("dc zva, %0" : : "r"(d) : "memory");
		copy_64s(d, s, block);
	}
}

void *copyperf_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	size_t skew, block;

	if (n <= 32)
		return copyperf_generic_memcpy(dst, src, n);
	if (n <= 128) {
		copy_32_128(d, s, n);
		return dst;
	}
	/* The last 64 bytes first: after this only whole 64-byte steps remain to do. */
	copy_32_128(d + n - 64, s + n - 64, 64);
	/* Head: 64 bytes as they are, then on from the next 64-byte aligned destination. */
	copy_32_128(d, s, 64);
	skew = 64 - ((uintptr_t)d & 63);
	d += skew;
	s += skew;
	n -= skew;
	block = copyperf_zva_block();
	/*
	 * Not on overlapping buffers (undefined for memcpy, yet done: a struct
	 * assigned to itself): dc zva would zero source bytes not read yet.
	 */
	if (n >= ZVA_MIN_COPY && block >= ZVA_MIN_BLOCK && block <= ZVA_MAX_BLOCK &&
	    copy_ranges_disjoint(d, s, n)) {
		size_t to_block = -(uintptr_t)d & (block - 1); /* a multiple of 64 */

		if (n - to_block >= block) {
			copy_64s(d, s, to_block);
			d += to_block;
			s += to_block;
			n -= to_block;
			copy_zva_blocks(d, s, n / block, block);
			d += n / block * block;
			s += n / block * block;
			n %= block;
		}
	}
	/* Whatever is left beyond these steps is inside the last 64 bytes, already copied. */
	copy_64s(d, s, n & ~(size_t)63);
	return dst;
}
