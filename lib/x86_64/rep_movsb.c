/* SPDX-License-Identifier: MIT */
/* The x86 string copy, forward only (DF is clear by the ABI). */
#include "../internal.h"

void *copyperf_rep_movsb(void *dst, const void *src, size_t n);

void *copyperf_rep_movsb(void *dst, const void *src, size_t n)
{
	void *d = dst;

	__asm__ volatile("rep movsb" : "+D"(d), "+S"(src), "+c"(n) : : "memory");
	return dst;
}
