/* SPDX-License-Identifier: MIT */
/*
 * The report (copybench.h): each row pooled over the processes (the median
 * of their ratios, the A/A control's, the rank test of one against the
 * other), each table's verdicts against its targets, and the summary.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "all_cpus.h"
#include "bench_design.h"
#include "copybench.h"
#include "measure/hardware/cache.h"
#include "measure/hardware/llc_probe.h"
#include "sizes.h"
#include "stats/mann_whitney.h"

struct pooled {
	struct summary gbs[2]; /* GB/s of each contender (dist: ns per call): median [min, max] */
	struct summary ratio;  /* over the processes, the C library's time over copyperf's */
	struct summary control; /* the same for the C library against itself */
	struct summary bound;   /* the C library's time over reading both buffers (table's bound) */
	double p;            /* Mann-Whitney p of the ratios against the controls (1: one process) */
	int below;           /* below 1.00x (bench_row_below) */
};

/* Whether table t's measurements are a call's seconds (dist, repeat), not a sample's. */
static int per_call(unsigned t)
{
	return tables[t].mixes || tables[t].measure == measure_repeat;
}

static struct pooled pool_size(unsigned t, unsigned i)
{
	const struct table *tb = &tables[t];
	size_t size = tb->placed ? tb->placed->size(i) : tb->sizes[i];
	size_t bytes = per_call(t) ? 0 : tb->bytes ? tb->bytes / size * size : size;
	double r[MAX_PROCS], a[MAX_PROCS], o[MAX_PROCS], med[2][MAX_PROCS];
	struct mann_whitney mw = { 0, 1, true };
	struct pooled v;

	for (unsigned p = 0; p < procs; p++) {
		const struct result *res = &results[t][i][p];

		for (unsigned c = 0; c < 2; c++)
			med[c][p] = res->s[c].median;
		r[p] = res->s[0].median / res->s[1].median;
		a[p] = res->s[0].median / res->s[CONTROL].median;
		o[p] = tb->bound ? res->s[0].median / res->s[BOUND].median : 0;
	}
	for (unsigned c = 0; c < 2; c++) {
		struct summary sec = procs == 1 ? results[t][i][0].s[c] : stats_of(med[c], procs);

		if (per_call(t))
			v.gbs[c] = (struct summary){ .median = sec.median * 1e9, .min = sec.min * 1e9,
						     .max = sec.max * 1e9 };
		else
			v.gbs[c] = (struct summary){ .median = bytes / sec.median / 1e9,
						     .min = bytes / sec.max / 1e9,
						     .max = bytes / sec.min / 1e9 };
	}
	v.ratio = stats_of(r, procs);
	v.control = stats_of(a, procs);
	v.bound = stats_of(o, procs);
	if (procs > 1)
		mann_whitney(r, procs, a, procs, &mw);
	v.p = mw.p;
	/* a ratio that is no number (a time of 0) meets nothing */
	if (!isfinite(v.ratio.median) || !(v.ratio.median > 0))
		v.ratio.median = 0;
	v.below = bench_row_below(v.ratio.median, v.control.median);
	return v;
}

/* Row i of table t as the report names it: its size, its mix and working set, or its placement. */
static const char *row_label(unsigned t, unsigned i)
{
	static char label[40];

	if (tables[t].mixes)
		return mixes[t].labels[i];
	if (tables[t].placed)
		snprintf(label, sizeof(label), "%zu B %s", tables[t].placed->size(i), tables[t].placed->placement(i));
	else
		snprintf(label, sizeof(label), "%zu", tables[t].sizes[i]);
	return label;
}

/* The width of table t's first column. */
static int label_width(unsigned t)
{
	return tables[t].mixes ? 22 : tables[t].placed ? 18 : 10;
}

/* Prints one table over its sizes; returns each size's pooled figures in out[]. */
static void report_table(unsigned t, struct pooled *out)
{
	const struct table *tb = &tables[t];
	const struct contender *who = contenders_of(t);
	const char *unit = per_call(t) ? "ns per call" : "GB/s = 1e9 B/s";
	int width = label_width(t);

	for (unsigned i = 0; i < n_rows(t); i++)
		out[i] = pool_size(t, i);
	printf("\n%s\n", tb->title);
	if (procs == 1)
		printf("(%u rounds, interleaved; %s, median [min-max] of the rounds;\n"
		       " ratio: the C library's time over copyperf's; control: over its own, an A/A test;\n"
		       " below: ratio under %.3f and under the control's, or the control under %.2f)\n",
		       rounds_of(tb), unit, BENCH_BELOW, BENCH_CONTROL_FLOOR);
	else
		printf("(%u processes x %u rounds, interleaved; %s: median [min-max] of the\n"
		       " processes' medians; ratio: the C library's time over copyperf's, median [min-max]\n"
		       " of the processes' ratios; control: the C library over its own, an A/A test;\n"
		       " p: Mann-Whitney, ratios against controls; below: ratio median under %.3f\n"
		       " and under the control's median, or the control's under %.2f)\n",
		       procs, rounds_of(tb), unit, BENCH_BELOW, BENCH_CONTROL_FLOOR);
	if (control_arg)
		printf(" -C: the control here is instead the C library's time over %s's (not A/A);\n"
		       " ratio over control: %s against it\n",
		       who[CONTROL].name, who[1].name);
	if (tb->bound)
		printf(" bound: the C library's time over that of reading both buffers (no store),\n"
		       " the most a copy with ordinary stores could gain: it reads its source and\n"
		       " must read each destination line before writing it\n");
	printf("%*s  %26s  %26s  %7s  %13s  %7s  %5s%s\n", width,
	       tb->mixes ? "mix" : tb->placed ? "size, placement" : "size",
	       who[0].name, who[1].name, "ratio", "[min  -  max]", "control", "p",
	       tb->bound ? "    bound" : "");
	for (unsigned i = 0; i < n_rows(t); i++) {
		const struct pooled *v = &out[i];

		printf("%*s", width, row_label(t, i));
		for (unsigned c = 0; c < 2; c++)
			printf("  %8.2f [%7.2f-%7.2f]", v->gbs[c].median, v->gbs[c].min, v->gbs[c].max);
		printf("  %6.3fx  [%.3f-%.3f]  %6.3fx  %.3f", v->ratio.median, v->ratio.min, v->ratio.max,
		       v->control.median, v->p);
		if (tb->bound)
			printf("  %6.3fx", v->bound.median);
		printf("%s\n", v->below ? "  below" : "");
	}
}

/* What the closing summary says of a table: its report fills it. */
struct judgement {
	int judged;
	unsigned rows, below;
	double gm, worst;
	char worst_row[40];
	char targets[300];  /* every target, "; " between them */
	char missed[300];   /* those not met */
};
static struct judgement judgements[MAX_TABLES];

/* Table t's name in its verdicts and the summary: its case, and which mixes (and -w's). */
static const char *table_name(unsigned t)
{
	static char name[64];
	const struct table *tb = &tables[t];
	const char *given = llc_arg && tb->mixes && !strcmp(tb->wsets[0], "llc") ? llc_arg : NULL;

	if (!tb->mixes) {
		snprintf(name, sizeof(name), "%s%s", tb->cases, move_everywhere ? " memmove" : "");
		return name;
	}
	snprintf(name, sizeof(name), "%s%s%s %s", tb->cases, given ? " " : "", given ? given : "",
		 mixes[t].move ? "memmove" : "memcpy");
	return name;
}

static void add_text(char *to, size_t len, const char *text)
{
	size_t used = strlen(to);

	snprintf(to + used, len - used, "%s%s", used ? "; " : "", text);
}

/*
 * One target of table t, printed with its verdict ("met", "NOT MET"; with -C
 * nothing is judged) and the figure it was judged on, and kept for the summary.
 */
static int verdict(unsigned t, const char *target, double got, int ok)
{
	struct judgement *j = &judgements[t];
	char line[160];

	snprintf(line, sizeof(line), "%s: %s", table_name(t), target);
	if (got > 0)
		snprintf(line + strlen(line), sizeof(line) - strlen(line), " (%.3fx)", got);
	printf("  %-66s %s\n", line, control_arg ? "not judged (-C)" : ok ? "met" : "NOT MET");
	add_text(j->targets, sizeof(j->targets), target);
	if (!ok && !control_arg)
		add_text(j->missed, sizeof(j->missed), target);
	return ok || control_arg;
}

/*
 * Table t's rows over all: their geometric mean, the lowest, and the verdict
 * every table has, no row below 1.00x (bench_row_below: a tie with the A/A
 * control passes). Returns that verdict.
 */
static int judge_rows(unsigned t, const struct pooled *v)
{
	struct judgement *j = &judgements[t];
	double ratios[MAX_SIZES] = { 0 };
	unsigned low = 0;

	j->judged = 1;
	j->rows = n_rows(t);
	for (unsigned i = 0; i < j->rows; i++) {
		ratios[i] = v[i].ratio.median;
		j->below += (unsigned)v[i].below;
		if (v[i].ratio.median < v[low].ratio.median)
			low = i;
	}
	j->gm = geometric_mean(ratios, j->rows);
	j->worst = v[low].ratio.median;
	snprintf(j->worst_row, sizeof(j->worst_row), "%s", row_label(t, low));
	printf("%10s  geometric mean of the ratios %.3fx; lowest %.3fx (%s); rows below 1.00x: %u\n",
	       "", j->gm, j->worst, j->worst_row, j->below);
	return verdict(t, "none below 1.00x", 0, j->below == 0);
}

/*
 * Beside a dist-llc table's rows: whether the last level held its set while
 * they ran (set_reads), the median over the processes and their range.
 */
static void report_set_reads(unsigned t)
{
	double r[MAX_PROCS];
	unsigned n = 0;
	char set[32], ref[32];
	struct summary s;

	for (unsigned p = 0; p < procs; p++)
		if (set_reads[t][p] > 0)
			r[n++] = set_reads[t][p];
	format_size(mixes[t].ws[0], set, sizeof(set));
	format_size(2 * cache_data_size(2), ref, sizeof(ref));
	if (!n) {
		printf("%10s  the set, %s, right after its rows: not read (no L2 size known, or no memory)\n",
		       "", set);
		return;
	}
	s = stats_of(r, n);
	printf("%10s  the set, %s, right after its rows: a random read %.1fx one of %s [%.1f-%.1f]\n"
	       "%10s  (median of the processes): %s (held: within %.0fx, the last level probe's rule)\n",
	       "", set, s.median, ref, s.min, s.max, "",
	       llc_reads_hold(s.median, 1) ? "held in the last level" : "not held, partly from memory",
	       LLC_HOLDS_RATIO);
}

/* Every row at least 1.00x, and the geometric mean at least the table's target, if it has one. */
int report_rows(unsigned t)
{
	struct pooled v[MAX_SIZES];
	int ok;
	char what[80];

	report_table(t, v);
	if (measures_llc(t))
		report_set_reads(t);
	ok = judge_rows(t, v);
	if (tables[t].gm_target > 0) {
		snprintf(what, sizeof(what), "geometric mean >= %.2fx", tables[t].gm_target);
		ok &= verdict(t, what, judgements[t].gm, judgements[t].gm >= tables[t].gm_target);
	}
	return ok;
}

int report_l1(unsigned t)
{
	struct pooled v[MAX_SIZES];
	int ok;

	report_table(t, v);
	ok = judge_rows(t, v);
	return ok & verdict(t, "2113 B >= 1.30x", v[0].ratio.median, v[0].ratio.median >= 1.30);
}

/* The sizes where the C library leaves speed behind: there a gain of at least 1.25x. */
static int report_at_least(unsigned t, const struct pooled *v)
{
	int ok = 1;

	for (unsigned i = 0; i < tables[t].n_sizes; i++) {
		size_t mib = tables[t].sizes[i] >> 20;
		char what[80];

		if (mib != 64 && mib != 128)
			continue;
		snprintf(what, sizeof(what), "%zu MiB >= 1.25x", mib);
		ok &= verdict(t, what, v[i].ratio.median, v[i].ratio.median >= 1.25);
	}
	return ok;
}

int report_large(unsigned t)
{
	struct pooled v[MAX_SIZES];
	int ok;

	report_table(t, v);
	ok = judge_rows(t, v);
	return ok & report_at_least(t, v);
}

/*
 * Every CPU copying: no loss anywhere, and at 64 and 128 MiB the gain that
 * non-temporal stores give where each core's own memory traffic is the limit:
 * ordinary stores move three bytes of memory traffic per byte copied,
 * non-temporal ones two.
 */
int report_threads(unsigned t)
{
	struct pooled v[MAX_SIZES];
	int ok;

	report_table(t, v);
	printf("%10s  every CPU copying: %u CPUs\n", "", all_cpus_online());
	ok = judge_rows(t, v);
	return ok & report_at_least(t, v);
}

/* The geometric mean and the lowest ratio of the rows of one working set (k) of table t. */
static double mix_summary(unsigned t, const struct pooled *v, unsigned k, double *lowest)
{
	unsigned n = mixes[t].n_dists, step = mixes[t].n_ws;
	double ratios[MAX_SIZES] = { 0 };

	*lowest = v[k].ratio.median;
	for (unsigned d = 0; d < n; d++) {
		ratios[d] = v[d * step + k].ratio.median;
		if (ratios[d] < *lowest)
			*lowest = ratios[d];
	}
	return geometric_mean(ratios, n);
}

/* memcpy's mixes: >= 1.50x in geometric mean, none below 1.10x; memmove's 1.40x and 1.05x. */
int report_dist(unsigned t)
{
	struct pooled v[MAX_SIZES];
	double want_gm = mixes[t].move ? 1.40 : 1.50, want_low = mixes[t].move ? 1.05 : 1.10;
	int ok;

	report_table(t, v);
	ok = judge_rows(t, v);
	for (unsigned k = 0; k < mixes[t].n_ws; k++) {
		char what[100];
		double low, gm = mix_summary(t, v, k, &low);

		snprintf(what, sizeof(what), "%s geometric mean >= %.2fx", tables[t].wsets[k], want_gm);
		ok &= verdict(t, what, gm, gm >= want_gm);
		snprintf(what, sizeof(what), "%s lowest >= %.2fx", tables[t].wsets[k], want_low);
		ok &= verdict(t, what, low, low >= want_low);
	}
	return ok;
}

/* The closing summary: one line a table measured, its worst row, geometric mean and verdict. */
void report_summary(const int *want)
{
	printf("\nsummary: every table's rows and targets (worst row: its median ratio over the processes;\n"
	       " a row is below 1.00x under %.3f unless the A/A control is as low)\n",
	       BENCH_BELOW);
	printf("%-22s %4s  %-22s %7s  %7s  %-9s  %s\n", "table", "rows", "worst row", "ratio", "gm",
	       "verdict", "targets");
	for (unsigned t = 0; t < n_tables; t++) {
		const struct judgement *j = &judgements[t];

		if (!want[t] || !j->judged)
			continue;
		printf("%-22s %4u  %-22s %6.3fx  %6.3fx  %-9s  %s\n", table_name(t), j->rows, j->worst_row,
		       j->worst, j->gm, control_arg ? "not judged" : j->missed[0] ? "NOT MET" : "met",
		       j->targets);
		if (j->missed[0] && !control_arg)
			printf("%-22s %4s  %-22s %7s  %7s  %-9s  not met: %s\n", "", "", "", "", "", "",
			       j->missed);
	}
}
