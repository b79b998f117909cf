/* SPDX-License-Identifier: MIT */
/*
 * One x86-64 memcpy/memmove, written once for any vector width.  The file
 * that includes it defines VEC_SIZE, VEC_ISA (the name suffix), VEC_TARGET
 * (the compiler target), vec_t and the VEC_LOAD/STOREU/STOREA/STREAM
 * operations; it gets copyperf_memcpy_<isa> and copyperf_memmove_<isa>, or,
 * where it defines VEC_SMALL_IN_ASM (its entries and copies up to 128 bytes
 * are in assembly), copyperf_x86_<isa>_memcpy_above_128 and its memmove.
 *
 * Pieces, by size: up to 64 bytes four overlapping moves (vec_blocks.h);
 * up to LOOPLESS_MAX (16 vectors of 64 bytes, 8 narrower ones), overlapping
 * vectors from both ends (both_ends.h; 129-512 B in half vectors where the
 * including file defines HALF_SIZE); above, 'rep movsb' in its window, else
 * non-temporal stores from their threshold (disjoint buffers only, both),
 * else a 4-vector loop with the destination aligned, forward or backward.
 */
#include "vec_blocks.h"
#include "x86_copy.h"

#define V VEC_SIZE
#define VEC_FN __attribute__((target(VEC_TARGET)))
#define VEC_INLINE ALWAYS_INLINE VEC_FN
#define CAT(a, b) a##b
#define NAME(base, isa) CAT(base, isa)
#define LINE 64 /* cache line: non-temporal stores fill whole lines */
#define NT_PREFETCH 4096 /* how far ahead the non-temporal loop prefetches the source */
#define NT_PAGE 4096     /* the distance between the interleaved non-temporal streams */

/*
 * The loads written before it are issued before those written after it: the
 * compiler orders independent loads as it likes, and the hardware prefetcher
 * sees the order of their misses.
 */
#define LOADS_IN_ORDER(v) __asm__ volatile("" : "+v"(v) : : "memory")

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

/* 2V <= n <= 4V: two vectors from each end. */
VEC_INLINE void copy_upto_4vec(unsigned char *d, const unsigned char *s, size_t n)
{
	vec_t a = VEC_LOAD(s), b = VEC_LOAD(s + V);
	vec_t c = VEC_LOAD(s + n - 2 * V), e = VEC_LOAD(s + n - V);

	VEC_STOREU(d, a);
	VEC_STOREU(d + V, b);
	VEC_STOREU(d + n - 2 * V, c);
	VEC_STOREU(d + n - V, e);
}

/*
 * The forward loop past LOOPLESS_MAX: this variant's own, copy_forward,
 * unless the including file defines VEC_FORWARD(d, s, n) as another that
 * takes any n > 8V (the AVX-512 copy chooses by the tuning between its own
 * and AVX2's).
 */
#ifndef VEC_FORWARD
#define VEC_FORWARD copy_forward
#endif

/* Copies 8V < n bytes forward; correct for dst below src even if they overlap. Returns dst. */
static VEC_FN void *copy_forward(unsigned char *d, const unsigned char *s, size_t n)
{
	/*
	 * Loaded first, stored last: an overlapping destination may overwrite them.
	 * The head first, then the tail from its end down with 64-byte vectors and
	 * from its start up with narrower ones: in gcc's order (the head after the
	 * tail) copies of 600 B-1 KiB walking a buffer in L2 ran 7-15% slower on
	 * Zen 5, when they still took this loop; each width's tail order was the
	 * faster of the two there by 4-10%. From 1025 B, where 64-byte copies take
	 * it now, no difference (BENCHMARKS.md, twentieth session).
	 */
	unsigned char *const dst = d, *const end = d + n;
	size_t skew = V - ((uintptr_t)d & (V - 1));
	vec_t head = VEC_LOAD(s), t0, t1, t2, t3;

	LOADS_IN_ORDER(head);
	if (V == 64) {
		t3 = VEC_LOAD(s + n - V);
		LOADS_IN_ORDER(t3);
		t2 = VEC_LOAD(s + n - 2 * V);
		LOADS_IN_ORDER(t2);
		t1 = VEC_LOAD(s + n - 3 * V);
		LOADS_IN_ORDER(t1);
		t0 = VEC_LOAD(s + n - 4 * V);
	} else {
		t0 = VEC_LOAD(s + n - 4 * V);
		LOADS_IN_ORDER(t0);
		t1 = VEC_LOAD(s + n - 3 * V);
		LOADS_IN_ORDER(t1);
		t2 = VEC_LOAD(s + n - 2 * V);
		LOADS_IN_ORDER(t2);
		t3 = VEC_LOAD(s + n - V);
	}
	d += skew;
	s += skew;
	/* At this point: d is vector aligned; [dst, d) is the head's, the last 4V the tail's. */
	for (; d + 4 * V < end; d += 4 * V, s += 4 * V)
		copy_4vec_aligned(d, s, 0);
	VEC_STOREU(end - 4 * V, t0);
	VEC_STOREU(end - 3 * V, t1);
	VEC_STOREU(end - 2 * V, t2);
	VEC_STOREU(end - V, t3);
	VEC_STOREU(dst, head);
	return dst;
}

/* Copies 8V < n bytes backward, for dst above src when they overlap. Returns dst. */
static VEC_FN void *copy_backward(unsigned char *d, const unsigned char *s, size_t n)
{
	vec_t h0 = VEC_LOAD(s), h1 = VEC_LOAD(s + V);
	vec_t h2 = VEC_LOAD(s + 2 * V), h3 = VEC_LOAD(s + 3 * V);
	vec_t last = VEC_LOAD(s + n - V);
	unsigned char *const end = d + n;
	size_t skew = (uintptr_t)end & (V - 1);
	unsigned char *p = end - skew;
	const unsigned char *q = s + n - skew;

	/* At this point: p is vector aligned; [p, end) is last's, the first 4V the head's. */
	while (p > d + 4 * V) {
		vec_t a, b, c, e;

		p -= 4 * V;
		q -= 4 * V;
		a = VEC_LOAD(q);
		b = VEC_LOAD(q + V);
		c = VEC_LOAD(q + 2 * V);
		e = VEC_LOAD(q + 3 * V);
		VEC_STOREA(p + 3 * V, e);
		VEC_STOREA(p + 2 * V, c);
		VEC_STOREA(p + V, b);
		VEC_STOREA(p, a);
	}
	VEC_STOREU(d, h0);
	VEC_STOREU(d + V, h1);
	VEC_STOREU(d + 2 * V, h2);
	VEC_STOREU(d + 3 * V, h3);
	VEC_STOREU(end - V, last);
	return d;
}

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
 * every line a page ahead. Zen 5: a median 5-9% faster than one stream from
 * 32 to 256 MiB, where two or four streams a page apart lost 12-22%: apart,
 * each stream has its own hardware prefetch (BENCHMARKS.md, the fifteenth
 * session).
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
 */
static VEC_FN void *copy_nontemporal(unsigned char *d, const unsigned char *s, size_t n)
{
	unsigned char *const dst = d, *const end = d + n;
	const unsigned char *const s_end = s + n;
	size_t skew = LINE - ((uintptr_t)d & (LINE - 1));

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
		/* A page ahead, not past the source: measured 5-10% on 16-256 MiB copies. */
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
 * Where a 'rep movsb' of rep_movsb_step bytes or more starts slower (Zen 5:
 * 1.4% at exactly 16 KiB on data in L1, none from about 18 KiB), copying the
 * first line with vectors keeps the count below that step (BENCHMARKS.md).
 * The line is loaded before the thresholds are tested: a 'rep movsb' that
 * starts while a load from L2 is still in flight waits for it (1.5% at 16
 * KiB on L2 data), and the tests give the load time to land.
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
		return ahead ? copy_backward(d, s, n) : d;
	/*
	 * Below the string copy's window (and so below the non-temporal threshold,
	 * never under it) the loop, by one test; in the window 'rep movsb' falls
	 * through. Against the step first and the window's copy by a jump: the
	 * mixes' 742 B calls 2-4% and the l1 table's 4096 B row 3% faster on the
	 * Intel Xeon (BENCHMARKS.md, seventh session).
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
		if (x86_rep_movsb_takes(t, n)) {
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
 * Out of line, one for each, so that the small sizes' code stays as short as
 * it can be (dst in the return register from the start, a 'ret' on every
 * path) and memcpy's path has no test of is_move; copy() jumps here. On a
 * line of their own: placed by the linker, a compare and its branch on the
 * way to 'rep movsb' fell on two lines and the l1 table's 4096 B row lost
 * 1.3% (0.987x).
 */
#define LARGE __attribute__((noinline, aligned(64))) VEC_FN

static LARGE void *copy_large_memcpy(unsigned char *d, const unsigned char *s, size_t n)
{
	return copy_large(d, s, n, 0);
}

static LARGE void *copy_large_memmove(unsigned char *d, const unsigned char *s, size_t n)
{
	return copy_large(d, s, n, 1);
}

/* V <= n <= 2V: one vector from each end. */
VEC_INLINE void copy_upto_2vec(unsigned char *d, const unsigned char *s, size_t n)
{
	vec_t a = VEC_LOAD(s), b = VEC_LOAD(s + n - V);

	VEC_STOREU(d, a);
	VEC_STOREU(d + n - V, b);
}

/*
 * s, through an empty asm: where two arms of a test load the same vectors,
 * gcc hoists those loads above the test (code hoisting), away from the
 * arm's stores; with the zero it cannot see, it does not. Hoisted, 768-1024 B
 * ran 0.81-0.96x glibc in a walk (BENCHMARKS.md, twentieth session).
 */
VEC_INLINE const unsigned char *unhoisted(const unsigned char *s)
{
	size_t zero = 0;

	__asm__ volatile("" : "+r"(zero));
	return s + zero;
}

/* copy_upto_8vec, copy_past_8vec and copy_8_to_16vec, of this width's vectors */
#define END_T vec_t
#define END_W V
#define END_LOAD VEC_LOAD
#define END_STORE VEC_STOREU
#define END_FN VEC_INLINE
#define END_NAME(x) x##vec
#include "both_ends.h"

#ifdef HALF_SIZE
/* The same of half-width vectors (AVX-512's 32-byte ones): copy_upto_8half ... */
#define END_T half_t
#define END_W HALF_SIZE
#define END_LOAD HALF_LOAD
#define END_STORE HALF_STOREU
#define END_FN VEC_INLINE
#define END_NAME(x) x##half
#include "both_ends.h"
#endif

/*
 * The largest copy made without a loop. With 64-byte vectors, 16 of them:
 * on Zen 5, in a walk through a buffer in L2, the loop's way (an aligned
 * head, the loop, the tail; two more taken branches and a jump to it) copied
 * 513-1024 B at 0.89-1.01x glibc, the blocks 1.04-1.18x (make bench-walk;
 * BENCHMARKS.md, twentieth session). With 32-byte ones the loop is the
 * faster from 8 vectors up (260 B: 1.48-1.52x glibc against 1.30-1.37x).
 */
#ifndef VEC_LOOPLESS_16
#define VEC_LOOPLESS_16 0 /* the including file may decide, at run time too */
#endif
#define LOOPLESS_MAX (VEC_LOOPLESS_16 ? 16 * V : 8 * V)

/*
 * n > 128: the blocks without a loop, then copy_large. dst is d, already in
 * the return register (the caller's empty asm): each way out is a tail call
 * or a ret of its own, not a jump to a shared 'mov; ret' (which cost a cycle
 * a call).
 */
VEC_INLINE void *copy_above_128(void *dst, unsigned char *d, const unsigned char *s, size_t n,
				int is_move)
{
#ifdef HALF_SIZE
	if (__builtin_expect(n > 8 * V, 0)) { /* the half vectors' blocks laid out first */
		if (n > LOOPLESS_MAX)
			return is_move ? copy_large_memmove(d, s, n) : copy_large_memcpy(d, s, n);
		copy_8_to_16vec(d, s, n);
		return dst;
	}
	if (__builtin_expect(n <= 8 * HALF_SIZE, 1)) /* laid out first: no taken branch */
		copy_upto_8half(d, unhoisted(s), n);
	else
		copy_8_to_16half(d, s, n);
#else
	if (8 * V > 128 && n <= 8 * V)
		copy_upto_8vec(d, s, n);
	else
		return is_move ? copy_large_memmove(d, s, n) : copy_large_memcpy(d, s, n);
#endif
	return dst;
}

/*
 * Entries on a cache line of their own, so that where the linker puts them does
 * not decide how many fetch blocks the short paths span.
 */
#define ENTRY __attribute__((aligned(64))) VEC_FN

#ifdef VEC_SMALL_IN_ASM
/*
 * The entries and the copies up to 128 bytes are the including file's, in
 * assembly (copy_<isa>_small.S): they jump here above that.
 */
ENTRY void *NAME(NAME(copyperf_x86_, VEC_ISA), _memcpy_above_128)(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;

	__asm__("" : "+a"(dst));
	return copy_above_128(dst, d, src, n, 0);
}

ENTRY void *NAME(NAME(copyperf_x86_, VEC_ISA), _memmove_above_128)(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;

	__asm__("" : "+a"(dst));
	return copy_above_128(dst, d, src, n, 1);
}
#else
/*
 * 64 <= n <= 128, in whichever of the blocks above spans it at this width
 * (each is exact from its lower bound's half up).
 */
VEC_INLINE void copy_64_128(unsigned char *d, const unsigned char *s, size_t n)
{
	if (V == 32)
		copy_upto_4vec(d, s, n);
	else
		copy_upto_8vec(d, s, n);
}

/*
 * n < 64 bytes whose destination crosses a page, out of line: there every
 * store that spans the boundary is slow, and copy_upto_64 makes two of each.
 */
static __attribute__((noinline)) VEC_FN void *copy_small_crossing(unsigned char *d, const unsigned char *s,
								 size_t n)
{
	if (n < 32)
		copy_under_32_ladder(d, s, n);
	else if (V == 32)
		copy_upto_2vec(d, s, n);
	else
		copy_upto_4vec(d, s, n);
	return d;
}

/*
 * The copy of any size. A taken branch costs about a cycle a call on Zen 4
 * (BENCHMARKS.md, the sweep at 128 B), so the order of the tests is the order
 * of the code: 64..128 bytes fall through the first test, fewer take one
 * branch, and more one more.
 */
VEC_INLINE void *copy(void *dst, const void *src, size_t n, int is_move)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	__asm__("" : "+a"(dst));
	if (__builtin_expect(n - 64 <= 64, 1)) {
		copy_64_128(d, s, n);
		return dst;
	}
	if (__builtin_expect(n < 64, 1)) { /* most calls of a mix */
		if (__builtin_expect(crosses_page(d, n), 0)) /* 0 bytes at a page's start too: harmless */
			return copy_small_crossing(d, s, n);
		copy_upto_64(d, s, n);
		return dst;
	}
	return copy_above_128(dst, d, s, n, is_move);
}

ENTRY void *NAME(copyperf_memcpy_, VEC_ISA)(void *restrict dst, const void *restrict src, size_t n)
{
	return copy(dst, src, n, 0);
}

ENTRY void *NAME(copyperf_memmove_, VEC_ISA)(void *dst, const void *src, size_t n)
{
	return copy(dst, src, n, 1);
}
#endif
