/* SPDX-License-Identifier: MIT */
/* x86-64 routines offered to the command by name. */
#include "x86_copy.h"

const struct copyperf_routine copyperf_arch_routines[] = {
	{ "rep-movsb", "x86 'rep movsb' string copy (fast with ERMS/FSRM)", copyperf_rep_movsb, NULL, 0 },
	{ "copyperf_memcpy_sse2", "libcopyperf's memcpy, SSE2 variant (16-byte vectors)",
	  copyperf_memcpy_sse2, NULL, 0 },
	{ "copyperf_memcpy_avx2", "libcopyperf's memcpy, AVX2 variant (32-byte vectors)",
	  copyperf_memcpy_avx2, copyperf_x86_has_avx2, 0 },
	{ "copyperf_memcpy_avx512", "libcopyperf's memcpy, AVX-512 variant (64-byte vectors)",
	  copyperf_memcpy_avx512, copyperf_x86_has_avx512, 0 },
	{ "copyperf_memcpy_avx512_branchless",
	  "libcopyperf's memcpy, AVX-512 variant without a size test under 64 B (for varied sizes)",
	  copyperf_memcpy_avx512_branchless, copyperf_x86_has_avx512, 0 },
	{ "copyperf_memmove_sse2", "libcopyperf's memmove, SSE2 variant", copyperf_memmove_sse2,
	  NULL, COPYPERF_OVERLAP_OK },
	{ "copyperf_memmove_avx2", "libcopyperf's memmove, AVX2 variant", copyperf_memmove_avx2,
	  copyperf_x86_has_avx2, COPYPERF_OVERLAP_OK },
	{ "copyperf_memmove_avx512", "libcopyperf's memmove, AVX-512 variant",
	  copyperf_memmove_avx512, copyperf_x86_has_avx512, COPYPERF_OVERLAP_OK },
	{ "copyperf_memmove_avx512_branchless",
	  "libcopyperf's memmove, AVX-512 variant without a size test under 64 B",
	  copyperf_memmove_avx512_branchless, copyperf_x86_has_avx512, COPYPERF_OVERLAP_OK },
};
const size_t copyperf_arch_routine_count =
	sizeof(copyperf_arch_routines) / sizeof(copyperf_arch_routines[0]);
