/* SPDX-License-Identifier: MIT */
/* The AVX-512 copy: 64-byte vectors, one cache line per register. */
#define VEC_SIZE 64
#define VEC_ISA avx512
#define VEC_TARGET "avx2,avx512f,avx512bw,avx512vl,bmi2"
#define vec_t __m512i
#define VEC_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define VEC_STOREU(p, v) _mm512_storeu_si512((void *)(p), (v))
#define VEC_STOREA(p, v) _mm512_store_si512((void *)(p), (v))
#define VEC_STREAM(p, v) _mm512_stream_si512((void *)(p), (v))

#include "vec_blocks.h"

/*
 * Whether a masked move of n <= 64 bytes may be made at s and d: n is not 0 (a
 * copy of 0 bytes may come with any pointers, NULL too) and neither 64-byte
 * window runs into the next page. A masked-off byte in an unmapped or
 * read-only page costs a suppressed fault, 500-800 ns on Zen 4
 * (bench/masked_ops.c); a window runs into the next page for 1.5% of random
 * pointers, and those take the plain moves.
 */
ALWAYS_INLINE int masked_move_fits(const void *d, const void *s, size_t n)
{
	uintptr_t ps = (uintptr_t)s, pd = (uintptr_t)d;

	/* the window's last byte is in another page: adding 63 changes the page number */
	return n && !((((ps + 63) ^ ps) | ((pd + 63) ^ pd)) & 4096);
}

/*
 * 1 <= n <= 64 in one masked move: no size ladder, so a call whose size the
 * branch predictor cannot guess costs no mispredicted branch (BENCHMARKS.md,
 * "Call mixes"). Masked-off bytes are neither read nor written and do not
 * fault. The load comes first: memmove too.
 */
ALWAYS_INLINE __attribute__((target("avx512f,avx512bw,bmi2"))) void
copy_masked_64(unsigned char *d, const unsigned char *s, size_t n)
{
	__mmask64 m = _bzhi_u64(~0ull, (unsigned)n);

	_mm512_mask_storeu_epi8(d, m, _mm512_maskz_loadu_epi8(m, s));
}

#define VEC_FORWARD x86_forward_avx2
#define VEC_SMALL copy_masked_64
#define VEC_SMALL_FITS masked_move_fits
#include "vec_copy.h"
