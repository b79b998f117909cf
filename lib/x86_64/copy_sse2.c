/* SPDX-License-Identifier: MIT */
/* The x86-64 baseline's large copies, above 128 bytes: 16-byte SSE2 vectors. */
#define VEC_SIZE 16
#define VEC_TARGET "sse2"
#define vec_t __m128i
#define VEC_LOAD(p) _mm_loadu_si128((const __m128i *)(p))
#define VEC_STOREU(p, v) _mm_storeu_si128((__m128i *)(p), (v))
#define VEC_STOREA(p, v) _mm_store_si128((__m128i *)(p), (v))
#define VEC_STREAM(p, v) _mm_stream_si128((__m128i *)(p), (v))
#define VEC_FORWARD copyperf_x86_forward_sse2
#define VEC_BACKWARD copyperf_x86_backward_sse2
#include "vec_copy.h"

LARGE void *copyperf_x86_sse2_memcpy_large(void *dst, const void *src, size_t n)
{
	return copy_large(dst, src, n, 0);
}

LARGE void *copyperf_x86_sse2_memmove_large(void *dst, const void *src, size_t n)
{
	return copy_large(dst, src, n, 1);
}
