/* SPDX-License-Identifier: MIT */
/*
 * The AVX-512 copies above 128 bytes: 64-byte vectors, one cache line per
 * register. Both AVX-512 variants' entries (copy_avx512_small.S) jump here.
 */
#define VEC_ISA avx512
#define VEC_SIZE 64
#define VEC_TARGET "avx2,avx512f,avx512bw,avx512vl,bmi2"
#define vec_t __m512i
#define VEC_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define VEC_STOREU(p, v) _mm512_storeu_si512((void *)(p), (v))
#define VEC_STOREA(p, v) _mm512_store_si512((void *)(p), (v))
#define VEC_STREAM(p, v) _mm512_stream_si512((void *)(p), (v))

/*
 * 129-512 B go in 32-byte vectors (vec_copy.h): eight to sixteen of them ran
 * ahead of four or eight 64-byte ones in walks at every placement (make
 * bench-walk): a 64-byte access at a random address spans two lines nearly
 * always, a 32-byte one half the time.
 */
#define HALF_SIZE 32
#define half_t __m256i
#define HALF_LOAD(p) _mm256_loadu_si256((const void *)(p))
#define HALF_STOREU(p, v) _mm256_storeu_si256((void *)(p), (v))

/*
 * The loop past 8 vectors: its own or AVX2's, as the tuning says (tuning.c);
 * where it is its own, copies up to 16 vectors take no loop (vec_copy.h's
 * LOOPLESS_MAX, measured on Zen 5; with AVX2's loop, on Zen 4, not measured).
 */
#define VEC_FORWARD(d, s, n) \
	(copyperf_x86_tuning.loop_vec == 32 ? copyperf_x86_forward_avx2(d, s, n) : copy_forward(d, s, n))
#define VEC_LOOPLESS_16 (copyperf_x86_tuning.loop_vec != 32)

#define VEC_SMALL_IN_ASM
#include "vec_copy.h"
