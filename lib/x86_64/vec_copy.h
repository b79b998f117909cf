/* SPDX-License-Identifier: MIT */
/*
 * The x86-64 large copies, past the ladders' blocks (copy_vec_ladder.S,
 * copy_avx512_ladder.S), written once for any vector width: the file that
 * includes it defines VEC_SIZE, VEC_TARGET (the compiler target), vec_t, the
 * VEC_LOAD/STOREU/STOREA/STREAM operations and VEC_FORWARD, and its two
 * large copies from copy_large: 'rep movsb' in its window, else non-temporal
 * stores from their threshold (disjoint buffers only, both), else a 4-vector
 * loop with the destination aligned, forward or backward (loops.S).
 */
#include <immintrin.h>
#include <stdint.h>
#include "rep_movsb.h"
#include "x86_copy.h"

#define V VEC_SIZE
#define VEC_FN __attribute__((target(VEC_TARGET)))
#define VEC_INLINE ALWAYS_INLINE VEC_FN
#define LINE 64 /* cache line: non-temporal stores fill whole lines */
#define NT_PREFETCH 4096 /* how far ahead the non-temporal loop prefetches the source */
#define NT_PAGE 4096     /* the distance between the interleaved non-temporal streams */

/* Four vectors to an aligned destination, all loads first; stream: non-temporal stores. */
VEC_INLINE void copy_4vec_aligned(unsigned char *d, const unsigned char *s, int stream)
{
	vec_t a = VEC_LOAD(s), b = VEC_LOAD(s + V);
	vec_t c = VEC_LOAD(s + 2 * V), e = VEC_LOAD(s + 3 * V);

	if (stream) {
		VEC_STREAM(d, a);
		VEC_STREAM(d + V, b);
		VEC_STREAM(d + 2 * V, c);
		VEC_STREAM(d + 3 * V, e);
	} else {
		VEC_STOREA(d, a);
		VEC_STOREA(d + V, b);
		VEC_STOREA(d + 2 * V, c);
		VEC_STOREA(d + 3 * V, e);
	}
}

/*
 * The loops past the blocks (loops.S): the including file defines
 * VEC_FORWARD(d, s, n) and VEC_BACKWARD(d, s, n), each for any n > 8V.
 */

/*
 * The non-temporal copy of whole 4-page blocks from a line-aligned d: four
 * streams a page apart side by side, each prefetching its next 4 vectors.
 * Returns the bytes copied, a multiple of 4 pages no more than n.
 */
VEC_INLINE size_t copy_nontemporal_4pages(unsigned char *d, const unsigned char *s, size_t n)
{
	size_t done;

	for (done = 0; n - done >= 4 * NT_PAGE; done += 4 * NT_PAGE)
		for (size_t i = 0; i < NT_PAGE; i += 4 * V) {
			const unsigned char *q = s + done + i;

			/* At most the block's end, where the source may end: a prefetch there never faults. */
			for (size_t k = 0; k < 4; k++)
				_mm_prefetch((const char *)q + k * NT_PAGE + 4 * V, _MM_HINT_T0);
			for (size_t k = 0; k < 4; k++)
				copy_4vec_aligned(d + done + i + k * NT_PAGE, q + k * NT_PAGE, 1);
		}
	return done;
}

/*
 * The non-temporal copy of the largest multiple of 8V up to n from a
 * line-aligned d as two streams, one per half, side by side, each prefetching
 * every line a page ahead: apart, each stream gets its own hardware
 * prefetch, where streams a page apart share one (tuning.c says where).
 * Returns the bytes copied.
 */
VEC_INLINE size_t copy_nontemporal_halves(unsigned char *d, const unsigned char *s, size_t n)
{
	size_t half = n / (8 * V) * (4 * V);

	for (size_t i = 0; i < half; i += 4 * V) {
		/* Each half's own lines only, never past the source's end. */
		if (i + NT_PREFETCH + 4 * V <= half)
			for (size_t k = 0; k < 4 * V; k += LINE) {
				_mm_prefetch((const char *)s + i + NT_PREFETCH + k, _MM_HINT_NTA);
				_mm_prefetch((const char *)s + half + i + NT_PREFETCH + k, _MM_HINT_NTA);
			}
		copy_4vec_aligned(d + i, s + i, 1);
		copy_4vec_aligned(d + half + i, s + half + i, 1);
	}
	return 2 * half;
}

/*
 * Copies LINE + 4V <= n bytes between disjoint buffers with non-temporal
 * stores: the destination does not displace the cache, and its lines are not
 * read before being overwritten whole. Returns dst.
 * Until the thresholds are read, the non-temporal one is 0 (dispatch.c): the
 * first disjoint copy past the ladder comes here, reads them, and copies by
 * the loop unless it is that large, so that no other path tests whether they
 * have been read.
 */
static VEC_FN void *copy_nontemporal(unsigned char *d, const unsigned char *s, size_t n)
{
	unsigned char *const dst = d, *const end = d + n;
	const unsigned char *const s_end = s + n;
	size_t skew = LINE - ((uintptr_t)d & (LINE - 1));

	if (__builtin_expect(!__atomic_load_n(&copyperf_x86_tuned, __ATOMIC_ACQUIRE), 0)) {
		copyperf_x86_tune();
		if (!__atomic_load_n(&copyperf_x86_tuned, __ATOMIC_ACQUIRE) ||
		    n < copyperf_x86_tuning.nt_threshold)
			return VEC_FORWARD(d, s, n);
	}

	for (size_t i = 0; i < LINE; i += V)
		VEC_STOREU(d + i, VEC_LOAD(s + i));
	d += skew;
	s += skew;
	/* At this point: d is line aligned. */
	if (copyperf_x86_tuning.nt_streams > 1) {
		size_t left = (size_t)(end - d);
		size_t done = copyperf_x86_tuning.nt_streams == 2 ? copy_nontemporal_halves(d, s, left)
							  : copy_nontemporal_4pages(d, s, left);

		d += done;
		s += done;
	}
	for (; d + 4 * V <= end; d += 4 * V, s += 4 * V) {
		/* A page ahead, not past the source: the loads wait less on memory. */
		if (s + NT_PREFETCH < s_end)
			_mm_prefetch((const char *)s + NT_PREFETCH, _MM_HINT_NTA);
		copy_4vec_aligned(d, s, 1);
	}
	_mm_sfence(); /* weakly ordered stores: make them visible before we return */
	for (size_t i = 4 * V; i > 0; i -= V)
		VEC_STOREU(end - i, VEC_LOAD(s_end - i));
	return dst;
}

/*
 * Where a 'rep movsb' of rep_movsb_step bytes or more starts slower than one
 * just below (tuning.c), copying the first line with vectors keeps the count
 * below that step. The line is loaded before the thresholds are tested: a
 * 'rep movsb' that starts while a load is still in flight waits for it, and
 * the tests give the load time to land.
 * For step <= n < step + LINE in the window, disjoint buffers; the window is
 * tested again after the loads, and would fall back as copy_large does.
 * Out of line, so that copy_large's own paths stay short.
 */
static __attribute__((noinline)) VEC_FN void *copy_across_step(unsigned char *d, const unsigned char *s,
								size_t n)
{
	const struct x86_tuning *t = &copyperf_x86_tuning;
	vec_t head[LINE / V];

	for (size_t i = 0; i < LINE / V; i++)
		head[i] = VEC_LOAD(s + i * V);
	if (!x86_rep_movsb_takes(t, n))
		return n >= t->nt_threshold ? copy_nontemporal(d, s, n) : VEC_FORWARD(d, s, n);
	rep_movsb_forward(d + LINE, s + LINE, n - LINE);
	for (size_t i = 0; i < LINE / V; i++)
		VEC_STOREU(d + i * V, head[i]);
	return d;
}

/* n > 8V. Each way out is a tail call or returns d: no frame. */
VEC_INLINE void *copy_large(unsigned char *d, const unsigned char *s, size_t n, int is_move)
{
	const struct x86_tuning *t = &copyperf_x86_tuning;
	uintptr_t ahead = (uintptr_t)d - (uintptr_t)s; /* < n: dst overlaps src from above */
	if (is_move && ahead < n)
		return ahead ? VEC_BACKWARD(d, s, n) : d;
	/*
	 * Below the string copy's window (and so below the non-temporal threshold,
	 * never under it) the loop, by one test, the sizes most calls have; in the
	 * window 'rep movsb' falls through.
	 */
	if (n < t->rep_movsb_min) {
		/* and there 'rep movsb' where the two lie at the same offset in their lines */
		if (n < t->rep_movsb_aligned || (ahead & (LINE - 1)) ||
		    (is_move && (uintptr_t)s - (uintptr_t)d < n))
			return VEC_FORWARD(d, s, n);
		rep_movsb_forward(d, s, n);
		return d;
	}
	if (!is_move || (uintptr_t)s - (uintptr_t)d >= n) { /* disjoint */
		/* in its window, but never just past the source within 4 KiB */
		if (x86_rep_movsb_takes(t, n) && !x86_rep_movsb_aliased(t, ahead)) {
			if (n - t->rep_movsb_step < LINE) /* never where the step is 0: n > 8V */
				return copy_across_step(d, s, n);
			rep_movsb_forward(d, s, n);
			return d;
		}
		if (n >= t->nt_threshold)
			return copy_nontemporal(d, s, n);
	}
	return VEC_FORWARD(d, s, n);
}

/*
 * The large copies, where the ladders jump (copy_sse2.c, copy_avx2.c,
 * copy_avx512.c define theirs): out of line, one for memcpy and one for
 * memmove, so that memcpy's path has no test of is_move; on a line of their
 * own, so that where the linker puts them does not decide which of their
 * tests share a fetch block.
 */
#define LARGE __attribute__((noinline, aligned(64))) VEC_FN
