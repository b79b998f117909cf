/* SPDX-License-Identifier: MIT */
/* The JSON results' columns, one row per point; samples joined by ';'; a replay adds its seed. */
#include <stdlib.h>
#include <string.h>
#include "csv_field.h"
#include "output.h"
#include "xalloc.h"

/*
 * Mean counts per measurement, then cycles/byte and bytes/cycle (and cycles/call
 * of a replay point); empty where not counted or the point FAILED, as in the JSON.
 */
static void counter_fields(FILE *f, const struct point_result *p, bool replay)
{
	double cpb = p->verified ? cycles_per_byte(p) : 0;

	for (int e = 0; e < N_COUNTERS; e++) {
		/* none for a FAILED point: its counts are of copies that were wrong */
		double v = p->verified ? counter_mean(&p->counters, (enum counter_event)e) : -1;

		if (v >= 0)
			fprintf(f, ",%.0f", v);
		else
			fputc(',', f);
	}
	if (cpb > 0)
		fprintf(f, ",%.6g,%.6g", cpb, 1 / cpb);
	else
		fputs(",,", f);
	if (replay && p->verified && cycles_per_call(p) > 0)
		fprintf(f, ",%.6g", cycles_per_call(p));
	else if (replay)
		fputc(',', f);
}

/* -j: the threads, their CPUs and speeds (per thread joined by ';'); empty speeds when FAILED. */
static void thread_fields(FILE *f, const struct point_result *p, const int *cpus)
{
	double *speeds = xcalloc(p->threads + 1, sizeof(*speeds), "the threads' speeds");
	double slowest, fastest;

	fprintf(f, ",%u,", p->threads);
	for (unsigned t = 0; t < p->threads; t++)
		fprintf(f, "%s%d", t ? ";" : "", cpus[t]);
	if (p->verified) {
		point_thread_speeds(p, speeds, &slowest, &fastest);
		fprintf(f, ",%.9g,%.9g,", slowest, fastest);
		for (unsigned t = 0; t < p->threads; t++)
			fprintf(f, "%s%.9g", t ? ";" : "", speeds[t]);
	} else {
		fputs(",,,", f);
	}
	free(speeds);
}

static void header(FILE *f, bool replay, bool counters, bool threaded)
{
	fputs("routine,space,", f);
	fputs(replay ? "distribution,working_set,working_set_name,calls,mean_size" : "chunk", f);
	fputs(",total,repeats,seconds_median,seconds_min,seconds_max,", f);
	if (replay)
		fputs("ns_per_call_median,ns_per_call_min,ns_per_call_max,", f);
	fputs("bytes_per_s_median,bytes_per_s_min,bytes_per_s_max,verified,samples,error", f);
	/*
	 * every row of a replay carries the seed that draws its call lists, and
	 * whether they were chained and tested
	 */
	if (replay)
		fputs(",seed,chained,tested", f);
	if (counters) {
		for (int e = 0; e < N_COUNTERS; e++)
			fprintf(f, ",%s", counter_name((enum counter_event)e));
		fputs(",cycles_per_byte,bytes_per_cycle", f);
		if (replay)
			fputs(",cycles_per_call", f);
	}
	if (threaded)
		fputs(",threads,cpus,slowest_thread_bytes_per_s,fastest_thread_bytes_per_s,"
		      "thread_bytes_per_s", f);
	fputc('\n', f);
}

/* The fields that name a point, up to its repeats: its chunk, or its mix and working set. */
static void key_fields(FILE *f, const struct point_result *p, bool replay)
{
	csv_field(f, p->routine);
	fprintf(f, ",%s,", p->space);
	if (replay) {
		csv_field(f, p->distribution);
		fprintf(f, ",%llu,", (unsigned long long)p->working_set);
		csv_field(f, p->working_set_name);
		fprintf(f, ",%llu,%.9g", (unsigned long long)p->calls, point_mean_size(p));
	} else {
		fprintf(f, "%llu", (unsigned long long)p->chunk);
	}
	fprintf(f, ",%llu,%u,", (unsigned long long)p->total, p->repeats);
}

/* A median, min and max, each followed by a comma; empty for a point never given a speed. */
static void triple(FILE *f, bool verified, double median, double min, double max)
{
	if (verified)
		fprintf(f, "%.9g,%.9g,%.9g,", median, min, max);
	else
		fputs(",,,", f);
}

void output_csv(FILE *f, const struct report *r)
{
	bool counters = report_has_counters(r), replay = report_is_replay(r);

	header(f, replay, counters, report_is_threaded(r));
	for (size_t i = 0; i < r->n; i++) {
		const struct point_result *p = &r->results[i];
		const struct summary *t = &p->seconds;

		key_fields(f, p, replay);
		triple(f, p->verified, t->median, t->min, t->max);
		if (replay)
			triple(f, p->verified, point_ns_per_call(p, t->median),
			       point_ns_per_call(p, t->min), point_ns_per_call(p, t->max));
		triple(f, p->verified, rate(p, t->median), rate(p, t->max), rate(p, t->min));
		fputs(p->verified ? "true," : "false,", f);
		for (unsigned k = 0; p->verified && k < p->repeats; k++)
			fprintf(f, "%s%.9g", k ? ";" : "", p->samples[k]);
		fputc(',', f);
		if (!p->verified)
			csv_field(f, p->error);
		if (replay)
			fprintf(f, ",%llu,%s,%s", (unsigned long long)r->o->seed,
				p->chained ? "true" : "false", p->tested ? "true" : "false");
		if (counters)
			counter_fields(f, p, replay);
		if (report_is_threaded(r))
			thread_fields(f, p, r->cpus);
		fputc('\n', f);
	}
}
