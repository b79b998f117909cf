/* SPDX-License-Identifier: MIT */
/* The AVX2 variant's large copies, above 256 bytes: 32-byte vectors. */
#define VEC_SIZE 32
#define VEC_TARGET "avx2"
#define vec_t __m256i
#define VEC_LOAD(p) _mm256_loadu_si256((const __m256i *)(p))
#define VEC_STOREU(p, v) _mm256_storeu_si256((__m256i *)(p), (v))
#define VEC_STOREA(p, v) _mm256_store_si256((__m256i *)(p), (v))
#define VEC_STREAM(p, v) _mm256_stream_si256((__m256i *)(p), (v))
#define VEC_FORWARD copyperf_x86_forward_avx2
#define VEC_BACKWARD copyperf_x86_backward_avx2
#include "vec_copy.h"

LARGE void *copyperf_x86_avx2_memcpy_large(void *dst, const void *src, size_t n)
{
	return copy_large(dst, src, n, 0);
}

LARGE void *copyperf_x86_avx2_memmove_large(void *dst, const void *src, size_t n)
{
	return copy_large(dst, src, n, 1);
}
