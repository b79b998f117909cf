/* SPDX-License-Identifier: MIT */
/*
 * make bench: copyperf_memcpy against the C library's memcpy, side by side in
 * one process, each called through a function pointer, interleaved with the
 * C library a second time as an A/A control (in orders where each contender
 * follows each other as often, see round_order), every copy checked,
 * ROUNDS rounds, in PROCS processes one after the other; medians, spread and
 * ratios, a verdict on every row (no loss: at least 1.00x, a tie within the
 * A/A control passing) and on each gain target, then one summary line a table:
 *   sweep       - the seed's walk: chunks of 8 B..64 KiB through 64 KiB buffers, hot
 *   sweep-offsets - the same walk from other page offsets: the destination, the
 *                 source or both off a line's start, or the destination a few lines
 *                 past the source's offset in its page (copyperf -a S:D)
 *   sweep-flush - the same walk with both buffers flushed at each wrap, the
 *                 timer paused (copyperf's default, what `make run` shows)
 *   sweep-cold  - the same walk through buffers of twice the last level each,
 *                 every chunk from memory (copyperf -c cold)
 *   repeat      - 0..64 B copied again and again between the same two pointers,
 *                 at a page's start, inside it, and at its last bytes
 *   chain       - 1..128 B copies appended one after another, each copy's last byte
 *                 read back at once and the next copy waiting for it
 *   l1          - the same bytes copied again and again (L1-resident)
 *   large       - single copies of 8..256 MiB, pages pre-faulted, caches evicted before each
 *   warm        - 4..32 MiB copied again and again (what stays in the LLC)
 *   threads     - every CPU copying at once, each its own buffers again and again,
 *                 1..256 MiB: what the whole machine sustains (aggregate GB/s)
 *   dist        - the shipped call mixes replayed (copyperf -d's call lists), memcpy's
 *                 against copyperf_memcpy and memmove's against copyperf_memmove, in
 *                 the L1 and L2 working sets; dist-llc in the last level as
 *                 llc_probe() finds it (-w SIZE: dist-llc's working set instead),
 *                 and whether the set stayed there while its rows ran (set_reads),
 *                 dist-cold from memory (twice llc_memory_level()); dist-stream one
 *                 call after another through two walks of twice that level
 *                 (copyperf -w stream); dist-chain at L1 and L2, each call waiting
 *                 for the one before (copyperf --chain); dist-tested at L1 and L2,
 *                 each call after the caller's tests of its size (copyperf --tested)
 * Why several processes: where both copies tie, one process's ratio moves
 * from the next one's by more than a tie's margin (code, stack and buffers
 * land elsewhere each time), so a verdict taken from one process is a coin
 * toss. Each process is a
 * fresh exec of this program; the verdict is on the median of their ratios.
 * Usage: copybench [CASE ...] [-r ROUNDS] [-p PROCS] [-c ROUTINE] [-C ROUTINE] [-w SIZE] [-m]
 * (exit 2 on bad input). Without a case: every table. -m: memmove against
 * copyperf_memmove (or -c's) in every table, not only in memmove's mixes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "copybench.h"
#include "copyperf.h"
#include "footprint.h"
#include "measure/backends/shared_routine.h"
#include "measure/call_mixes/workloads.h"
#include "measure/hardware/llc_probe.h"

struct contender contenders[MAX_CONTENDERS] = {
	{ "memcpy", memcpy },
	{ "copyperf_memcpy", copyperf_memcpy },
	{ "memcpy", memcpy },
	{ "read both buffers", footprint_read },
};
struct contender move_contenders[MAX_CONTENDERS] = {
	{ "memmove", memmove },
	{ "copyperf_memmove", copyperf_memmove },
	{ "memmove", memmove },
	{ "read both buffers", footprint_read },
};
unsigned rounds = 15, procs = 15;
char *control_arg;
char *llc_arg;
int move_everywhere;

static int usage_error(const char *arg, const char *why)
{
	fprintf(stderr, "copybench: %s: %s\n", arg, why);
	return 2;
}

/* The words for an argument that is neither a case nor an option: every table's case, once. */
static const char *not_a_case(void)
{
	static char why[400];
	size_t n = (size_t)snprintf(why, sizeof(why), "not a case (");

	for (unsigned t = 0; t < n_tables && n < sizeof(why); t++) {
		int seen = 0;

		for (unsigned u = 0; u < t; u++)
			seen |= strcmp(tables[u].cases, tables[t].cases) == 0;
		if (!seen)
			n += (size_t)snprintf(why + n, sizeof(why) - n, "%s%s", t ? ", " : "", tables[t].cases);
	}
	if (n < sizeof(why))
		snprintf(why + n, sizeof(why) - n, ") or option (-r N, -p N, -c ROUTINE, -C ROUTINE, -w SIZE, -m)");
	return why;
}

/*
 * -c's or -C's routine: a registry name, or FILE:SYMBOL[:overlap] from a shared
 * object (another build of the library, say). NULL, the error printed, if none.
 */
static const struct copyperf_routine *routine_named(const char *option, const char *name)
{
	char why[400];
	const struct copyperf_routine *r = shared_routine_named(name, why, sizeof(why));

	if (r == NULL)
		fprintf(stderr, "copybench: %s %s\n", option, why);
	return r;
}

static int parse_count(const char *arg, unsigned lo, unsigned hi, unsigned *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || v < lo || v > hi)
		return 0;
	*out = (unsigned)v;
	return 1;
}

int main(int argc, char **argv)
{
	int want[MAX_TABLES] = { 0 }, any = 0, raw = 0, ok = 1, overlap_ok = 1;
	char *child_argv[MAX_TABLES + 12], *rounds_arg = NULL, *routine_arg = NULL;
	unsigned n_child = 0;
	char err[512];

	for (int i = 1; i < argc; i++) {
		int found = 0;

		if (strcmp(argv[i], "--raw") == 0) { /* a child of a pooled run */
			raw = 1;
			continue;
		}
		if (strcmp(argv[i], "-m") == 0) {
			move_everywhere = 1;
			continue;
		}
		if ((strcmp(argv[i], "-r") == 0 || strcmp(argv[i], "-p") == 0 || strcmp(argv[i], "-c") == 0 ||
		     strcmp(argv[i], "-C") == 0 || strcmp(argv[i], "-w") == 0) &&
		    i + 1 == argc)
			return usage_error(argv[i], "needs a value");
		if (strcmp(argv[i], "-r") == 0) {
			if (!parse_count(argv[++i], 3, MAX_ROUNDS, &rounds))
				return usage_error(argv[i], "rounds (-r) must be 3..101");
			rounds_arg = argv[i];
			continue;
		}
		if (strcmp(argv[i], "-p") == 0) {
			if (!parse_count(argv[++i], 1, MAX_PROCS, &procs))
				return usage_error(argv[i], "processes (-p) must be 1..51");
			continue;
		}
		if (strcmp(argv[i], "-w") == 0) {
			llc_arg = argv[++i];
			if (!working_set_bytes(llc_arg, err, sizeof(err)))
				return usage_error(llc_arg, "not a working set (-w): a size such as 16M");
			continue;
		}
		if (strcmp(argv[i], "-c") == 0 || strcmp(argv[i], "-C") == 0) {
			int slot = argv[i][1] == 'c' ? 1 : CONTROL;
			const struct copyperf_routine *r = routine_named(argv[i], argv[i + 1]);

			if (r == NULL)
				return 2;
			i++;
			contenders[slot].name = move_contenders[slot].name = r->name;
			contenders[slot].fn = move_contenders[slot].fn = r->fn;
			*(slot == 1 ? &routine_arg : &control_arg) = argv[i];
			overlap_ok &= (r->flags & COPYPERF_OVERLAP_OK) != 0;
			continue;
		}
		for (unsigned t = 0; t < n_tables; t++)
			if (strcmp(argv[i], tables[t].cases) == 0)
				want[t] = found = any = 1;
		if (!found)
			return usage_error(argv[i], not_a_case());
	}
	/* What each measuring process is told: the same, once each, and --raw. */
	child_argv[n_child++] = argv[0];
	child_argv[n_child++] = "--raw";
	if (rounds_arg) {
		child_argv[n_child++] = "-r";
		child_argv[n_child++] = rounds_arg;
	}
	if (routine_arg) {
		child_argv[n_child++] = "-c";
		child_argv[n_child++] = routine_arg;
	}
	if (control_arg) {
		child_argv[n_child++] = "-C";
		child_argv[n_child++] = control_arg;
	}
	if (llc_arg) {
		child_argv[n_child++] = "-w";
		child_argv[n_child++] = llc_arg;
	}
	if (move_everywhere) {
		if (!overlap_ok)
			return usage_error("-m", "memmove's contenders need a routine correct on "
						 "overlapping buffers (-c)");
		child_argv[n_child++] = "-m";
	}
	for (unsigned t = 0; t < n_tables; t++) {
		want[t] |= !any; /* every table, where none is named */
		if (want[t] && (t == 0 || strcmp(tables[t].cases, tables[t - 1].cases)))
			child_argv[n_child++] = (char *)tables[t].cases;
		if (want[t] && tables[t].mixes && load_mixes(t, err, sizeof(err))) {
			fprintf(stderr, "copybench: %s\n", err);
			return 1;
		}
		/* as copyperf -d: a routine wrong on overlapping buffers sits out memmove's mixes */
		if (want[t] && mixes[t].move && !overlap_ok) {
			want[t] = 0;
			if (!raw)
				printf("%s: not measured, %s is not correct on overlapping buffers\n",
				       tables[t].cases, contenders[1].name);
		}
	}
	child_argv[n_child] = NULL;

	if (raw) {
		for (unsigned t = 0; t < n_tables; t++)
			if (want[t]) {
				struct result r[MAX_SIZES];

				measure_table(t, r);
				print_raw(t, r, n_rows(t));
				if (measures_llc(t))
					print_set_reads(t);
			}
		return 0;
	}
	printf("copyperf_memcpy: %s\n", copyperf_describe());
	if (llc_probe_done()) { /* dist-llc, dist-cold: measured once, the same in every process */
		const struct llc_probe *lp = llc_probe_done();
		char line[400];

		llc_probe_describe(lp, line, sizeof(line));
		printf("%s\n", line);
		llc_probe_hand_down(lp);
	}
	fflush(stdout);
	for (unsigned p = 0; p < procs; p++)
		run_child(child_argv, p, want);
	for (unsigned t = 0; t < n_tables; t++)
		if (want[t])
			ok &= tables[t].report(t);
	report_summary(want);
	return ok ? 0 : 1;
}
