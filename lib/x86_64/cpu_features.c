/* SPDX-License-Identifier: MIT */
/* The x86-64 features the copy variants are chosen by: CPUID, and XGETBV for what the OS saves. */
#include <cpuid.h>
#include "x86_copy.h"

#define XCR0_SSE_AVX 0x6u      /* XMM and YMM state */
#define XCR0_AVX512 0xe0u      /* opmask, ZMM0-15 upper halves, ZMM16-31 */

EARLY static unsigned long long read_xcr0(void)
{
	unsigned lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((unsigned long long)hi << 32) | lo;
}

EARLY static void detect(struct x86_features *f)
{
	unsigned a, b, c, d, max_leaf = __get_cpuid_max(0, NULL);
	unsigned long long xcr0 = 0;

	f->sse2 = true; /* part of the x86-64 baseline */
	if (max_leaf < 1 || !__get_cpuid(1, &a, &b, &c, &d))
		return;
	if (c & bit_OSXSAVE)
		xcr0 = read_xcr0();
	if (max_leaf < 7)
		return;
	__cpuid_count(7, 0, a, b, c, d);
	f->erms = b & (1u << 9);
	f->fsrm = d & (1u << 4);
	f->avx2 = (b & bit_AVX2) && (xcr0 & XCR0_SSE_AVX) == XCR0_SSE_AVX;
	f->avx512 = f->avx2 && (b & bit_AVX512F) && (b & bit_AVX512BW) && (b & bit_AVX512VL) &&
		    (xcr0 & XCR0_AVX512) == XCR0_AVX512;
}

EARLY const struct x86_features *x86_features(void)
{
	static struct x86_features f;
	static int done; /* racing first callers compute the same answer */

	if (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
		struct x86_features mine = { 0 };

		detect(&mine);
		f = mine;
		__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	}
	return &f;
}

EARLY int x86_has_avx2(void)
{
	return x86_features()->avx2;
}

EARLY int x86_has_avx512(void)
{
	return x86_features()->avx512;
}

EARLY int x86_has_erms(void)
{
	return x86_features()->erms;
}
