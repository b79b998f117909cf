/* SPDX-License-Identifier: MIT */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"
#include "stats/mann_whitney.h"
#include "output.h"
#include "results_file.h"
#include "stats/stats.h"
#include "xalloc.h"

/* The per-routine ratios, kept in the order the routines first appear. */
struct routine_ratios {
	const struct result_row *first; /* the routine's first row compared */
	double *ratios;
	size_t n, cap;
};

static void ratio_add(struct routine_ratios *g, size_t *ng, const struct result_row *row,
		      double ratio)
{
	size_t i = 0;

	while (i < *ng && !row_same_routine(g[i].first, row))
		i++;
	if (i == *ng)
		g[(*ng)++] = (struct routine_ratios){ row, NULL, 0, 0 };
	if (g[i].n == g[i].cap) {
		g[i].cap = g[i].cap ? 2 * g[i].cap : 16;
		g[i].ratios = xrealloc(g[i].ratios, g[i].cap, sizeof(double), "the comparison");
	}
	g[i].ratios[g[i].n++] = ratio;
}

static void describe(const char *name, const struct result_set *s)
{
	printf("%s: %s: %s, %s, ", name, s->source, s->cpu, s->kernel);
	if (result_set_is_program(s))
		printf("a program run without and with the preload shim");
	else if (!result_set_is_replay(s))
		printf("cache %s, %llu bytes per point", s->cache, (unsigned long long)s->total);
	else if (s->seeds_vary)
		printf("recorded call mixes replayed, seeds vary");
	else
		printf("recorded call mixes replayed, seed %llu", (unsigned long long)s->seed);
	if (result_set_calling(s))
		printf(", %s", result_set_calling(s));
	printf(", %u repeats", s->repeat);
	if (s->runs > 1)
		printf(" pooled from %u runs", s->runs);
	putchar('\n');
}

/* A comma list of results files is one side: each point's samples pooled across the runs. */
struct side {
	struct result_set *files;
	size_t n;
	struct result_set pooled;
	char *names; /* the list, cut into the files' names */
};

static void side_free(struct side *d)
{
	for (size_t i = 0; i < d->n; i++)
		result_set_free(&d->files[i]);
	free(d->files);
	free(d->names);
	if (d->pooled.runs > 1)
		result_set_free(&d->pooled);
}

static int side_read(struct side *d, const char *list, char *why, size_t whylen)
{
	char *cursor, *path;
	int failed = 0;

	memset(d, 0, sizeof(*d));
	d->names = cursor = xstrdup(list, "the list of files");
	d->files = xcalloc(strlen(list) + 1, sizeof(*d->files), "the list of files");
	while (!failed && (path = strsep(&cursor, ",")) != NULL) {
		if (*path == '\0') {
			snprintf(why, whylen, "empty file name in '%s'", list);
			failed = 1;
			break;
		}
		failed = result_set_read(&d->files[d->n++], path, why, whylen) != 0;
	}
	if (failed || result_sets_alike(d->files, d->n, why, whylen))
		return -1;
	if (d->n == 1) {
		d->pooled = d->files[0];
		return 0;
	}
	if (result_set_pool(&d->pooled, d->files, d->n, list)) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	return 0;
}

/* Chunk results and replayed call mixes have no point in common: comparing them is a mistake. */
static bool same_kind(const struct side *a, const struct side *b, char *why, size_t whylen)
{
	struct result_kinds k = { 0 };
	char clash[400];

	if (!result_kinds_add(&k, &a->pooled, clash, sizeof(clash)) &&
	    !result_kinds_add(&k, &b->pooled, clash, sizeof(clash)))
		return true;
	snprintf(why, whylen, "%s: no point lines up", clash);
	return false;
}

/* The spread of the repeats: half their range, in percent of the median. */
static double half_range(const struct summary *s)
{
	return (s->max - s->min) / 2 / s->median * 100;
}

/*
 * A regression past the threshold: B's speeds tested against A's scaled by
 * floor, so that "significantly below 1 - PCT/100" is what is tested, not
 * merely "significantly different, and below".
 */
static bool regressed(double *sa, size_t na, const double *sb, size_t nb, double floor,
		      const struct compare_verdict *v)
{
	struct mann_whitney shifted;

	if (!(v->b.median < floor * v->a.median))
		return false;
	for (size_t i = 0; i < na; i++)
		sa[i] *= floor;
	mann_whitney(sb, nb, sa, na, &shifted);
	return shifted.p < COMPARE_ALPHA;
}

/* Both sides pooled from several runs: the runs, not their repeats, are the samples tested. */
static bool by_runs(const struct result_row *a, const struct result_row *b)
{
	return a->n_runs > 1 && b->n_runs > 1;
}

void compare_judge(const struct result_row *a, const struct result_row *b, double floor,
		   struct compare_verdict *v)
{
	size_t na = by_runs(a, b) ? a->n_runs : a->n_samples;
	size_t nb = by_runs(a, b) ? b->n_runs : b->n_samples;
	double *sa = xcalloc(a->n_samples + b->n_samples, sizeof(double), "the comparison");
	double *sb = sa + a->n_samples;

	row_speeds(a, sa);
	row_speeds(b, sb);
	row_speed_summary(a, &v->a);
	row_speed_summary(b, &v->b);
	v->ratio = v->b.median / v->a.median;
	if (by_runs(a, b)) {
		memcpy(sa, a->run_speeds, na * sizeof(double));
		memcpy(sb, b->run_speeds, nb * sizeof(double));
	}
	mann_whitney(sb, nb, sa, na, &v->test);
	v->significant = v->test.p < COMPARE_ALPHA;
	v->direction = !v->significant ? 0 : 2 * v->test.u > (double)na * (double)nb ? 1 : -1;
	v->regression = floor < 1 && regressed(sa, na, sb, nb, floor, v);
	free(sa);
}

/*
 * Replays of one mix compare only their own call lists: another seed draws
 * other calls, and another number of calls per measurement times them
 * otherwise.  One line says so when the sides' lists differ.
 */
static void call_lists_note(const struct result_set *a, const struct result_set *b)
{
	size_t other_calls = 0;
	char seeds[96] = "";

	for (size_t i = 0; i < a->n; i++) {
		const struct result_row *rb = result_set_find(b, &a->rows[i]);

		other_calls += rb && rb->calls != a->rows[i].calls;
	}
	if (a->seeds_vary || b->seeds_vary)
		snprintf(seeds, sizeof(seeds), "seeds vary within %s",
			 !b->seeds_vary ? "A" : !a->seeds_vary ? "B" : "A and B");
	else if (a->seed != b->seed)
		snprintf(seeds, sizeof(seeds), "seed %llu in A, %llu in B",
			 (unsigned long long)a->seed, (unsigned long long)b->seed);
	if (!*seeds && !other_calls)
		return;
	printf("note: A and B replayed different call lists (%s%s", seeds,
	       *seeds && other_calls ? "; " : "");
	if (other_calls)
		printf("other calls per measurement at %zu point%s", other_calls,
		       other_calls == 1 ? "" : "s");
	printf("), so their difference is partly the lists'\n");
}

/* True when some point of s was measured on more than one thread (-j). */
static bool threaded(const struct result_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->rows[i].threads > 1)
			return true;
	return false;
}

/*
 * The columns that name a point: routine, space, its chunk or its distribution
 * and working set, and its threads when some point had several.
 */
static void key_columns(const struct result_row *r, bool threads)
{
	printf("%-18s %-6s ", r->routine, r->space);
	if (row_is_replay(r))
		printf("%-16s %-11s", r->distribution, r->working_set_name);
	else
		printf("%9llu", (unsigned long long)r->chunk);
	if (threads)
		printf(" %7u", r->threads);
}

/*
 * Prints the comparison; returns, with a threshold, how many points fail it:
 * regressed past it or FAILED in B, or 1 when no point was compared.
 */
static size_t compare_sets(const struct result_set *a, const struct result_set *b,
			   double threshold)
{
	struct routine_ratios *groups = xcalloc(a->n + 1, sizeof(*groups), "the comparison");
	size_t n_groups = 0, regressions = 0, only_a = 0, only_b = 0, skipped = 0, approx = 0;
	size_t compared = 0, failed_b = 0;
	size_t on_repeats = 0; /* points of pooled sides that one run of a side lacked */
	double floor = 1 - threshold / 100;
	bool replay = result_set_is_replay(a) || result_set_is_replay(b);
	/* a program's runs are seconds long: seconds per run where a replay shows ns per call */
	bool program = result_set_is_program(a) && result_set_is_program(b);
	double unit = program ? 1 : 1e9;
	const char *per = program ? "run" : "call", *tested;
	bool threads = threaded(a) || threaded(b);

	describe("A", a);
	describe("B", b);
	if (a->total != b->total || !result_sets_same_walk(a, b))
		printf("note: A and B were measured with different options (cache, total, buffer or "
		       "align), so their difference is partly the options'\n");
	if (replay) {
		call_lists_note(a, b);
		printf("time: median %s per %s of each point's repeats, +- half their range;\n"
		       "B/A: A's time over B's, a speed ratio; below 1: B is slower\n",
		       program ? "seconds" : "ns", per);
	} else {
		printf("speed: median of each point's repeats, MB/s = 2^20 bytes/s, +- half their "
		       "range;\nB/A below 1: B is slower\n");
	}
	/* a time and its speed rank alike: the test is the same either way */
	if (a->runs > 1 && b->runs > 1)
		tested = !replay ? "speed (the runs are the samples)"
			 : program ? "time per run (the runs are the samples)"
				   : "time per call (the runs are the samples)";
	else
		tested = !replay ? "speeds within the run" : program ? "times per run" : "times per call within the run";
	printf("test: Mann-Whitney U, two-sided, on %s %s; '*' where p < %.2f\n\n",
	       a->runs > 1 && b->runs > 1 ? "each run's median" : "the repeats'", tested, COMPARE_ALPHA);
	if (a->runs > 1 && b->runs > 1 && mann_whitney_min_p(a->runs, b->runs) >= COMPARE_ALPHA)
		printf("note: %u runs against %u can never differ with p < %.2f; pool 4 or more a "
		       "side\n\n",
		       a->runs, b->runs, COMPARE_ALPHA);
	if (replay)
		printf("%-18s %-6s %-16s %-11s", "routine", "space", program ? "command" : "distribution",
		       program ? "" : "working set");
	else
		printf("%-18s %-6s %9s", "routine", "space", "chunk [B]");
	if (threads)
		printf(" %7s", "threads");
	printf(" %12s %6s %12s %6s %7s %8s\n", program ? "A s/run" : replay ? "A ns/call" : "A MB/s", "+-",
	       program ? "B s/run" : replay ? "B ns/call" : "B MB/s", "+-", "B/A", "p");
	for (size_t i = 0; i < a->n; i++) {
		const struct result_row *ra = &a->rows[i], *rb = result_set_find(b, ra);
		struct compare_verdict v;

		if (!rb) {
			only_a++;
			continue;
		}
		key_columns(ra, threads);
		if (!ra->verified || !rb->verified) {
			printf("  not compared: FAILED in %s\n", ra->verified ? "B" : "A");
			skipped++;
			failed_b += !rb->verified;
			continue;
		}
		compare_judge(ra, rb, floor, &v);
		on_repeats += a->runs > 1 && b->runs > 1 && !by_runs(ra, rb);
		approx += !v.test.exact;
		compared++;
		/* a replay's speed is calls per second: shown as the time of one call */
		printf(" %12.*f %5.1f%% %12.*f %5.1f%% %7.3f %8.4f%s%s\n", program ? 4 : replay ? 2 : 1,
		       replay ? unit / v.a.median : v.a.median / BYTES_PER_MB, half_range(&v.a),
		       program ? 4 : replay ? 2 : 1, replay ? unit / v.b.median : v.b.median / BYTES_PER_MB,
		       half_range(&v.b), v.ratio, v.test.p, v.significant ? " *" : "",
		       v.regression ? " regression" : "");
		ratio_add(groups, &n_groups, ra, v.ratio);
		regressions += v.regression;
	}
	printf("\np-values: exact for %zu points; normal approximation with tie correction for %zu "
	       "(more than %d samples, or ties among more than 10 a side)\n",
	       compared - approx, approx, MANN_WHITNEY_EXACT_MAX);
	for (size_t i = 0; i < b->n; i++)
		only_b += !result_set_find(a, &b->rows[i]);
	if (only_a || only_b)
		printf("points only in A: %zu, only in B: %zu (not compared)\n", only_a, only_b);
	if (skipped)
		printf("points FAILED in A or B: %zu (not compared)\n", skipped);
	if (on_repeats)
		printf("points in only one run of a side: %zu (tested on that run's repeats)\n",
		       on_repeats);
	printf("\ngeometric mean of B/A per routine:\n");
	for (size_t i = 0; i < n_groups; i++) {
		printf("%-18s %-6s %7.3f  over %zu %s\n", groups[i].first->routine,
		       groups[i].first->space, geometric_mean(groups[i].ratios, groups[i].n),
		       groups[i].n, replay ? (threads ? "distributions, working sets and threads"
						      : "distributions and working sets")
					   : (threads ? "chunk sizes and threads" : "chunk sizes"));
		free(groups[i].ratios);
	}
	if (!n_groups)
		printf("(no point measured in both)\n");
	free(groups);
	if (threshold <= 0)
		return 0;
	printf("\nthreshold %g%%: %zu point%s significantly below B/A = %.3f (B's speeds "
	       "against %.3f x A's, Mann-Whitney U)\n",
	       threshold, regressions, regressions == 1 ? "" : "s", floor, floor);
	/* a gate that nothing passed through, or that B's wrong copies got past, is not passed */
	if (failed_b)
		printf("threshold: %zu point%s FAILED in B\n", failed_b, failed_b == 1 ? "" : "s");
	if (!compared)
		printf("threshold: no point compared\n");
	return regressions + failed_b + !compared;
}

int compare_files(const char *a_list, const char *b_list, double threshold, char *why,
		  size_t whylen)
{
	struct side a = { 0 }, b = { 0 };
	int status = -1;

	if (!side_read(&a, a_list, why, whylen) && !side_read(&b, b_list, why, whylen) &&
	    same_kind(&a, &b, why, whylen))
		status = compare_sets(&a.pooled, &b.pooled, threshold) ? 1 : 0;
	side_free(&a);
	side_free(&b);
	return status;
}
