/* SPDX-License-Identifier: MIT */
/*
 * The tables make bench prints (copybench.h): each one's case, its rows (a
 * list of sizes, or call mixes times working sets), its report and targets.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "copybench.h"
#include "measure/call_mixes/call_list.h"
#include "measure/call_mixes/distribution_files.h"
#include "measure/call_mixes/workloads.h"

/* A table's sizes and their count, counted by the compiler. */
#define SIZES(...) { __VA_ARGS__ }, sizeof((size_t[]){ __VA_ARGS__ }) / sizeof(size_t)
#define SEED_SIZES SIZES(SEED_CHUNKS)

#define KIB(x) ((size_t)(x) << 10)
#define MIB(x) ((size_t)(x) << 20)

/*
 * The rounds of the tables from memory (dist-cold, dist-stream): a pass there
 * walks twice the last level's lines from memory, long enough to be a sample
 * on its own, and so slow that -r's rounds of it would make up most of make
 * bench's time.
 */
#define FAR_ROUNDS 5

const struct table tables[] = {
	{ .cases = "sweep",
	  .title = "sweep: the seed's walk, chunks 8 B-64 KiB through 64 KiB buffers, hot cache\n"
		   "(both page-aligned: one page offset, as the seed's kmalloc'd buffers and malloc's large\n"
		   " blocks have; other placements: sweep-offsets)",
	  .measure = measure_sweep, .buffer = SEED_BUFFER, .bytes = SWEEP_BYTES, .sizes = SEED_SIZES,
	  .report = report_rows, .gm_target = 1.03 },
	{ .cases = "sweep-offsets",
	  .title = "sweep-offsets: the seed's walk, hot, from other page offsets (copyperf -a S:D), 4 pairs\n"
		   "a row in turn: the destination, the source or both off a line's start, or the\n"
		   "destination 64-224 B past the source's offset in its page (where a forward copy's\n"
		   "loads meet its stores' 4 KiB aliases); offsets 512 B apart in both loop shapes:\n"
		   "make bench-walk",
	  .measure = measure_sweep_offsets, .buffer = OFFSETS_BUFFER, .bytes = SWEEP_BYTES,
	  .n_sizes = N_OFFSETS_ROWS, .placed = &sweep_offsets_rows, .report = report_rows },
	{ .cases = "sweep-flush",
	  .title = "sweep-flush: the seed's walk, both buffers flushed at each wrap, timer paused\n"
		   "(copyperf's default, the table make run shows)",
	  .measure = measure_lane, .buffer = SEED_BUFFER, .bytes = SWEEP_BYTES, .sizes = SEED_SIZES,
	  .report = report_rows, .cache = CACHE_FLUSH, .gm_target = 1.05 },
	{ .cases = "sweep-cold",
	  .title = "sweep-cold: the seed's walk through buffers of twice the last level each, from memory\n"
		   "(copyperf -c cold)",
	  .measure = measure_lane, .bytes = SWEEP_BYTES, .sizes = SEED_SIZES, .report = report_rows,
	  .cache = CACHE_COLD, .gm_target = 1.05 },
	{ .cases = "repeat",
	  .title = "repeat: 0-64 B copied again and again between the same two pointers (ns per call),\n"
		   "8 pairs of page offsets a row, in turn: one or both at a page's start, both inside it,\n"
		   "the source or the destination in its last 31 bytes",
	  .measure = measure_repeat, .buffer = REPEAT_BUFFER, .n_sizes = N_REPEAT_ROWS,
	  .placed = &repeat_rows, .report = report_rows },
	{ .cases = "chain",
	  .title = "chain: 1-128 B copies appended one after another, each copy's last byte read back\n"
		   "at once and the next copy's source depending on it (a decoder reading what it just wrote)",
	  .measure = measure_chain, .buffer = CHAIN_BUFFER, .bytes = CHAIN_BYTES,
	  .sizes = SIZES(1, 2, 4, 8, 16, 24, 32, 48, 64, 128), .report = report_rows },
	{ .cases = "l1", .title = "l1: the same bytes copied again and again (L1-resident)",
	  .measure = measure_l1, .buffer = KIB(16), .bytes = L1_BYTES,
	  .sizes = SIZES(2113, 3000, 4096, 8192, 16384), .report = report_l1 },
	{ .cases = "large", .title = "large: single copies, caches evicted before each",
	  .measure = measure_large, .buffer = LARGE_MAX, .junk = JUNK_BYTES,
	  .sizes = SIZES(MIB(8), MIB(16), MIB(32), MIB(64), MIB(128), MIB(256)),
	  .report = report_large },
	{ .cases = "warm",
	  .title = "warm: the same copy again and again (per copy, blocks of 3 after one untimed)",
	  .measure = measure_warm, .buffer = WARM_MAX, .sizes = SIZES(MIB(4), MIB(8), MIB(16), MIB(32)),
	  .report = report_rows },
	{ .cases = "threads",
	  .title = "threads: every CPU copying its own buffers at once (aggregate GB/s)",
	  .measure = measure_threads, .buffer = LARGE_MAX, .bytes = THREADS_BYTES,
	  .sizes = SIZES(MIB(1), MIB(2), MIB(4), MIB(8), MIB(16), MIB(32), MIB(64), MIB(128), MIB(256)),
	  .report = report_threads, .bound = 1 },
	{ .cases = "dist",
	  .title = "dist: memcpy's call mixes replayed, L1 and L2 working sets (ns per call)",
	  .measure = measure_dist, .report = report_dist, .mixes = "memcpy", .wsets = { "l1", "l2" } },
	{ .cases = "dist",
	  .title = "dist: memmove's call mixes replayed, L1 and L2 working sets (ns per call)",
	  .measure = measure_dist, .report = report_dist, .mixes = "memmove", .wsets = { "l1", "l2" } },
	{ .cases = "dist-llc", .title = "dist-llc: the call mixes, LLC working set (ns per call)",
	  .measure = measure_dist, .report = report_rows, .mixes = "memcpy", .wsets = { "llc" },
	  .gm_target = 1.05 },
	{ .cases = "dist-llc", .title = "dist-llc: the memmove mixes, LLC working set (ns per call)",
	  .measure = measure_dist, .report = report_rows, .mixes = "memmove", .wsets = { "llc" },
	  .gm_target = 1.05 },
	{ .cases = "dist-cold", .title = "dist-cold: the call mixes, cold working set (ns per call)",
	  .measure = measure_dist, .report = report_rows, .mixes = "memcpy", .wsets = { "cold" },
	  .max_rounds = FAR_ROUNDS },
	{ .cases = "dist-cold",
	  .title = "dist-cold: the memmove mixes, cold working set (ns per call)",
	  .measure = measure_dist, .report = report_rows, .mixes = "memmove", .wsets = { "cold" },
	  .max_rounds = FAR_ROUNDS },
	{ .cases = "dist-stream",
	  .title = "dist-stream: the call mixes one after another, from memory (copyperf -w stream:\n"
		   "two walks of twice the last level as memory; ns per call)",
	  .measure = measure_dist, .report = report_rows, .mixes = "memcpy", .wsets = { "stream" },
	  .gm_target = 1.10, .max_rounds = FAR_ROUNDS },
	{ .cases = "dist-stream",
	  .title = "dist-stream: the memmove mixes one after another, from memory (copyperf -w stream:\n"
		   "two walks of twice the last level as memory; ns per call)",
	  .measure = measure_dist, .report = report_rows, .mixes = "memmove", .wsets = { "stream" },
	  .gm_target = 1.10, .max_rounds = FAR_ROUNDS },
	{ .cases = "dist-chain",
	  .title = "dist-chain: memcpy's call mixes, each call waiting for the one before (copyperf\n"
		   "--chain: a decoder's copies), L1 and L2 working sets (ns per call)",
	  .measure = measure_dist_chained, .report = report_rows, .mixes = "memcpy",
	  .wsets = { "l1", "l2" } },
	{ .cases = "dist-chain",
	  .title = "dist-chain: memmove's call mixes, each call waiting for the one before (copyperf\n"
		   "--chain: a decoder's copies), L1 and L2 working sets (ns per call)",
	  .measure = measure_dist_chained, .report = report_rows, .mixes = "memmove",
	  .wsets = { "l1", "l2" } },
	{ .cases = "dist-tested",
	  .title = "dist-tested: memcpy's call mixes, each call after the caller's tests of its size\n"
		   "(copyperf --tested: sizes a program reached through branches), L1 and L2 working\n"
		   "sets (ns per call)",
	  .measure = measure_dist_tested, .report = report_rows, .mixes = "memcpy",
	  .wsets = { "l1", "l2" } },
	{ .cases = "dist-tested",
	  .title = "dist-tested: memmove's call mixes, each call after the caller's tests of its size\n"
		   "(copyperf --tested: sizes a program reached through branches), L1 and L2 working\n"
		   "sets (ns per call)",
	  .measure = measure_dist_tested, .report = report_rows, .mixes = "memmove",
	  .wsets = { "l1", "l2" } },
};
const unsigned n_tables = sizeof(tables) / sizeof(tables[0]);
_Static_assert(sizeof(tables) / sizeof(tables[0]) <= MAX_TABLES, "MAX_TABLES holds every table");

struct mix_rows mixes[MAX_TABLES];

/* Rows of table t: its sizes, or its mixes times its working sets. */
unsigned n_rows(unsigned t)
{
	return tables[t].mixes ? mixes[t].n_dists * mixes[t].n_ws : tables[t].n_sizes;
}

const struct contender *contenders_of(unsigned t)
{
	return mixes[t].move || move_everywhere ? move_contenders : contenders;
}

/* Table t's k-th working set as -w words name it: dist-llc's is -w's where given. */
const char *wset_word(unsigned t, unsigned k)
{
	const char *w = tables[t].wsets[k];

	return llc_arg && w && !strcmp(w, "llc") ? llc_arg : w;
}

/* Reads the distributions of the dist tables and sizes their working sets on this machine. */
int load_mixes(unsigned t, char *err, size_t errlen)
{
	const struct table *tb = &tables[t];
	struct mix_rows *m = &mixes[t];
	char *word = (char *)tb->mixes;
	size_t n = 0;
	int status = distribution_load(&word, 1, &m->dists, &n, err, errlen);

	m->n_dists = n < MAX_SIZES / 2 ? (unsigned)n : MAX_SIZES / 2;
	for (unsigned i = 0; i < m->n_dists; i++)
		m->move |= m->dists[i].kind == DIST_MEMMOVE;
	for (unsigned k = 0; k < 2 && tb->wsets[k] && !status; k++) {
		m->ws[k] = working_set_bytes(wset_word(t, k), err, errlen);
		status = m->ws[k] ? 0 : -1;
		m->n_ws += status == 0;
	}
	for (unsigned r = 0; r < n_rows(t); r++)
		snprintf(m->labels[r], sizeof(m->labels[r]), "%s %s", m->dists[r / m->n_ws].name,
			 wset_word(t, r % m->n_ws));
	return status;
}

/* One row of a dist table: its calls, drawn as copyperf -d draws them, in a fresh arena. */
void load_row(unsigned t, unsigned r, struct call_list *l, struct buffers *b)
{
	const struct mix_rows *m = &mixes[t];
	uint64_t ws = m->ws[r % m->n_ws];
	const struct distribution *d = &m->dists[r / m->n_ws];
	char err[256];

	if (working_set_calls(l, d, wset_word(t, r % m->n_ws), ws, DIST_SEED, err, sizeof(err))) {
		fprintf(stderr, "copybench: %s\n", err);
		exit(1);
	}
	b->calls = l;
	b->arena = map_prefaulted(l->arena);
}

/* Table t's rounds: -r's, or fewer where a pass of its calls takes long enough alone. */
unsigned rounds_of(const struct table *t)
{
	return t->max_rounds && t->max_rounds < rounds ? t->max_rounds : rounds;
}

/*
 * Whether the last level held a dist-llc table's set while its rows ran: in
 * each process, right after them, random reads through a region of the set's
 * size against reads through twice the L2, as llc_probe() reads them. On a
 * guest whose L3 its host's other guests share, a set that the probe found
 * held at the start can stream from memory minutes later, and its rows then
 * measure memory; the table says so beside its rows.
 */
int measures_llc(unsigned t)
{
	return tables[t].wsets[0] && !strcmp(tables[t].wsets[0], "llc");
}
