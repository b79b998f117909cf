/* SPDX-License-Identifier: MIT */
/*
 * The calls a replay makes: drawn once per (distribution, working set) from
 * a seed, the same for every routine.  Each call is a size and two offsets
 * into one arena, so the timed loop reads three numbers and calls.
 *
 * The arena: a canary page, then the source side and the destination side
 * (memcpy), or one side for both (memmove), each followed by a canary page.
 * The working set bounds where calls start. Spread (the default), their
 * offsets at random over the first `span` bytes of a side; the rare call
 * longer than that runs past it into the side's tail, which is as long as the
 * largest size. Stream, one after another: each call's source starts where
 * the previous call's source ended, and its destination where the previous
 * destination ended, each rounded up to the alignment drawn for it, as a
 * serializer appends to a buffer or a parser walks one; the list walks its
 * span once, so that pass after pass goes on through the same lines in order.
 */
#ifndef COPYPERF_CALL_LIST_H
#define COPYPERF_CALL_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "distribution.h"

struct call {
	uint32_t src, dst; /* offsets from the arena's base */
	uint32_t size;
};

/* How a list's calls lie in their sides: at random, or one after another. */
enum call_layout { CALLS_SPREAD, CALLS_STREAM };

struct call_list {
	struct call *calls;
	size_t n;
	enum dist_kind kind;
	enum call_layout layout;
	uint64_t span;        /* bytes of each side the offsets spread over */
	size_t side;          /* bytes of each side, tail included */
	size_t src_side, dst_side; /* where the sides start (the same one for memmove) */
	size_t arena;         /* bytes of the arena, canary pages included */
	uint64_t bytes;       /* the calls' sizes added up */
	uint64_t largest;     /* the largest size a call has */
	size_t overlapping;   /* calls whose source and destination overlap */
};

/* The fewest calls a list holds: far more than a branch predictor learns. */
#define CALL_LIST_CALLS 65536
#define CALL_LIST_MAX_CALLS (1u << 22)
/*
 * But a pass copies about 4 GiB at most: a mix of large copies (a program's
 * own, say) gets fewer calls, at least CALL_LIST_FEWEST, where the branches
 * between them weigh nothing beside the copies.
 */
#define CALL_LIST_PASS_BYTES (4ull << 30)
#define CALL_LIST_FEWEST 4
/* A measurement makes at most a call for each 8 bytes of its total, one pass at least. */
#define CALL_LIST_CALL_BYTES 8

/* The largest size a call may have: offsets are 32-bit. */
#define CALL_MAX_SIZE (1ull << 30)

/*
 * Draws n calls from d over a working set of working_set bytes (memcpy: half
 * for each side; memmove: all of it for the one side) with the generator
 * seeded by seed.  Returns 0, or -1 with a one-line reason in err.
 */
int call_list_build(struct call_list *l, const struct distribution *d, uint64_t working_set,
		    uint64_t seed, size_t n, char *err, size_t errlen);

/*
 * Draws the calls of a stream (CALLS_STREAM) from d: a source walk and a
 * destination walk of working_set / 2 bytes each (memcpy: one side each;
 * memmove: both in its one side, a call overlapping its source as often as d
 * says), as many calls as it takes to walk them to their end, at most
 * CALL_LIST_STREAM_CALLS. Returns 0, or -1 with a one-line reason in err.
 */
int call_list_build_stream(struct call_list *l, const struct distribution *d,
			   uint64_t working_set, uint64_t seed, char *err, size_t errlen);
/* The most calls a stream may take to walk its span. */
#define CALL_LIST_STREAM_CALLS (1u << 25)

/*
 * The calls a stream of d over working_set bytes is given to reach its span's
 * end: the sizes drawn add up to n times the mean (draw_sizes keeps the
 * proportions) and alignment only lengthens the walk, so n such calls reach
 * it, with some to spare; the list stops at the first that would pass it.
 * Infinite for calls of 0 bytes on average.
 */
static inline double call_list_stream_calls(const struct distribution *d, uint64_t working_set)
{
	return (double)(working_set / 2) / d->mean_size + 64;
}

/*
 * Whether d's calls can walk a stream over working_set bytes: they copy more
 * than 0 bytes on average, and at most CALL_LIST_STREAM_CALLS of them reach
 * the span's end.  Where not, call_list_build_stream refuses them.
 */
static inline bool call_list_stream_fits(const struct distribution *d, uint64_t working_set)
{
	return d->mean_size > 0 && call_list_stream_calls(d, working_set) <= CALL_LIST_STREAM_CALLS;
}

void call_list_free(struct call_list *l);

/*
 * The calls a list over working_set bytes holds: one per cache line of it, so
 * that a pass touches every line, from CALL_LIST_CALLS to CALL_LIST_MAX_CALLS;
 * fewer where calls of mean_size bytes would copy more than CALL_LIST_PASS_BYTES.
 */
static inline size_t call_list_calls(uint64_t working_set, double mean_size)
{
	uint64_t lines = working_set / 64, n;

	n = lines < CALL_LIST_CALLS ? CALL_LIST_CALLS :
	    lines > CALL_LIST_MAX_CALLS ? CALL_LIST_MAX_CALLS : lines;
	if (mean_size * (double)n > (double)CALL_LIST_PASS_BYTES) {
		n = (uint64_t)((double)CALL_LIST_PASS_BYTES / mean_size);
		if (n < CALL_LIST_FEWEST)
			n = CALL_LIST_FEWEST;
	}
	return (size_t)n;
}

/*
 * A caller that tests the size before it copies (--tested), as a decoder
 * that reads a length bit by bit (LZMA's lengths, a Huffman code's) branches
 * on each of its bits: a conditional branch for each of the size's low
 * CALLER_TESTED_BITS bits. A branch predictor that keeps a history of the
 * branches taken then holds those bits when the copy's own tests of the size
 * come, and may predict them where the calls alone do not let it. Each
 * test's two ways run different no-ops, which a compiler can neither merge
 * nor turn into a conditional move: the branches are there on every
 * architecture. Their layout is the compiler's: it may repeat the tests of
 * the later bits on each way of an earlier one, so that a branch's direction
 * says whether a bit differs from the one before; the history holds the
 * size all the same.
 */
#define CALLER_TESTED_BITS 8

static inline __attribute__((always_inline)) void caller_test_bit(uint32_t size, unsigned bit)
{
	if (size >> bit & 1)
		__asm__ volatile("nop");
	else
		__asm__ volatile("nop\n\tnop");
}

static inline __attribute__((always_inline)) void caller_tests(uint32_t size)
{
	caller_test_bit(size, 0);
	caller_test_bit(size, 1);
	caller_test_bit(size, 2);
	caller_test_bit(size, 3);
	caller_test_bit(size, 4);
	caller_test_bit(size, 5);
	caller_test_bit(size, 6);
	caller_test_bit(size, 7);
}

/* The passes' one body, tested a constant wherever it is inlined. */
static inline __attribute__((always_inline)) void
calls_pass(unsigned char *base, const struct call_list *l,
	   void *(*fn)(void *, const void *, size_t), bool tested)
{
	for (const struct call *c = l->calls, *end = c + l->n; c < end; c++) {
		if (tested)
			caller_tests(c->size);
		fn(base + c->dst, base + c->src, c->size);
	}
}

/* Makes every call of l once with fn, its offsets from base: the replay's timed loop. */
static inline void call_list_pass(unsigned char *base, const struct call_list *l,
				  void *(*fn)(void *, const void *, size_t))
{
	calls_pass(base, l, fn, false);
}

/* The same, each call after the caller's tests of its size (caller_tests). */
static inline void call_list_pass_tested(unsigned char *base, const struct call_list *l,
					 void *(*fn)(void *, const void *, size_t))
{
	calls_pass(base, l, fn, true);
}

/*
 * The chained passes' one body: each call waiting for the one before, as a decoder reads back
 * what it has just copied before it knows what to copy next: the previous
 * call's last byte is read back and added, times zero, to the call's source
 * address. The caller passes 0 as zero where the compiler cannot see it is
 * 0, so that the read cannot be left out; last is the byte the pass starts
 * from, and the one it ends with is returned for the next pass. A call of 0
 * bytes has no last byte: the byte before its destination is read instead,
 * which the builders keep inside the arena (every side starts past its
 * leading canary page: a call's dst is at least a page). tested: each call
 * after the caller's tests of its size too.
 */
static inline __attribute__((always_inline)) unsigned char
calls_pass_chained(unsigned char *base, const struct call_list *l,
		   void *(*fn)(void *, const void *, size_t), size_t zero, unsigned char last,
		   bool tested)
{
	for (const struct call *c = l->calls, *end = c + l->n; c < end; c++) {
		if (tested)
			caller_tests(c->size);
		fn(base + c->dst, base + c->src + (last & zero), c->size);
		last = base[(size_t)c->dst + c->size - 1];
	}
	return last;
}

/* Each call waiting for the one before (calls_pass_chained). */
static inline unsigned char call_list_pass_chained(unsigned char *base, const struct call_list *l,
						   void *(*fn)(void *, const void *, size_t),
						   size_t zero, unsigned char last)
{
	return calls_pass_chained(base, l, fn, zero, last, false);
}

/* Each call waiting for the one before, and after the caller's tests of its size. */
static inline unsigned char
call_list_pass_chained_tested(unsigned char *base, const struct call_list *l,
			      void *(*fn)(void *, const void *, size_t), size_t zero,
			      unsigned char last)
{
	return calls_pass_chained(base, l, fn, zero, last, true);
}

/* Whether n bytes at offset a and n bytes at offset b share a byte. */
static inline bool call_ranges_overlap(uint64_t a, uint64_t b, uint64_t n)
{
	return n && a < b + n && b < a + n;
}

/* Mean bytes per call. */
static inline double call_list_mean(const struct call_list *l)
{
	return l->n ? (double)l->bytes / (double)l->n : 0;
}

/*
 * Passes over the list that copy at least total bytes, one at the least, and
 * no more calls than total / CALL_LIST_CALL_BYTES: a mix of copies of 0 or
 * 1 byte would otherwise make trillions.
 */
static inline uint64_t call_list_passes(const struct call_list *l, uint64_t total)
{
	uint64_t passes = l->bytes && total > l->bytes ? (total + l->bytes - 1) / l->bytes : 1;
	uint64_t most = l->n ? total / CALL_LIST_CALL_BYTES / l->n : 1;

	return passes <= most ? passes : most ? most : 1;
}

#endif
