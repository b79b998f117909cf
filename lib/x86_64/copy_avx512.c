/* SPDX-License-Identifier: MIT */
/* The AVX-512 copy: 64-byte vectors, one cache line per register. */
#define VEC_SIZE 64
#define VEC_ISA avx512
#define VEC_TARGET "avx2,avx512f,avx512bw,avx512vl"
#define vec_t __m512i
#define VEC_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define VEC_STOREU(p, v) _mm512_storeu_si512((void *)(p), (v))
#define VEC_STOREA(p, v) _mm512_store_si512((void *)(p), (v))
#define VEC_STREAM(p, v) _mm512_stream_si512((void *)(p), (v))
#include "vec_copy.h"
