/* SPDX-License-Identifier: MIT */
/* The values every JSON document copyperf writes is made of: results, program runs. */
#include <math.h>
#include <string.h>
#include "json_write.h"
#include "measure/placement/cpu_order.h"
#include "utf8.h"

/* Bytes that are not UTF-8 (a file name may hold any) become U+FFFD: JSON is UTF-8. */
void json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + strlen(s);

	fputc('"', f);
	while (p < end) {
		size_t n = utf8_sequence(p, end);

		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else if (!n)
			fputs("\\ufffd", f);
		else
			fwrite(p, 1, n, f);
		p += n ? n : 1;
	}
	fputc('"', f);
}

void json_number(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.9g", v);
	else
		fputs("null", f);
}

void json_triple(FILE *f, const char *key, double median, double min, double max)
{
	fprintf(f, "\"%s\":{\"median\":", key);
	json_number(f, median);
	fputs(",\"min\":", f);
	json_number(f, min);
	fputs(",\"max\":", f);
	json_number(f, max);
	fputc('}', f);
}

void json_ints(FILE *f, const int *v, size_t n)
{
	fputc('[', f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%d", i ? "," : "", v[i]);
	fputc(']', f);
}

/*
 * The last level that llc was sized from: "source" is "measured" (a region
 * that did not hold, "miss"), "reported" (every region tried held, or none
 * could be) or "COPYPERF_LLC"; "memory": the level cold and stream were sized
 * from (llc_memory_level).
 */
static void llc(FILE *f, const struct llc_probe *p)
{
	const char *source = p->given ? "COPYPERF_LLC" : p->miss_bytes ? "measured" : "reported";

	fprintf(f, ",\"llc\":{\"size\":%llu,\"reported\":%llu,\"memory\":%llu,"
		"\"source\":\"%s\"", (unsigned long long)p->size, (unsigned long long)p->reported,
		(unsigned long long)llc_memory_level(p), source);
	if (p->probed) {
		fprintf(f, ",\"reference\":{\"bytes\":%llu,\"ns_per_read\":",
			(unsigned long long)p->ref_bytes);
		json_number(f, p->ref_ns);
		fputc('}', f);
	}
	if (p->miss_bytes) {
		fprintf(f, ",\"miss\":{\"bytes\":%llu,\"ns_per_read\":",
			(unsigned long long)p->miss_bytes);
		json_number(f, p->miss_ns);
		fputc('}', f);
	}
	fputc('}', f);
}

void json_machine(FILE *f, const struct machine_info *m)
{
	const struct {
		const char *key, *value;
	} text[] = {
		{ "cpu", m->cpu },   { "arch", m->arch },         { "kernel", m->kernel },
		{ "libc", m->libc }, { "compiler", m->compiler }, { "host", m->host },
	};

	fputs("\"machine\":{", f);
	for (size_t i = 0; i < sizeof(text) / sizeof(text[0]); i++) {
		fprintf(f, "%s\"%s\":", i ? "," : "", text[i].key);
		json_string(f, text[i].value);
	}
	fputs(",\"caches\":{", f);
	for (size_t i = 0; i < m->n_caches; i++) {
		const struct cp_cache *c = &m->caches[i];
		char name[24];

		snprintf(name, sizeof(name), "L%u%s", c->level,
			 c->type[0] == 'D' ? "d" : c->type[0] == 'I' ? "i" : "");
		fprintf(f, "%s\"%s\":{\"size\":%llu,\"line\":%u}", i ? "," : "", name,
			(unsigned long long)c->size, c->line);
	}
	fputc('}', f);
	fputs(",\"numa_nodes\":[", f);
	for (size_t i = 0; i < m->n_nodes; i++) {
		int cpus[1024];
		long n = cpu_list_parse(m->nodes[i].cpulist, cpus, 1024);

		fprintf(f, "%s{\"node\":%d,\"cpus\":", i ? "," : "", m->nodes[i].id);
		json_ints(f, cpus, n > 0 ? (size_t)n : 0);
		fputc('}', f);
	}
	fputc(']', f);
	if (m->llc_used)
		llc(f, &m->llc);
	fputc('}', f);
}
