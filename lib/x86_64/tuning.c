/* SPDX-License-Identifier: MIT */
/*
 * The thresholds, as data: derived from the caches this process really gets
 * (CPUID and sysfs for the CPU it runs on, else sysconf), then overridden by
 * the environment.  Runs from the library's constructor, maybe under LD_PRELOAD
 * where this library is the process's memcpy, so it uses no stdio and no
 * allocation: nothing that copies.
 */
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include "../cache_info.h"
#include "../text.h"
#include "x86_copy.h"

/*
 * The rules the defaults follow; BENCHMARKS.md has the measurements behind
 * them, per processor.
 * - Non-temporal stores once a copy's source and destination together
 *   outgrow the share of the last-level cache this process can use (the
 *   CPUs it may run on, each its part of the LLC): below that the copy's
 *   data could have stayed in the cache for a program that copies it again
 *   or reads what it copied (the warm table); above it the non-temporal
 *   stores keep the rest of the cache and save reading destination lines.
 * - 'rep movsb' from one page up to there: below a page the vector loop
 *   wins; above, 'rep movsb' wins on data from L2, L3 or memory (it skips
 *   reading destination lines it overwrites whole) and ties on data in L1.
 * - On AMD family 0x19 'rep movsb' only from 64 KiB up to the L2 size: below
 *   it the vector loop wins on L1 data where source and destination lie at
 *   different offsets in their lines, and above it the loop wins with every
 *   CPU copying from the LLC. Where both lie at the same offset in their
 *   lines 'rep movsb' writes whole lines without reading them, and wins from
 *   memory from a page up: from a page up for those.
 * - No 'rep movsb' to a destination 1-63 bytes past the source within 4 KiB
 *   (x86_rep_movsb_aliased, x86_copy.h) but from AMD family 0x1a: Zen 4's
 *   string copy is far slower there than the vector loop, and the rule stays
 *   on processors not measured otherwise. Zen 5's runs at its speed there,
 *   where the loop, whose loads each span two lines once its stores are
 *   aligned, falls behind it.
 * - Each CPU's part of the LLC counts at most LLC_PER_CPU_MAX: a guest is
 *   told its host's whole L3 as if its own CPUs alone shared it, and without
 *   the cap no copy such a guest makes would ever stream.
 * - From AMD family 0x1a a 'rep movsb' just past 16 KiB starts slower than
 *   one just below: there the first line goes by vectors (the step).
 * - The non-temporal loop: 4 pages side by side on Intel; one stream
 *   prefetched a page ahead on Zen 4; on other AMD processors (Zen 3, Zen 5)
 *   two streams, one per half of the copy: each half gets its own hardware
 *   prefetch, where streams a page apart lose to one.
 * - The AVX-512 variant's loop moves 32-byte vectors on AMD family 0x19,
 *   whose 512-bit operations go through 256-bit units, and 64-byte ones
 *   elsewhere, where they win on data in L1 and cost little from L2.
 */
#define LLC_PER_CPU_MAX ((size_t)64 << 20)
#define RULE_NT_THRESHOLD(r) ((r)->llc_counted ? (r)->llc_counted / 2 : (size_t)8 << 20)
#define RULE_NT_STREAMS(f) (!(f)->amd_family ? (size_t)4 : x86_amd_zen4(f) ? (size_t)1 : (size_t)2)
#define RULE_REP_MOVSB_STEP(f) ((f)->amd_family >= 0x1a ? (size_t)16384 : 0)
#define RULE_REP_MOVSB_NEAR(f) ((f)->amd_family >= 0x1a ? (size_t)0 : (size_t)64)
#define RULE_LOOP_VEC(f) ((f)->amd_family == 0x19 ? (size_t)32 : (size_t)64)
#define RULE_REP_MOVSB_MIN(f) \
	((f)->amd_family == 0x19 ? (size_t)64 << 10 : (size_t)sysconf(_SC_PAGESIZE))
#define RULE_REP_MOVSB_ALIGNED(f) ((size_t)sysconf(_SC_PAGESIZE))
#define RULE_REP_MOVSB_MAX(f, r)                                                         \
	((f)->amd_family == 0x19 && (r)->l2 && (r)->l2 < RULE_NT_THRESHOLD(r) ? (r)->l2 \
									      : RULE_NT_THRESHOLD(r))

struct cache_view {
	size_t l1d, l2, llc;
	size_t llc_cpus; /* CPUs sharing the last level */
};

/*
 * Counts one data cache of the given level and size into c: true where it is
 * the last level so far (the largest from level 2 on).
 */
static bool take_cache(struct cache_view *c, unsigned level, size_t size)
{
	if (level == 1)
		c->l1d = size;
	if (level == 2)
		c->l2 = size;
	if (level < 2 || size < c->llc)
		return false;
	c->llc = size;
	return true;
}

static unsigned long cpu_we_run_on(void)
{
	int cpu = sched_getcpu();

	return cpu < 0 ? 0 : (unsigned long)cpu;
}

/* The data caches of the CPU we run on; 0 where unknown. */
static void caches_from_sysfs(struct cache_view *c)
{
	struct cp_cache caches[16];
	size_t n = copyperf_cache_read(cpu_we_run_on(), caches, 16);

	for (size_t i = 0; i < n; i++) {
		const struct cp_cache *k = &caches[i];

		if (k->type[0] == 'I' || k->size == 0)
			continue; /* instruction caches do not hold data */
		if (take_cache(c, k->level, k->size))
			c->llc_cpus = k->shared_cpus;
	}
}

/*
 * The data caches from CPUID (leaf 0x8000001D on AMD, 4 elsewhere), where
 * Linux's sysfs figures for x86 come from, and of sysfs only the CPUs that
 * share the last level (one file, which must be there): sysfs whole is a file
 * per figure, and reading them all cost each process's first large copy more
 * than the copy, a price a program that starts many short processes pays each
 * time. sysfs numbers the caches as CPUID's subleaves. False where CPUID does
 * not describe them.
 */
static bool caches_from_cpuid(const struct x86_features *f, struct cache_view *c)
{
	const unsigned leaf = f->amd_family ? 0x80000000u + 0x1d : 4;
	unsigned r[4], llc_index = 0;

	copyperf_x86_cpuid(leaf & 0x80000000u, 0, r);
	if (r[0] < leaf)
		return false;
	if (f->amd_family) { /* the leaf needs TOPOEXT */
		copyperf_x86_cpuid(0x80000001u, 0, r);
		if (!(r[2] & (1u << 22)))
			return false;
	}
	for (unsigned i = 0; i < 16; i++) {
		unsigned type, level;
		size_t size;

		copyperf_x86_cpuid(leaf, i, r);
		type = r[0] & 0x1f; /* 0: no more; 1 data, 2 instructions, 3 unified */
		level = (r[0] >> 5) & 7;
		if (type == 0)
			break;
		if (type == 2)
			continue;
		/* ways x partitions x line x sets */
		size = (size_t)((r[1] >> 22) + 1) * (((r[1] >> 12) & 0x3ff) + 1) * ((r[1] & 0xfff) + 1) *
		       ((size_t)r[2] + 1);
		if (take_cache(c, level, size))
			llc_index = i;
	}
	/*
	 * CPUID counts the CPUs that may share the last level, not those that
	 * are there: without sysfs's count, the figures of before.
	 */
	if (c->l2 == 0 || c->llc == 0)
		return false;
	c->llc_cpus = copyperf_cache_shared_cpus(cpu_we_run_on(), llc_index);
	return c->llc_cpus != 0;
}

static void caches_from_sysconf(struct cache_view *c)
{
	long l1d = sysconf(_SC_LEVEL1_DCACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
	long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);

	c->l1d = l1d > 0 ? (size_t)l1d : 0;
	c->l2 = l2 > 0 ? (size_t)l2 : 0;
	c->llc = l3 > 0 ? (size_t)l3 : c->l2;
	c->llc_cpus = 1;
}

/* Of the CPUs that share the last-level cache, how many this process may run on. */
static size_t llc_cpus_ours(const struct cache_view *c)
{
	cpu_set_t set;
	size_t ours = c->llc_cpus ? c->llc_cpus : 1;

	if (c->llc_cpus > 1 && sched_getaffinity(0, sizeof(set), &set) == 0) {
		size_t allowed = (size_t)CPU_COUNT(&set);

		ours = allowed < c->llc_cpus ? allowed : c->llc_cpus;
	}
	return ours;
}

/*
 * Parses an environment variable as a size (digits, optional K, M or G): its
 * text, or NULL, with *out untouched, if it is unset or (after a warning) not
 * a size.
 */
static const char *env_size(const char *name, size_t *out)
{
	const char *v = getenv(name), *end;
	size_t n;

	if (v == NULL || *v == '\0')
		return NULL;
	if (!copyperf_parse_size(v, &n, &end) || *end != '\0') {
		copyperf_env_warn(name, v, "not a size (digits, then optionally K, M or G); ignored");
		return NULL;
	}
	*out = n;
	return v;
}

void copyperf_env_warn(const char *name, const char *value, const char *why)
{
	char msg[256], *p = msg, *const limit = msg + sizeof(msg) - 2; /* room for '\n' '\0' */
	const char *parts[] = { "copyperf: ", name, "=", value, ": ", why };

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		p = copyperf_text_put(p, limit, parts[i]);
	*p++ = '\n';
	if (write(STDERR_FILENO, msg, (size_t)(p - msg)) < 0)
		return; /* nowhere left to report it */
}

/* A variable that takes one of a few values (0-terminated): *out and *from set if it holds one. */
static void env_choice(const char *name, const size_t *allowed, size_t *out,
		       enum tuning_origin *from)
{
	size_t v, i = 0;
	const char *text = env_size(name, &v);
	char why[96], *p = why, *const end = why + sizeof(why) - 1;

	if (text == NULL)
		return;
	while (allowed[i] != 0 && allowed[i] != v)
		i++;
	if (allowed[i] == 0) { /* "not 1, 2 or 4; ignored" */
		p = copyperf_text_put_uint(copyperf_text_put(p, end, "not "), end, allowed[0]);
		for (i = 1; allowed[i] != 0; i++)
			p = copyperf_text_put_uint(
				copyperf_text_put(p, end, allowed[i + 1] ? ", " : " or "), end, allowed[i]);
		copyperf_text_put(p, end, "; ignored");
		copyperf_env_warn(name, text, why);
		return;
	}
	*out = v;
	*from = FROM_ENV;
}

/* A distance within 4 KiB, 0 to 4096: *out and *from set if the variable holds one. */
static void env_near(const char *name, size_t *out, enum tuning_origin *from)
{
	size_t v;
	const char *text = env_size(name, &v);

	if (text == NULL)
		return;
	if (v > X86_ALIAS_SPAN) {
		copyperf_env_warn(name, text, "more than 4096 (a distance within 4 KiB); ignored");
		return;
	}
	*out = v;
	*from = FROM_ENV;
}

void copyperf_x86_tuning_compute(const struct x86_features *f, struct x86_tuning_report *r)
{
	struct cache_view c = { 0 };

	if (!caches_from_cpuid(f, &c)) {
		c = (struct cache_view){ 0 };
		caches_from_sysfs(&c);
	}
	if (c.l2 == 0 || c.llc == 0)
		caches_from_sysconf(&c);
	r->l1d = c.l1d;
	r->l2 = c.l2;
	r->llc_per_cpu = c.llc_cpus ? c.llc / c.llc_cpus : c.llc;
	/* the share of the LLC this process can use: its CPUs' parts, each part capped */
	r->llc_share = r->llc_per_cpu * llc_cpus_ours(&c);
	r->llc_counted = (r->llc_per_cpu < LLC_PER_CPU_MAX ? r->llc_per_cpu : LLC_PER_CPU_MAX) *
			 llc_cpus_ours(&c);

	r->t.rep_movsb_min = RULE_REP_MOVSB_MIN(f);
	r->t.rep_movsb_max = RULE_REP_MOVSB_MAX(f, r);
	r->t.rep_movsb_aligned = RULE_REP_MOVSB_ALIGNED(f);
	r->t.nt_threshold = RULE_NT_THRESHOLD(r);
	r->t.nt_streams = RULE_NT_STREAMS(f);
	r->t.rep_movsb_step = RULE_REP_MOVSB_STEP(f);
	r->t.loop_vec = RULE_LOOP_VEC(f);
	r->t.rep_movsb_near = RULE_REP_MOVSB_NEAR(f);
	if (!f->erms) /* without ERMS the string copy is microcode byte moves: never */
		r->t.rep_movsb_min = r->t.rep_movsb_max = r->t.rep_movsb_aligned = 0;
	r->rep_min_from = r->rep_max_from = r->rep_aligned_from = r->nt_from = r->nt_streams_from =
		r->rep_step_from = r->loop_vec_from = r->rep_near_from = FROM_MACHINE;
	if (env_size("COPYPERF_REP_MOVSB_MIN", &r->t.rep_movsb_min))
		r->rep_min_from = FROM_ENV;
	if (env_size("COPYPERF_REP_MOVSB_MAX", &r->t.rep_movsb_max))
		r->rep_max_from = FROM_ENV;
	if (env_size("COPYPERF_REP_MOVSB_ALIGNED", &r->t.rep_movsb_aligned))
		r->rep_aligned_from = FROM_ENV;
	if (env_size("COPYPERF_NT_THRESHOLD", &r->t.nt_threshold))
		r->nt_from = FROM_ENV;
	env_choice("COPYPERF_NT_STREAMS", (const size_t[]){ 1, 2, 4, 0 }, &r->t.nt_streams,
		   &r->nt_streams_from);
	env_choice("COPYPERF_LOOP_VEC", (const size_t[]){ 32, 64, 0 }, &r->t.loop_vec,
		   &r->loop_vec_from);
	if (env_size("COPYPERF_REP_MOVSB_STEP", &r->t.rep_movsb_step))
		r->rep_step_from = FROM_ENV;
	env_near("COPYPERF_REP_MOVSB_NEAR", &r->t.rep_movsb_near, &r->rep_near_from);
	/* One window after the other: the copy tests the string copy's first. */
	if (r->t.rep_movsb_max > r->t.nt_threshold) {
		r->t.rep_movsb_max = r->t.nt_threshold;
		r->rep_max_from = r->nt_from;
	}
	if (r->t.rep_movsb_min > r->t.rep_movsb_max)
		r->t.rep_movsb_min = r->t.rep_movsb_max; /* an empty window */
	if (r->t.rep_movsb_aligned > r->t.rep_movsb_min) { /* the rule for lines alike only widens it */
		r->t.rep_movsb_aligned = r->t.rep_movsb_min;
		r->rep_aligned_from = r->rep_min_from;
	}
	/* Where the loop is its own, its head, tail and jumps cost more than 16 vectors in blocks. */
	r->t.blocks_max = r->t.loop_vec == 32 ? 512 : 1024;
	r->t.loop_max = x86_loop_only_below(&r->t);
}
