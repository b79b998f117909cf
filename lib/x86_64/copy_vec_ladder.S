/* SPDX-License-Identifier: MIT */
/*
 * The SSE2 and AVX2 variants' entry points in the library: the ladder of
 * vec_ladder.inc, which says its steps, laid out once for each.
 */
#include "blocks.inc"
#include "vec_ladder.inc"

	.text
VEC_LADDER copyperf_memcpy_sse2, copyperf_x86_sse2_memcpy_large, copyperf_x86_forward_sse2, 0, \
	SSE2_VECTORS
VEC_LADDER copyperf_memmove_sse2, copyperf_x86_sse2_memmove_large, copyperf_x86_forward_sse2, 1, \
	SSE2_VECTORS
VEC_LADDER copyperf_memcpy_avx2, copyperf_x86_avx2_memcpy_large, copyperf_x86_forward_avx2, 0, \
	AVX2_VECTORS
VEC_LADDER copyperf_memmove_avx2, copyperf_x86_avx2_memmove_large, copyperf_x86_forward_avx2, 1, \
	AVX2_VECTORS

	.section .note.GNU-stack, "", @progbits
