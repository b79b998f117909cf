/* SPDX-License-Identifier: MIT */
/*
 * The last-level cache this CPU really gets, where the machine may say more:
 * a guest is told its host's whole L3 (508 MiB on a Zen 5 guest whose core
 * finds 16 MiB of it), and a working set sized from that is memory, not the
 * LLC. Random reads through regions of growing size say where the cache ends.
 */
#ifndef COPYPERF_LLC_PROBE_H
#define COPYPERF_LLC_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A region holds in the last level while its random reads take at most this
 * many times those of twice the L2, about halfway (in ratio) to memory's: on
 * the Zen 5 guest 2 MiB took 12-15 ns a read, 8 MiB 17-18, 16 MiB 26-130 as
 * the neighbours' load came and went, 32 MiB 130-146 (BENCHMARKS.md).
 */
#define LLC_HOLDS_RATIO 3.0

/* Whether random reads of ns each hold in the last level, against ref_ns of twice the L2. */
static inline bool llc_reads_hold(double ns, double ref_ns)
{
	return ns <= LLC_HOLDS_RATIO * ref_ns;
}

struct llc_probe {
	bool probed;       /* the regions were read; false: the machine's figure stands untested */
	bool given;        /* size is COPYPERF_LLC's: nothing probed */
	bool bad_given;    /* COPYPERF_LLC is not a size: size is 0 */
	uint64_t reported; /* the machine's last level, bytes */
	uint64_t size;     /* the last level to size working sets by: reported, or less as measured */
	uint64_t memory;   /* given: the level cold and stream are sized from (llc_memory_level) */
	uint64_t ref_bytes, miss_bytes; /* twice the L2; the first region that did not hold (0: none) */
	double ref_ns, miss_ns;         /* a random read in each, ns */
};

/*
 * Ns per read of a chase through `bytes` of memory in random order, or a
 * negative number when it cannot be measured (no memory).
 */
typedef double (*llc_chase_fn)(uint64_t bytes, void *ctx);

/*
 * The rule, apart from the clock: chase twice the L2, then regions of 4, 8,
 * 16 ... times the L2 up to half the reported size; the first that does not
 * hold (LLC_HOLDS_RATIO) is the last level's size. Where every region holds,
 * or the L2 is unknown or too near the last level to tell them apart, or a
 * chase fails, the reported size stands.
 */
void llc_probe_with(struct llc_probe *p, uint64_t reported, uint64_t l2, llc_chase_fn chase,
		    void *ctx);

/*
 * The probe that found the median size of n: where the neighbours' load on a
 * shared L3 comes and goes, one probe in eight found twice or half the size
 * on the Zen 5 guest; the median of three seldom does.
 */
const struct llc_probe *llc_probe_median(const struct llc_probe *runs, int n);
#define LLC_PROBE_RUNS 3

/*
 * The rule on this machine's caches and clock, LLC_PROBE_RUNS times and the
 * median taken, once a process (later calls return the first result).
 * COPYPERF_LLC=SIZE in the environment is taken instead, or SIZE,MEMORY with
 * the level cold and stream are sized from (copybench probes once and hands
 * both to its processes so; a user may pin them so for runs to compare).
 */
const struct llc_probe *llc_probe(void);

/* The probe if a working set asked for it in this process, else NULL. */
const struct llc_probe *llc_probe_done(void);

/*
 * Random reads find where a region stops holding well, not where the cache
 * stops holding it at all: a guest told the truth may find half or a quarter
 * of it, and a set of call mixes twice that size still runs from the cache.
 * The working sets meant to come from memory (cold, stream) are sized from
 * the reported level where it is larger, up to LLC_REACH times the level
 * found: a guest told its host's whole L3 would otherwise be sized from
 * hundreds of MiB no core reaches.
 */
#define LLC_REACH 4

/*
 * The level cold and stream are sized from: COPYPERF_LLC's second size
 * (SIZE,MEMORY), or its only one; else the rule above.
 */
uint64_t llc_memory_level(const struct llc_probe *p);

/*
 * Hands p to the copyperf processes this one starts: COPYPERF_LLC=SIZE,MEMORY
 * in the environment, so that they size llc, cold and stream as this process
 * did, without probing again.  Returns setenv's result.
 */
int llc_probe_hand_down(const struct llc_probe *p);

/* One line: the last level llc, cold and stream are sized from, and why those figures. */
void llc_probe_describe(const struct llc_probe *p, char *buf, size_t len);

/* Ns per read of a random chase through `bytes` of fresh memory (the real llc_chase_fn). */
double llc_chase_ns(uint64_t bytes, void *ctx);

#endif
