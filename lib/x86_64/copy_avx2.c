/* SPDX-License-Identifier: MIT */
/* The AVX2 copy: 32-byte vectors. */
#define VEC_SIZE 32
#define VEC_ISA avx2
#define VEC_TARGET "avx2"
#define vec_t __m256i
#define VEC_LOAD(p) _mm256_loadu_si256((const __m256i *)(p))
#define VEC_STOREU(p, v) _mm256_storeu_si256((__m256i *)(p), (v))
#define VEC_STOREA(p, v) _mm256_store_si256((__m256i *)(p), (v))
#define VEC_STREAM(p, v) _mm256_stream_si256((__m256i *)(p), (v))
#include "vec_copy.h"

/* The AVX2 forward loop, for the AVX-512 variant too (x86_copy.h). */
VEC_FN void *copyperf_x86_forward_avx2(unsigned char *d, const unsigned char *s, size_t n)
{
	return copy_forward(d, s, n);
}
