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

#define MASKED_WINDOW 32 /* bytes from each pointer that the masked moves span */

/*
 * The masked move's page test, as instructions (the copy's own, and
 * masked_move_fits's for its unit test and the branchless variant): for each
 * pointer p, the bytes p - 1 and p + 31 must lie in one page, that is p is 1
 * to 4064 bytes into its page. Then the window [p, p + 32) lies in the page of
 * the copy's first byte or, for a copy of 0 bytes, of the byte before the
 * pointer: a page in use (NULL, and a pointer one past an object that ends a
 * page, are refused). A masked-off byte in an unmapped or read-only page
 * costs a suppressed fault, 300-350 ns on Zen 5 (make bench-masked).
 * Refused, for the plain moves: 33 / 4096 of random pointers each, and every
 * copy that starts a page. The exact rule before (the window may reach the
 * page of the copy's last byte: (32 - n) / 4096, none at 32 B) takes the
 * copy's size into both sums: a byte too long for copy_under_64's line, and
 * 6% slower from memory where it fitted. What this one costs: a walk of 32 B
 * copies through page-aligned buffers refuses one call in 128, in copyperf's
 * own walk up to 15% behind the exact rule at some placements, still ahead of
 * glibc (BENCHMARKS.md, twenty-second session).
 * Two 32-bit sums and an XOR per pointer: bit 12 of the XOR is set exactly
 * when the two ends, 32 bytes apart, lie in different pages. Scratch: eax,
 * ecx, r8; on its way out the flags say "refused" (not zero).
 */
#define MASKED_PAGE_TEST                  \
	"lea -1(%[src]), %%eax\n\t"      \
	"lea 31(%[src]), %%ecx\n\t"      \
	"xor %%ecx, %%eax\n\t"           \
	"lea -1(%[dst]), %%ecx\n\t"      \
	"lea 31(%[dst]), %%r8d\n\t"      \
	"xor %%r8d, %%ecx\n\t"           \
	"or %%ecx, %%eax\n\t"            \
	"test $0x10, %%ah\n\t"

/* Whether the masked moves may take a copy from s to d (MASKED_PAGE_TEST). */
ALWAYS_INLINE int masked_move_fits(const void *d, const void *s)
{
	__asm__ goto(MASKED_PAGE_TEST "jnz %l[refused]"
		     :
		     : [dst] "r"(d), [src] "r"(s)
		     : "rax", "rcx", "r8", "cc"
		     : refused);
	return 1;
refused:
	return 0;
}

/*
 * 0 <= n < 64, or 0 where the page test refuses the pointers: up to 32 bytes
 * one masked 32-byte move (no ladder of widths), above two plain ones from both
 * ends. Masked-off bytes are neither read nor written and do not fault, but
 * their lines are fetched all the same: a 64-byte window at a random address
 * touches a line the copy does not need most of the time, and from memory that
 * cost the mixes 6-10% (one masked 64-byte move for all of 0-63 ran them 9-16%
 * faster at L1 and L2 and 6-10% slower from memory on the Intel Xeon:
 * BENCHMARKS.md, "what a small copy from memory pays for"). Every load comes
 * before any store: memmove too. The copies of 0 bytes (3-12% of the calls in
 * the published memcpy mixes) are empty masked moves: a branch of their own,
 * which the predictor may miss, ran the mixes 2-4% slower (twelfth session).
 * In assembly because its bytes decide its speed: from the entry (64-byte
 * aligned, the size test before it is the caller's) to the ret, the path of
 * 0-32 B is 63 bytes, one line, where gcc's code for the same steps took 83:
 * on Zen 5 the mixes ran 7-8% faster from memory (each mispredicted size test
 * refetches the call's instructions: one line, not two) and the same at L1
 * and L2 (twenty-second session). tests/lib/layout.sh checks it. The mask
 * comes from the size test's carry (set: n < 33), not from the page test's
 * scratch: hung on the page test, the sweep's 8 B row fell from 1.30x to
 * 0.99x.
 */
ALWAYS_INLINE __attribute__((target(VEC_TARGET))) int
copy_under_64(unsigned char *d, const unsigned char *s, size_t n)
{
	/* At this point: n < 64, so its low byte is n. */
	__asm__ goto("cmp $33, %b[len]\n\t"
		     "jae %l[above_32]\n\t"
		     "sbb %%ecx, %%ecx\n\t"
		     "bzhi %k[len], %%ecx, %%ecx\n\t"
		     "kmovd %%ecx, %%k1\n\t"
		     MASKED_PAGE_TEST
		     "jnz %l[refused]\n\t"
		     "vmovdqu8 (%[src]), %%ymm16%{%%k1%}%{z%}\n\t"
		     "vmovdqu8 %%ymm16, (%[dst])%{%%k1%}"
		     :
		     : [dst] "r"(d), [src] "r"(s), [len] "r"(n)
		     : "rax", "rcx", "r8", "k1", "xmm16", "cc", "memory"
		     : above_32, refused);
	return 1;
above_32: {
	__m256i a = _mm256_loadu_si256((const __m256i *)s);
	__m256i b = _mm256_loadu_si256((const __m256i *)(s + n - 32));

	_mm256_storeu_si256((__m256i *)d, a);
	_mm256_storeu_si256((__m256i *)(d + n - 32), b);
	return 1;
}
refused:
	return 0;
}

/*
 * 0 <= n < 64 (or 0 where the page test refuses) with no size test at all:
 * two 32-byte moves under one mask (the first n bytes of a window, all 32 from
 * n = 32 on), at the start, and at the end or, up to 32 bytes, at the start
 * again (a conditional move).
 * Both windows lie in [s, s + max(n, 32)): no line that copy_under_64 does
 * not touch. Where sizes vary from call to call the test at 32 B is one the
 * predictor cannot guess, and its misses cost more than the second move: on
 * Zen 5 the memcpy mixes ran 20-24% faster at L1 and L2, 1% slower from
 * memory; where one size repeats the second move costs about a cycle a call
 * (the sweep at 8 B 0.88x glibc). So a variant of its own, chosen by
 * COPYPERF_ISA=avx512-branchless (BENCHMARKS.md, fourteenth and fifteenth
 * sessions). Every load comes before any store: memmove too.
 */
ALWAYS_INLINE __attribute__((target(VEC_TARGET))) int
copy_under_64_branchless(unsigned char *d, const unsigned char *s, size_t n)
{
	size_t tail = n > 32 ? n - 32 : 0;
	__mmask32 m = _bzhi_u32(~0u, (unsigned)n);
	__m256i a, b;

	if (!masked_move_fits(d, s))
		return 0;
	a = _mm256_maskz_loadu_epi8(m, s);
	b = _mm256_maskz_loadu_epi8(m, s + tail);
	_mm256_mask_storeu_epi8(d, m, a);
	_mm256_mask_storeu_epi8(d + tail, m, b);
	return 1;
}

/*
 * The loop past 8 vectors: its own or AVX2's, as the tuning says (tuning.c);
 * where it is its own, copies up to 16 vectors take no loop (vec_copy.h's
 * LOOPLESS_MAX, measured on Zen 5; with AVX2's loop, on Zen 4, not measured).
 */
#define VEC_FORWARD(d, s, n) \
	(copyperf_x86_tuning.loop_vec == 32 ? copyperf_x86_forward_avx2(d, s, n) : copy_forward(d, s, n))
#define VEC_LOOPLESS_16 (copyperf_x86_tuning.loop_vec != 32)

#endif
