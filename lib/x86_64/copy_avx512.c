/* SPDX-License-Identifier: MIT */
/*
 * The AVX-512 variants' large copies, past their ladders' blocks (above 512
 * or 1024 bytes, the tuning's blocks_max): 64-byte vectors, one cache line
 * per register.
 */
#define VEC_SIZE 64
#define VEC_TARGET "avx2,avx512f,avx512bw,avx512vl,bmi2"
#define vec_t __m512i
#define VEC_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define VEC_STOREU(p, v) _mm512_storeu_si512((void *)(p), (v))
#define VEC_STOREA(p, v) _mm512_store_si512((void *)(p), (v))
#define VEC_STREAM(p, v) _mm512_stream_si512((void *)(p), (v))
/* The loops: 64-byte vectors or 32-byte ones, as the tuning says (tuning.c). */
#define VEC_FORWARD copyperf_x86_forward_avx512_tuned
#define VEC_BACKWARD copyperf_x86_backward_avx512_tuned
#include "vec_copy.h"

LARGE void *copyperf_x86_avx512_memcpy_large(void *dst, const void *src, size_t n)
{
	return copy_large(dst, src, n, 0);
}

LARGE void *copyperf_x86_avx512_memmove_large(void *dst, const void *src, size_t n)
{
	return copy_large(dst, src, n, 1);
}
