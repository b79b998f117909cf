/* SPDX-License-Identifier: MIT */
/*
 * The AVX-512 variants' entry points in the library: the ladder of
 * avx512_ladder.inc, which says its steps, laid out once for each.
 */
#include "blocks.inc"
#include "avx512_ladder.inc"

	.text
SIZE_TESTED copyperf_memcpy_avx512, copyperf_x86_avx512_memcpy_large, 0
SIZE_TESTED copyperf_memmove_avx512, copyperf_x86_avx512_memmove_large, 1
BRANCHLESS copyperf_memcpy_avx512_branchless, copyperf_x86_avx512_memcpy_large, 0
BRANCHLESS copyperf_memmove_avx512_branchless, copyperf_x86_avx512_memmove_large, 1

LADDER_DATA

/* For the unit test (test_masked_fits.c): whether PAGE_TEST passes (dst, src): 1 or 0. */
ENTRY copyperf_x86_page_test
	PAGE_TEST
	setz	%al
	movzbl	%al, %eax
	ret
END copyperf_x86_page_test

	.section .note.GNU-stack, "", @progbits
