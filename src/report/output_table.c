/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include "compare.h"
#include "measure/placement/numa.h"
#include "output.h"
#include "reference.h"
#include "sizes.h"
#include "stats/mann_whitney.h"
#include "stats/stats.h"
#include "xalloc.h"

static const char *space(const struct report *r)
{
	return r->results && r->n ? r->results[0].space : "user";
}

/* The machine, and with -j, --pages or --numa the threads' CPUs and the buffers' pages. */
static void machine_line(FILE *f, const struct report *r)
{
	const struct machine_info *m = r->m;
	const struct options *o = r->o;
	char line[400];

	fprintf(f, "%s, %s, %s, %s\n", m->cpu, m->kernel, m->libc, m->compiler);
	if (report_is_threaded(r)) {
		report_describe_threads(r, line, sizeof(line));
		fprintf(f, "%s\n", line);
	}
	if (r->pages && (o->pages || o->numa)) {
		page_usage_describe(r->pages, line, sizeof(line));
		fprintf(f, "buffers: %s (asked: --pages %s", line, page_mode_name(o->pages));
		if (o->numa) {
			char where[32];

			numa_policy_name(o->numa, o->numa_node, where, sizeof(where));
			fprintf(f, ", --numa %s", where);
		}
		fputs(")\n", f);
	}
}

/* With -j, what the aggregate and the per-thread columns are. */
static void threads_note(FILE *f, const struct report *r, bool replay)
{
	if (!report_is_threaded(r))
		return;
	fputs("threads: the aggregate, all threads' bytes over the time from the first one's "
	      "start to the last one's end;\nslowest, fastest: one thread's own MB/s (the "
	      "median of its measurements)\n", f);
	if (replay) /* an aggregate per call reads as a latency N times too short */
		fputs("with threads, ns/call is the aggregate's time over all threads' calls: one "
		      "thread's own call\ntakes about as many times longer as there are threads\n",
		      f);
}

/* The -j columns' heads, after the point's key and at the end, before "verified". */
static void thread_heads(FILE *f, bool threaded, bool at_end)
{
	if (threaded && !at_end)
		fprintf(f, " %7s", "threads");
	else if (threaded)
		fprintf(f, " %12s %12s", "slowest", "fastest");
}

static void thread_columns(FILE *f, const struct point_result *p)
{
	double *speeds = xcalloc(p->threads + 1, sizeof(*speeds), "the threads' speeds");
	double slowest, fastest;

	point_thread_speeds(p, speeds, &slowest, &fastest);
	fprintf(f, " %12.1f %12.1f", slowest / BYTES_PER_MB, fastest / BYTES_PER_MB);
	free(speeds);
}

/* The name columns: as wide as the longest name in them, so that the rows stay aligned. */
struct widths {
	int routine, distribution;
};

static struct widths name_widths(const struct report *r)
{
	struct widths w = { 18, 16 };

	for (size_t i = 0; i < r->n; i++) {
		const struct point_result *p = &r->results[i];
		int n = (int)strlen(p->routine);

		w.routine = n > w.routine ? n : w.routine;
		n = p->distribution ? (int)strlen(p->distribution) : 0;
		w.distribution = n > w.distribution ? n : w.distribution;
	}
	return w;
}

/* Whether some point copies less than --total: the largest multiple of its chunk below it. */
static bool totals_rounded(const struct report *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->results[i].total != r->o->total * point_threads(&r->results[i]))
			return true;
	return false;
}

static bool in_kernel(const struct report *r)
{
	return !strcmp(space(r), "kernel");
}

/*
 * The column that reads each routine against the C library's (reference.h),
 * where the run measured memcpy or memmove beside it: the ratio, and a star
 * where the rank test says the two differ; its note, its head, its cells.
 */
static void reading_note(FILE *f, const struct report *r, const struct readings *rd)
{
	if (!rd->any)
		return;
	if (in_kernel(r))
		fputs("vs memcpy: the routine's speed over the kernel's memcpy's at the same point "
		      "(medians),\nabove 1 faster; *: the two differ by the Mann-Whitney test on "
		      "their measurements\n", f);
	else
		fputs("vs libc: the routine's speed over memcpy's at the same point (memmove's for a "
		      "routine that\ntakes overlapping buffers; medians), above 1 faster; *: the two "
		      "differ by the Mann-Whitney\ntest on their measurements ", f);
	fprintf(f, "(p < %g, each row alone)\n", COMPARE_ALPHA);
	if (mann_whitney_min_p(r->o->repeat, r->o->repeat) >= COMPARE_ALPHA)
		fprintf(f, "(%u measurements a point are too few for any difference to pass that "
			   "test: -n 4 or more)\n", r->o->repeat);
}

static void reading_head(FILE *f, const struct report *r, const struct readings *rd)
{
	if (rd->any)
		fprintf(f, " %9s", in_kernel(r) ? "vs memcpy" : "vs libc");
}

static void reading_column(FILE *f, const struct readings *rd, size_t i)
{
	const struct point_reading *reading = &rd->at[i];

	if (!rd->any)
		return;
	if (reading->reference)
		fprintf(f, " %7.3fx%c", reading->ratio, reading->verdict ? '*' : ' ');
	else
		fprintf(f, " %9s", "-");
}

static void header(FILE *f, const struct report *r, const struct widths *w,
		   const struct readings *rd)
{
	const struct options *o = r->o;
	char total[32], buffer[32];

	format_size(o->total, total, sizeof(total));
	format_size(o->buffer, buffer, sizeof(buffer));
	fprintf(f, "copyperf %s: %s space, cache %s, %s%s per point, two %s buffers, "
		"align %llu:%llu\n",
		COPYPERF_VERSION, space(r), cache_mode_name(o->cache),
		totals_rounded(r) ? "whole chunks up to " : "", total, buffer,
		(unsigned long long)o->align_src, (unsigned long long)o->align_dst);
	machine_line(f, r);
	fprintf(f, "MB/s: 2^20 bytes per second; median [min, max] of %u measurements\n",
		o->repeat);
	threads_note(f, r, false);
	reading_note(f, r, rd);
	fputc('\n', f);
	fprintf(f, "%-*s %9s", w->routine, "routine", "chunk [B]");
	thread_heads(f, report_is_threaded(r), false);
	fprintf(f, " %12s %12s %12s %10s", "MB/s median", "MB/s min", "MB/s max", "time [s]");
	thread_heads(f, report_is_threaded(r), true);
	reading_head(f, r, rd);
	fprintf(f, "  %s%s\n", "verified", report_has_counters(r) ? "     cyc/B    B/cyc" : "");
}

/*
 * A replay's header: the seed, so that the same call lists can be drawn again,
 * and what a time per call is, since each measurement makes many calls.
 */
static void replay_header(FILE *f, const struct report *r, const struct widths *w,
			  const struct readings *rd)
{
	fprintf(f, "copyperf %s: %s space, recorded call mixes replayed, seed %llu%s%s\n",
		COPYPERF_VERSION, space(r), (unsigned long long)r->o->seed,
		r->o->chained ? ", each call waiting for the one before (--chain)" : "",
		r->o->tested ? ", each after the caller's tests of its size (--tested)" : "");
	machine_line(f, r);
	if (r->m->llc_used) {
		char line[400];

		llc_probe_describe(&r->m->llc, line, sizeof(line));
		fprintf(f, "%s\n", line);
	}
	fprintf(f, "ns/call: a measurement's time over its calls; median [min, max] of %u "
		   "measurements;\nMB/s: 2^20 bytes per second at the median\n",
		r->o->repeat);
	threads_note(f, r, true);
	reading_note(f, r, rd);
	fputc('\n', f);
	fprintf(f, "%-*s %-*s %-11s %10s", w->routine, "routine", w->distribution, "distribution",
		"working set", "[B]");
	thread_heads(f, report_is_threaded(r), false);
	fprintf(f, " %8s %13s %14s %9s %9s %12s", "calls", "mean size [B]", "ns/call median", "min",
		"max", "MB/s median");
	thread_heads(f, report_is_threaded(r), true);
	reading_head(f, r, rd);
	fprintf(f, "  %s%s\n", "verified", report_has_counters(r) ? "   cyc/call" : "");
}

/* Cycles per byte and bytes per cycle, or dashes where cycles were not counted. */
static void counter_columns(FILE *f, const struct point_result *p)
{
	double cpb = cycles_per_byte(p);

	if (cpb > 0)
		fprintf(f, "  %10.3f %8.2f", cpb, 1 / cpb);
	else
		fprintf(f, "  %10s %8s", "-", "-");
}

static void chunk_row(FILE *f, const struct readings *rd, size_t i, const struct point_result *p,
		      const struct widths *w, bool counters)
{
	fprintf(f, "%-*s %9llu", w->routine, p->routine, (unsigned long long)p->chunk);
	if (p->threads)
		fprintf(f, " %7u", p->threads);
	if (!p->verified) {
		fprintf(f, "  FAILED: %s\n", p->error);
		return;
	}
	fprintf(f, " %12.1f %12.1f %12.1f %10.6f", rate(p, p->seconds.median) / BYTES_PER_MB,
		rate(p, p->seconds.max) / BYTES_PER_MB, rate(p, p->seconds.min) / BYTES_PER_MB,
		p->seconds.median);
	if (p->threads)
		thread_columns(f, p);
	reading_column(f, rd, i);
	fputs("  yes", f);
	if (counters)
		counter_columns(f, p);
	fputc('\n', f);
}

static void replay_row(FILE *f, const struct readings *rd, size_t i,
		       const struct point_result *p, const struct widths *w, bool counters)
{
	double cpc = cycles_per_call(p);

	fprintf(f, "%-*s %-*s %-11s %10llu", w->routine, p->routine, w->distribution,
		p->distribution, p->working_set_name, (unsigned long long)p->working_set);
	if (p->threads)
		fprintf(f, " %7u", p->threads);
	if (!p->verified) {
		fprintf(f, "  FAILED: %s\n", p->error);
		return;
	}
	fprintf(f, " %8llu %13.1f %14.2f %9.2f %9.2f %12.1f", (unsigned long long)p->calls,
		point_mean_size(p), point_ns_per_call(p, p->seconds.median),
		point_ns_per_call(p, p->seconds.min), point_ns_per_call(p, p->seconds.max),
		rate(p, p->seconds.median) / BYTES_PER_MB);
	if (p->threads)
		thread_columns(f, p);
	reading_column(f, rd, i);
	fputs("  yes", f);
	if (counters && cpc > 0)
		fprintf(f, "  %9.1f", cpc);
	else if (counters)
		fprintf(f, "  %9s", "-");
	fputc('\n', f);
}

/* Where a point lies, for the summary's list: its chunk or its mix and working set, its threads. */
static void point_label(char *buf, size_t len, const struct point_result *p)
{
	int n = p->distribution
			? snprintf(buf, len, "%s at %s", p->distribution, p->working_set_name)
			: snprintf(buf, len, "%llu B", (unsigned long long)p->chunk);

	if (p->threads && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " on %u thread%s", p->threads,
			 p->threads == 1 ? "" : "s");
}

/*
 * One line per routine read against the C library's: the geometric mean of
 * its ratios, how many points it was faster and slower at by the test, and
 * which were slower.
 */
static void routine_summary(FILE *f, const struct report *r, const struct readings *rd,
			    size_t first, size_t end, bool replay)
{
	double *ratios = xcalloc(end - first, sizeof(double), "the summary");
	size_t n = 0, faster = 0, slower = 0;
	char slow_at[400] = "", label[120];
	const char *unit = replay || report_is_threaded(r) ? "point" : "chunk";

	for (size_t i = first; i < end; i++) {
		const struct point_reading *reading = &rd->at[i];
		size_t len = strlen(slow_at);

		if (!reading->reference)
			continue;
		ratios[n++] = reading->ratio;
		faster += reading->verdict > 0;
		slower += reading->verdict < 0;
		if (reading->verdict >= 0)
			continue;
		point_label(label, sizeof(label), &r->results[i]);
		if (len + strlen(label) + 8 < sizeof(slow_at))
			snprintf(slow_at + len, sizeof(slow_at) - len, "%s%s", len ? ", " : "", label);
		else if (!strstr(slow_at, "..."))
			strcat(slow_at, ", ...");
	}
	if (n)
		fprintf(f, "%s against %s: geometric mean %.3fx over %zu %s%s; faster at %zu, "
			   "slower at %zu%s%s%s\n",
			r->results[first].routine, reference_name(&r->results[first]),
			geometric_mean(ratios, n), n, unit, n == 1 ? "" : "s", faster, slower,
			slower ? " (" : "", slow_at, slower ? ")" : "");
	free(ratios);
}

static void reading_summary(FILE *f, const struct report *r, const struct readings *rd,
			    bool replay)
{
	size_t first = 0;

	if (!rd->any)
		return;
	fputc('\n', f);
	for (size_t i = 1; i <= r->n; i++)
		if (i == r->n || r->results[i].routine != r->results[first].routine) {
			routine_summary(f, r, rd, first, i, replay);
			first = i;
		}
}

void output_table(FILE *f, const struct report *r)
{
	bool counters = report_has_counters(r), replay = report_is_replay(r);
	struct widths w = name_widths(r);
	struct readings rd;

	readings_make(&rd, r);
	(replay ? replay_header : header)(f, r, &w, &rd);
	for (size_t i = 0; i < r->n; i++) {
		const struct point_result *p = &r->results[i];

		if (i && p->routine != r->results[i - 1].routine)
			fputc('\n', f);
		(replay ? replay_row : chunk_row)(f, &rd, i, p, &w, counters);
	}
	reading_summary(f, r, &rd, replay);
	readings_free(&rd);
}
