/* SPDX-License-Identifier: MIT */
/* Machine-readable results, one object per run, for scripts and `copyperf compare`. */
#include <math.h>
#include <stdlib.h>
#include "measure/placement/numa.h"
#include "json_write.h"
#include "output.h"
#include "xalloc.h"


/* "key":[...] of n words (none when words is NULL). */
static void json_words(FILE *f, const char *key, char *const *words, size_t n)
{
	fprintf(f, "\"%s\":[", key);
	for (size_t i = 0; words && i < n; i++) {
		fputs(i ? "," : "", f);
		json_string(f, words[i]);
	}
	fputc(']', f);
}

/* What the buffers were asked to be on, and what the kernel gave them (see pages.h). */
static void pages(FILE *f, const struct report *r)
{
	const struct page_usage *u = r->pages;
	char numa[32];

	fprintf(f, ",\"pages\":{\"asked\":\"%s\"", page_mode_name(r->o->pages));
	if (u)
		fprintf(f, ",\"page_size\":%llu,\"bytes\":%llu,\"hugetlb_bytes\":%llu,"
			   "\"transparent_huge_bytes\":%llu",
			(unsigned long long)u->page_size, (unsigned long long)u->bytes,
			(unsigned long long)u->hugetlb_bytes, (unsigned long long)u->thp_bytes);
	if (u) { /* where the kernel put them: [] when it cannot tell */
		fputs(",\"nodes\":[", f);
		for (size_t i = 0, k = 0; i < MAX_NUMA_NODES; i++)
			if (u->node_bytes[i])
				fprintf(f, "%s{\"node\":%zu,\"bytes\":%llu}", k++ ? "," : "", i,
					(unsigned long long)u->node_bytes[i]);
		fputc(']', f);
	}
	fputs("},\"numa\":", f);
	numa_policy_name(r->o->numa, r->o->numa_node, numa, sizeof(numa));
	if (r->o->numa)
		json_string(f, numa);
	else
		fputs("null", f);
}

/* -j as given ("all" a word), and the threads' CPUs in the order they are taken. */
static void threads(FILE *f, const struct report *r)
{
	fputs(",\"threads\":[", f);
	for (size_t i = 0; i < r->o->n_threads; i++) {
		fputs(i ? "," : "", f);
		if (r->o->threads[i])
			fprintf(f, "%u", r->o->threads[i]);
		else
			fputs("\"all\"", f);
	}
	fputs("],\"thread_cpus\":", f);
	json_ints(f, r->cpus, r->n_cpus);
}

static void config(FILE *f, const struct report *r)
{
	const struct options *o = r->o;

	fputs("\"config\":{", f);
	json_words(f, "routines", o->routines, o->n_routines);
	if (o->distributions) {
		/* a replay has no chunk sweep: no sizes, buffers, flushes or offsets of one */
		fprintf(f, ",\"sizes\":null,\"total\":%llu,\"buffer\":null,\"cache\":null,"
			   "\"align\":null,", (unsigned long long)o->total);
	} else {
		fputs(",\"sizes\":[", f);
		for (size_t i = 0; i < o->n_sizes; i++)
			fprintf(f, "%s%llu", i ? "," : "", (unsigned long long)o->sizes[i]);
		fprintf(f, "],\"total\":%llu,\"buffer\":%llu,\"cache\":\"%s\",",
			(unsigned long long)o->total, (unsigned long long)o->buffer,
			cache_mode_name(o->cache));
		fprintf(f, "\"align\":{\"src\":%llu,\"dst\":%llu},", (unsigned long long)o->align_src,
			(unsigned long long)o->align_dst);
	}
	fprintf(f, "\"repeat\":%u,\"format\":\"%s\",", o->repeat, format_name(o->format));
	fputs("\"output\":", f);
	if (o->output)
		json_string(f, o->output);
	else
		fputs("null", f);
	fprintf(f, ",\"cpu\":%d,\"kernel\":%s,", o->cpu, o->kernel ? "true" : "false");
	/* the words as given, so that the seed and they repeat the run; none for a chunk sweep */
	fprintf(f, "\"seed\":%llu,", (unsigned long long)o->seed);
	json_words(f, "distributions", o->distributions, o->n_distributions);
	fputc(',', f);
	json_words(f, "working_sets", o->distributions ? o->working_sets : NULL, o->n_working_sets);
	threads(f, r);
	pages(f, r);
	fputc('}', f);
}

/* Mean counts per measurement (null where not counted), cycles/byte and bytes/cycle. */
static void counters(FILE *f, const struct point_result *p)
{
	double cpb = cycles_per_byte(p);

	fputs(",\"counters\":{", f);
	for (int e = 0; e < N_COUNTERS; e++) {
		double v = counter_mean(&p->counters, (enum counter_event)e);

		fprintf(f, "%s\"%s\":", e ? "," : "", counter_name((enum counter_event)e));
		json_number(f, v >= 0 ? v : NAN);
	}
	fputs(",\"cycles_per_byte\":", f);
	json_number(f, cpb > 0 ? cpb : NAN);
	fputs(",\"bytes_per_cycle\":", f);
	json_number(f, cpb > 0 ? 1 / cpb : NAN);
	if (p->distribution) {
		double cpc = cycles_per_call(p);

		fputs(",\"cycles_per_call\":", f);
		json_number(f, cpc > 0 ? cpc : NAN);
	}
	fputc('}', f);
}

/*
 * What names a point, up to its repeats: its chunk, or its distribution and
 * working set, bytes, layout and whether its calls were chained and tested.
 */
static void result_key(FILE *f, const struct point_result *p)
{
	fputs("{\"routine\":", f);
	json_string(f, p->routine);
	fprintf(f, ",\"space\":\"%s\",", p->space);
	if (p->distribution) {
		fputs("\"distribution\":", f);
		json_string(f, p->distribution);
		fprintf(f, ",\"working_set\":%llu,\"working_set_name\":",
			(unsigned long long)p->working_set);
		json_string(f, p->working_set_name);
		fprintf(f, ",\"layout\":\"%s\",\"chained\":%s,\"tested\":%s,\"calls\":%llu,"
			"\"mean_size\":", call_layout_name(p->layout), p->chained ? "true" : "false",
			p->tested ? "true" : "false", (unsigned long long)p->calls);
		json_number(f, point_mean_size(p));
		fputc(',', f);
	} else {
		fprintf(f, "\"chunk\":%llu,", (unsigned long long)p->chunk);
	}
	fprintf(f, "\"threads\":%u,\"total\":%llu,\"repeats\":%u,", point_threads(p),
		(unsigned long long)p->total, p->repeats);
}

/* Each thread's median speed, its samples, and the slowest and fastest thread's speed. */
static void thread_figures(FILE *f, const struct point_result *p, const int *cpus)
{
	double *speeds = xcalloc(p->threads + 1, sizeof(*speeds), "the threads' speeds");
	double slowest, fastest;

	point_thread_speeds(p, speeds, &slowest, &fastest);
	fputs(",\"cpus\":", f);
	json_ints(f, cpus, p->threads);
	fputs(",\"thread_bytes_per_s\":[", f);
	for (unsigned t = 0; t < p->threads; t++) {
		fputs(t ? "," : "", f);
		json_number(f, speeds[t]);
	}
	fputs("],\"slowest_thread_bytes_per_s\":", f);
	json_number(f, slowest);
	fputs(",\"fastest_thread_bytes_per_s\":", f);
	json_number(f, fastest);
	fputs(",\"thread_samples\":[", f);
	for (unsigned t = 0; t < p->threads; t++) {
		fputs(t ? ",[" : "[", f);
		for (unsigned k = 0; k < p->repeats; k++) {
			fputs(k ? "," : "", f);
			json_number(f, p->thread_samples[(size_t)k * p->threads + t]);
		}
		fputc(']', f);
	}
	fputc(']', f);
	free(speeds);
}

static void result(FILE *f, const struct point_result *p, const int *cpus)
{
	result_key(f, p);
	if (!p->verified) {
		fputs("\"verified\":false,\"error\":", f);
		json_string(f, p->error);
		fputc('}', f);
		return;
	}
	json_triple(f, "seconds", p->seconds.median, p->seconds.min, p->seconds.max);
	fputc(',', f);
	if (p->distribution) {
		json_triple(f, "ns_per_call", point_ns_per_call(p, p->seconds.median),
			    point_ns_per_call(p, p->seconds.min),
			    point_ns_per_call(p, p->seconds.max));
		fputc(',', f);
	}
	json_triple(f, "bytes_per_s", rate(p, p->seconds.median), rate(p, p->seconds.max),
		    rate(p, p->seconds.min));
	fputs(",\"samples\":[", f);
	for (unsigned k = 0; k < p->repeats; k++) {
		fputs(k ? "," : "", f);
		json_number(f, p->samples[k]);
	}
	fputs("],\"verified\":true", f);
	if (p->threads)
		thread_figures(f, p, cpus);
	if (p->counters.measurements)
		counters(f, p);
	fputc('}', f);
}

void output_json(FILE *f, const struct report *r)
{
	fprintf(f, "{\"tool\":\"copyperf\",\"version\":\"%s\",", COPYPERF_VERSION);
	json_machine(f, r->m);
	fputc(',', f);
	config(f, r);
	fputs(",\"results\":[", f);
	for (size_t i = 0; i < r->n; i++) {
		fputs(i ? ",\n" : "\n", f);
		result(f, &r->results[i], r->cpus);
	}
	fputs("\n]}\n", f);
}
