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
 * Whether the masked move may take this call: neither 32-byte window runs into
 * the next page, and for memmove n is not 0 (see copy_under_64). A masked-off
 * byte in an unmapped or read-only page costs a suppressed fault, 100-800 ns
 * (bench/masked_ops.c); a window runs into the next page for 0.8% of random
 * pointers, and those take the plain moves.
 */
ALWAYS_INLINE int masked_move_fits(const void *d, const void *s, size_t n, int is_move)
{
	uintptr_t ps = (uintptr_t)s, pd = (uintptr_t)d;

	/* the window's last byte is in another page: adding 31 changes the page number */
	return (n || !is_move) && !((((ps + 31) ^ ps) | ((pd + 31) ^ pd)) & 4096);
}

#define LOW(n) (uint32_t)(((uint64_t)1 << (n)) - 1)
#define LOW4(n) LOW(n), LOW(n + 1), LOW(n + 2), LOW(n + 3)
#define LOW16(n) LOW4(n), LOW4(n + 4), LOW4(n + 8), LOW4(n + 12)
/*
 * The mask of each n's low bytes; and where memcpy makes its copies of 0
 * bytes: it reads (no byte) from the masks and writes (no byte) to the spare
 * line, not to the line it reads, which would make the next load wait (1.5 ns
 * a call of 0 bytes against 4.3 ns). The stack's top line is no place for
 * either: a load there waits for the call's push (6.6 ns), a store there cost
 * the mixes 6-8%. All threads share the spare line, but an empty store does
 * not take it: two CPUs copying 0 bytes ran 1.6 ns a call each, as one alone.
 */
static struct {
	uint32_t low[33];
	unsigned char spare[64] __attribute__((aligned(64)));
} masked __attribute__((aligned(64))) = { { LOW16(0), LOW16(16), LOW(32) }, { 0 } };

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
 * A copy of 0 bytes may come with any pointers, NULL or one past a mapping's
 * end, where even an empty masked move costs a suppressed fault. memcpy moves
 * such a call to the lines above with two conditional moves (in asm, so that
 * they stay branch-free): 3-12% of the calls in the published memcpy mixes
 * copy nothing (Fleet 8.7%), and a branch on them cost up to a fifth of a
 * mix's time. Its mask comes from the table, one load for three operations.
 * memmove's mixes copy nothing in 0-3% of their calls (Fleet 0.8%): for it the
 * moves and the table cost more than they save (its mixes at L2 2-3%), and
 * masked_move_fits sends its zeros to the plain moves (BENCHMARKS.md).
 */
ALWAYS_INLINE __attribute__((target("avx2,avx512f,avx512bw,avx512vl,bmi2"))) void
copy_under_64(unsigned char *d, const unsigned char *s, size_t n, int is_move)
{
	__mmask32 m;

	if (n > 32) {
		__m256i a = _mm256_loadu_si256((const __m256i *)s);
		__m256i b = _mm256_loadu_si256((const __m256i *)(s + n - 32));

		_mm256_storeu_si256((__m256i *)d, a);
		_mm256_storeu_si256((__m256i *)(d + n - 32), b);
		return;
	}
	if (is_move) {
		m = _bzhi_u32(~0u, (unsigned)n);
	} else {
		m = _load_mask32((__mmask32 *)&masked.low[n]);
		__asm__("test %2, %2\n\t"
			"cmovz %3, %1\n\t"
			"cmovz %4, %0"
			: "+r"(d), "+r"(s)
			: "r"(n), "r"(masked.low), "r"(masked.spare)
			: "cc");
	}
	_mm256_mask_storeu_epi8(d, m, _mm256_maskz_loadu_epi8(m, s));
}

/* The loop past 8 vectors: its own or AVX2's, as the tuning says (tuning.c). */
#define VEC_FORWARD(d, s, n) \
	(x86_tuning.loop_vec == 32 ? x86_forward_avx2(d, s, n) : copy_forward(d, s, n))
#define VEC_SMALL copy_under_64
#define VEC_SMALL_FITS masked_move_fits
#include "vec_copy.h"
