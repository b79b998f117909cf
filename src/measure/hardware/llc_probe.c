/* SPDX-License-Identifier: MIT */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "cache.h"
#include "llc_probe.h"
#include "measure/call_mixes/random.h"
#include "measure/engine/timing.h"
#include "sizes.h"

#define CHASE_STEPS 131072 /* reads a measurement; at memory's 100-200 ns, 13-26 ms */
#define CHASE_RUNS 3      /* the fastest counts: the others were disturbed */
#define PROBE_SEED 2008

void llc_probe_with(struct llc_probe *p, uint64_t reported, uint64_t l2, llc_chase_fn chase,
		    void *ctx)
{
	*p = (struct llc_probe){ .reported = reported, .size = reported };
	if (!reported || !l2 || 4 * l2 > reported / 2)
		return;
	p->ref_bytes = 2 * l2;
	p->ref_ns = chase(p->ref_bytes, ctx);
	if (!(p->ref_ns > 0))
		return;
	p->probed = true;
	for (uint64_t bytes = 4 * l2; bytes <= reported / 2; bytes *= 2) {
		double ns = chase(bytes, ctx);

		if (!(ns > 0)) /* no memory for it: what was measured holds, the rest is untested */
			return;
		if (!llc_reads_hold(ns, p->ref_ns)) {
			p->size = p->miss_bytes = bytes;
			p->miss_ns = ns;
			return;
		}
	}
}

/*
 * Each line's first word points to the next line of one random cycle through
 * all of them (Sattolo's shuffle), so each read waits for the one before and
 * no prefetcher can guess it. Writing the cycle touches every line: what the
 * cache can hold of the region is in it when the chase starts.
 */
double llc_chase_ns(uint64_t bytes, void *ctx)
{
	size_t line = cache_line_size(), n = (size_t)(bytes / line);
	size_t reads = n < CHASE_STEPS ? n : CHASE_STEPS;
	unsigned char *base;
	void **p;
	struct rng r = { PROBE_SEED };
	double best = -1;

	(void)ctx;
	if (n < 2)
		return -1;
	base = mmap(NULL, n * line, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		return -1;
#ifdef MADV_HUGEPAGE
	/* where the kernel has them: a TLB miss would add to every read past a few MiB */
	madvise(base, n * line, MADV_HUGEPAGE);
#endif
	for (size_t i = 0; i < n; i++)
		*(void **)(base + i * line) = base + i * line;
	for (size_t i = n - 1; i > 0; i--) {
		void **a = (void **)(base + i * line);
		void **b = (void **)(base + rng_below(&r, i) * line);
		void *t = *a;

		*a = *b;
		*b = t;
	}
	p = (void **)base;
	for (int run = 0; run <= CHASE_RUNS; run++) { /* run 0 warms up */
		size_t steps = reads;
		uint64_t t0 = now_ns();
		double ns;

		while (steps--)
			p = (void **)*p;
		__asm__ volatile("" : "+r"(p)); /* the chase is the result: keep it */
		ns = (double)(now_ns() - t0) / (double)reads;
		if (run && (best < 0 || ns < best))
			best = ns;
	}
	munmap(base, n * line);
	return best;
}

const struct llc_probe *llc_probe_median(const struct llc_probe *runs, int n)
{
	for (int i = 0; i < n; i++) {
		int below = 0, same = 0;

		for (int k = 0; k < n; k++) {
			below += runs[k].size < runs[i].size;
			same += runs[k].size == runs[i].size;
		}
		if (2 * below < n && 2 * (below + same) >= n) /* the median's size: its first run */
			return &runs[i];
	}
	return &runs[0]; /* not reached: some size is the median */
}

static struct llc_probe result;
static bool done;

const struct llc_probe *llc_probe(void)
{
	const char *given = getenv("COPYPERF_LLC"), *end;
	uint64_t reported, l2;
	size_t size;

	if (done)
		return &result;
	done = true;
	reported = cache_data_size(0);
	l2 = cache_data_size(2);
	if (given) {
		bool ok = copyperf_parse_size(given, &size, &end) && size;
		size_t memory = size;

		if (ok && *end == ',')
			ok = copyperf_parse_size(end + 1, &memory, &end) && memory;
		ok = ok && !*end;
		result = (struct llc_probe){ .given = true, .bad_given = !ok, .size = ok ? size : 0,
					     .memory = ok ? memory : 0, .reported = reported };
	} else {
		struct llc_probe runs[LLC_PROBE_RUNS];

		for (int i = 0; i < LLC_PROBE_RUNS; i++)
			llc_probe_with(&runs[i], reported, l2, llc_chase_ns, NULL);
		result = *llc_probe_median(runs, LLC_PROBE_RUNS);
	}
	return &result;
}

const struct llc_probe *llc_probe_done(void)
{
	return done ? &result : NULL;
}

uint64_t llc_memory_level(const struct llc_probe *p)
{
	if (p->given)
		return p->memory;
	if (p->reported <= p->size)
		return p->size;
	return p->reported <= LLC_REACH * p->size ? p->reported : LLC_REACH * p->size;
}

int llc_probe_hand_down(const struct llc_probe *p)
{
	char value[48];

	snprintf(value, sizeof(value), "%llu,%llu", (unsigned long long)p->size,
		 (unsigned long long)llc_memory_level(p));
	return setenv("COPYPERF_LLC", value, 1);
}

void llc_probe_describe(const struct llc_probe *p, char *buf, size_t len)
{
	char size[32], reported[32], ref[32], memory[32];
	uint64_t m = llc_memory_level(p);
	int n;

	format_size(p->size, size, sizeof(size));
	format_size(p->reported, reported, sizeof(reported));
	format_size(p->ref_bytes, ref, sizeof(ref));
	format_size(m, memory, sizeof(memory));
	if (p->given)
		n = snprintf(buf, len, "llc, cold: from a last level of %s (COPYPERF_LLC; the machine "
			     "reports %s)", size, reported);
	else if (p->miss_bytes)
		n = snprintf(buf, len, "llc, cold: from a last level of %s as measured: random reads "
			     "of %s took %.1fx as long as of %s (the machine reports %s)", size, size,
			     p->miss_ns / p->ref_ns, ref, reported);
	else if (p->probed)
		n = snprintf(buf, len, "llc, cold: from the last level the machine reports, %s (random "
			     "reads of half of it within %.0fx of those of %s)", reported,
			     LLC_HOLDS_RATIO, ref);
	else
		n = snprintf(buf, len, "llc, cold: from the last level the machine reports, %s (not "
			     "measured)", reported);
	if (m != p->size && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "; cold and stream from %s, %s", memory,
			 p->given ? "as given" : m == p->reported ? "the level reported"
							 : "the most a core is taken to reach");
}
