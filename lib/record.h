/* SPDX-License-Identifier: MIT */
/*
 * COPYPERF_RECORD=FILE: the preload shim counts the program's own memcpy,
 * memmove and mempcpy calls and writes them at exit as two call mixes
 * (fleetbench's three-line format) that copyperf -d replays: FILE.memcpy for
 * the memcpy family, FILE.memmove for the memmove family.  record.c says how;
 * the shim only calls copyperf_record_hook() with each call's arguments and
 * its family.
 */
#ifndef COPYPERF_LIB_RECORD_H
#define COPYPERF_LIB_RECORD_H

#include <stddef.h>
#include <stdint.h>

#pragma GCC visibility push(hidden)

#define RECORD_SMALL_MAX 4096 /* sizes 0..this are counted one by one */
#define RECORD_ALIGNS 7       /* alignments 1, 2, 4, ..., 64 */

/*
 * Which mix a call goes to.  memcpy, mempcpy, __mempcpy, __memcpy_chk and
 * __mempcpy_chk promise disjoint buffers, memmove and __memmove_chk do not:
 * a memcpy mix is replayed between two buffers, a memmove mix inside one.
 */
enum record_family { RECORD_MEMCPY, RECORD_MEMMOVE, RECORD_FAMILIES };

/*
 * The counters most calls touch, one set per family at the start of each
 * thread's block (record.c).
 */
struct record_counts {
	uint64_t small[RECORD_SMALL_MAX + 1];
	/*
	 * Calls by destination and source alignment: one counter for the pair,
	 * so calls alike one after the other wait on one store-to-load
	 * forwarding each, not two.
	 */
	uint64_t align[RECORD_ALIGNS][RECORD_ALIGNS];
};

/*
 * Reads COPYPERF_RECORD and, where it names a file, starts counting: the
 * shim's constructor calls it first (preload.c).
 */
void copyperf_record_setup(void);

/* Non-zero while calls are counted: from copyperf_record_setup() until the files are written. */
extern int copyperf_record_on;

/* This thread's counters, RECORD_FAMILIES sets of them; NULL until its first call is counted. */
extern __thread struct record_counts *copyperf_record_self __attribute__((tls_model("initial-exec")));

/* Counts one call, whatever it is: the hook's way for all but the common ones. */
void copyperf_record(const void *dst, const void *src, size_t n, enum record_family f);

/* The largest power of two that divides p, as its log2, at most 6 (64); a null p gives 6. */
static inline unsigned copyperf_record_align(const void *p)
{
	return (unsigned)__builtin_ctzl((unsigned long)(uintptr_t)p | 64);
}

/*
 * When COPYPERF_RECORD is unset: one load of a flag that never changes and
 * one branch that always goes the same way.  When set, a call of at most
 * 4096 bytes whose ranges do not overlap, from a thread that has counted
 * before, is counted here, in two increments (an out-of-line call cost more
 * than the counting, measured with bench/record_cost.c); the others go to
 * copyperf_record().  f is a constant at each call site, so the family only
 * moves the counters' offset in the block: no instruction is added.  An
 * overlapping call goes out of line anyway, and there a memcpy-family call
 * is counted as a memmove (record.c says why).
 */
static inline __attribute__((always_inline)) void
copyperf_record_hook(const void *dst, const void *src, size_t n, enum record_family f)
{
	struct record_counts *c;
	uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;

	if (__builtin_expect(!__atomic_load_n(&copyperf_record_on, __ATOMIC_RELAXED), 1))
		return;
	c = copyperf_record_self;
	if (__builtin_expect(c == NULL || n > RECORD_SMALL_MAX || (n && d < s + n && s < d + n), 0)) {
		copyperf_record(dst, src, n, f);
		return;
	}
	c[f].small[n]++;
	c[f].align[copyperf_record_align(dst)][copyperf_record_align(src)]++;
}

#pragma GCC visibility pop

#endif
