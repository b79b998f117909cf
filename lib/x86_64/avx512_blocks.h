/* SPDX-License-Identifier: MIT */
/*
 * The AVX-512 copies' vectors (64 bytes, one cache line per register) and
 * their masked moves under 64 bytes, for the two files that compile
 * vec_copy.h with them: copy_avx512.c and copy_avx512_branchless.c.
 */
#ifndef COPYPERF_AVX512_BLOCKS_H
#define COPYPERF_AVX512_BLOCKS_H

#define VEC_SIZE 64
#define VEC_TARGET "avx2,avx512f,avx512bw,avx512vl,bmi2"
#define vec_t __m512i
#define VEC_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define VEC_STOREU(p, v) _mm512_storeu_si512((void *)(p), (v))
#define VEC_STOREA(p, v) _mm512_store_si512((void *)(p), (v))
#define VEC_STREAM(p, v) _mm512_stream_si512((void *)(p), (v))

/*
 * 129-512 B go in 32-byte vectors (vec_copy.h): on Zen 5, in walks through a
 * buffer in L2 at every placement (make bench-walk), four or eight 64-byte
 * vectors from each end ran 0.93-1.08x glibc at 130-256 B and 0.94-1.04x at
 * 257-512 B, eight to sixteen 32-byte ones 1.03-1.21x and 1.12-1.44x; the
 * call mixes the same within 1%, what two builds of one code differ by
 * (BENCHMARKS.md, twentieth session). A 64-byte access at a random address
 * spans two lines nearly always, a 32-byte one half the time.
 */
#define HALF_SIZE 32
#define half_t __m256i
#define HALF_LOAD(p) _mm256_loadu_si256((const void *)(p))
#define HALF_STOREU(p, v) _mm256_storeu_si256((void *)(p), (v))

#include "vec_blocks.h"

#define MASKED_WINDOW 32 /* bytes from each pointer that copy_under_64's masked move spans */

/*
 * Whether the masked move may take this call: each pointer's window
 * ends in the page that holds the copy's last byte there or, for a copy of
 * 0 bytes, the byte before the pointer. A masked-off byte in an unmapped or
 * read-only page costs a suppressed fault, 300-800 ns (bench/masked_ops.c);
 * a page the copy's own bytes lie in is in use. A copy of 0 bytes may come
 * with NULL or with pointers one past an object's end: NULL is refused, and
 * one past an object has the object's last byte before it; so a copy of 0
 * bytes takes the masked move with an empty mask, and no branch of its own.
 * Refused, for the plain moves: a window that reaches past its page while
 * the copy's bytes do not, (32 - n) / 4096 of random pointers each for
 * 1 <= n <= 32 (never at 32 bytes), and 0-byte copies at a page's first byte.
 * Each term is 0 (x ^ y < 4096) exactly when x and y, less than 64 bytes
 * apart, lie in one page. The rule before (each pointer 1..4064 bytes into
 * its page, whatever n) also refused every copy that starts a page, and in
 * copyperf's own walk the 32 B row ran at 0.93-0.96x glibc for most
 * placements of the two buffers, 1.00x now (BENCHMARKS.md, nineteenth session).
 */
ALWAYS_INLINE int masked_move_fits(const void *d, const void *s, size_t n)
{
	uintptr_t ps = (uintptr_t)s, pd = (uintptr_t)d;
	uintptr_t end_s = ps + MASKED_WINDOW - 1, end_d = pd + MASKED_WINDOW - 1;

	return ((end_s ^ (ps + n - 1)) | (end_d ^ (pd + n - 1))) < 4096;
}

/*
 * 0 <= n < 64 with one size test that the branch predictor may miss: up to 32
 * bytes one masked 32-byte move (no ladder of widths), above two plain ones
 * from both ends. Masked-off bytes are neither read nor written and do not
 * fault, but their lines are fetched all the same: a 64-byte window at a
 * random address touches a line the copy does not need most of the time, and
 * from memory that cost the mixes 6-10% (one masked 64-byte move for all of
 * 0-63 ran them 9-16% faster at L1 and L2 and 6-10% slower from memory on the
 * Intel Xeon: BENCHMARKS.md, "what a small copy from memory pays for"). Every
 * load comes before any store: memmove too.
 * The copies of 0 bytes (3-12% of the calls in the published memcpy mixes)
 * are empty masked moves: a branch of their own, which the predictor may
 * miss, ran the mixes 2-4% slower (BENCHMARKS.md, twelfth session).
 */
ALWAYS_INLINE __attribute__((target(VEC_TARGET))) void
copy_under_64(unsigned char *d, const unsigned char *s, size_t n)
{
	__mmask32 m;

	if (n > 32) {
		__m256i a = _mm256_loadu_si256((const __m256i *)s);
		__m256i b = _mm256_loadu_si256((const __m256i *)(s + n - 32));

		_mm256_storeu_si256((__m256i *)d, a);
		_mm256_storeu_si256((__m256i *)(d + n - 32), b);
		return;
	}
	m = _bzhi_u32(~0u, (unsigned)n);
	_mm256_mask_storeu_epi8(d, m, _mm256_maskz_loadu_epi8(m, s));
}

/*
 * 0 <= n < 64 with no size test at all: two 32-byte moves under one
 * mask (the first n bytes of a window, all 32 from n = 32 on), at the start,
 * and at the end or, up to 32 bytes, at the start again (a conditional move).
 * Both windows lie in [s, s + max(n, 32)): no line that copy_under_64 does
 * not touch. Where sizes vary from call to call the test at 32 B is one the
 * predictor cannot guess, and its misses cost more than the second move: on
 * Zen 5 the memcpy mixes ran 20-24% faster at L1 and L2, 1% slower from
 * memory; where one size repeats the second move costs about a cycle a call
 * (the sweep at 8 B 0.88x glibc). So a variant of its own, chosen by
 * COPYPERF_ISA=avx512-branchless (BENCHMARKS.md, fourteenth and fifteenth
 * sessions). Every load comes before any store: memmove too.
 */
ALWAYS_INLINE __attribute__((target(VEC_TARGET))) void
copy_under_64_branchless(unsigned char *d, const unsigned char *s, size_t n)
{
	size_t tail = n > 32 ? n - 32 : 0;
	__mmask32 m = _bzhi_u32(~0u, (unsigned)n);
	__m256i a = _mm256_maskz_loadu_epi8(m, s), b = _mm256_maskz_loadu_epi8(m, s + tail);

	_mm256_mask_storeu_epi8(d, m, a);
	_mm256_mask_storeu_epi8(d + tail, m, b);
}

/*
 * The loop past 8 vectors: its own or AVX2's, as the tuning says (tuning.c);
 * where it is its own, copies up to 16 vectors take no loop (vec_copy.h's
 * LOOPLESS_MAX, measured on Zen 5; with AVX2's loop, on Zen 4, not measured).
 */
#define VEC_FORWARD(d, s, n) \
	(copyperf_x86_tuning.loop_vec == 32 ? copyperf_x86_forward_avx2(d, s, n) : copy_forward(d, s, n))
#define VEC_LOOPLESS_16 (copyperf_x86_tuning.loop_vec != 32)
#define VEC_SMALL_FITS masked_move_fits

#endif
