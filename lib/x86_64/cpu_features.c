/* SPDX-License-Identifier: MIT */
/* The x86-64 features the copy variants are chosen by: CPUID, and XGETBV for what the OS saves. */
#include "x86_copy.h"

#define XCR0_SSE_AVX 0x6u      /* XMM and YMM state */
#define XCR0_AVX512 0xe0u      /* opmask, ZMM0-15 upper halves, ZMM16-31 */

/* Leaf 1 ECX, leaf 7 EBX and EDX bits. */
#define OSXSAVE (1u << 27)
#define AVX2 (1u << 5)
#define BMI2 (1u << 8)
#define ERMS (1u << 9)
#define AVX512F (1u << 16)
#define AVX512BW (1u << 30)
#define AVX512VL (1u << 31)
#define FSRM (1u << 4)

/* Our own, not <cpuid.h>'s: a sanitizer may instrument that one, and this runs before it can. */
EARLY void copyperf_x86_cpuid(unsigned leaf, unsigned sub, unsigned r[4])
{
	__asm__ volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
			 : "a"(leaf), "c"(sub));
}

EARLY static unsigned long long read_xcr0(void)
{
	unsigned lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((unsigned long long)hi << 32) | lo;
}

EARLY static void detect(struct x86_features *f)
{
	unsigned r[4], max_leaf;
	unsigned long long xcr0 = 0;
	bool amd;

	copyperf_x86_cpuid(0, 0, r);
	max_leaf = r[0];
	amd = r[1] == 0x68747541 && r[3] == 0x69746e65 && r[2] == 0x444d4163; /* AuthenticAMD */
	if (max_leaf < 1)
		return;
	copyperf_x86_cpuid(1, 0, r);
	if (amd) { /* the base family, plus the extended one when the base is 0xf; the model likewise */
		bool extended = ((r[0] >> 8) & 0xf) == 0xf;

		f->amd_family = ((r[0] >> 8) & 0xf) + (extended ? (r[0] >> 20) & 0xff : 0);
		f->amd_model = ((r[0] >> 4) & 0xf) | (extended ? ((r[0] >> 16) & 0xf) << 4 : 0);
	}
	if (r[2] & OSXSAVE)
		xcr0 = read_xcr0();
	if (max_leaf < 7)
		return;
	copyperf_x86_cpuid(7, 0, r);
	f->erms = r[1] & ERMS;
	f->fsrm = r[3] & FSRM;
	f->avx2 = (r[1] & AVX2) && (xcr0 & XCR0_SSE_AVX) == XCR0_SSE_AVX;
	/* bzhi makes the masks of the small copies */
	f->avx512 = f->avx2 && (r[1] & AVX512F) && (r[1] & AVX512BW) && (r[1] & AVX512VL) &&
		    (r[1] & BMI2) && (xcr0 & XCR0_AVX512) == XCR0_AVX512;
}

EARLY const struct x86_features *copyperf_x86_features(void)
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

EARLY int copyperf_x86_has_avx2(void)
{
	return copyperf_x86_features()->avx2;
}

EARLY int copyperf_x86_has_avx512(void)
{
	return copyperf_x86_features()->avx512;
}
