/* SPDX-License-Identifier: MIT */
#include "output.h"
#include "sizes.h"

static void header(FILE *f, const struct report *r)
{
	const struct options *o = r->o;
	char total[32], buffer[32];

	format_size(o->total, total, sizeof(total));
	format_size(o->buffer, buffer, sizeof(buffer));
	fprintf(f, "copyperf %s: %s space, cache %s, %s per point, two %s buffers, align %llu:%llu\n",
		COPYPERF_VERSION, r->results && r->n ? r->results[0].space : "user",
		cache_mode_name(o->cache), total, buffer, (unsigned long long)o->align_src,
		(unsigned long long)o->align_dst);
	fprintf(f, "%s, %s, %s, %s\n", r->m->cpu, r->m->kernel, r->m->libc, r->m->compiler);
	fprintf(f, "MB/s: 2^20 bytes per second; median [min, max] of %u measurements\n\n",
		o->repeat);
	fprintf(f, "%-18s %9s %12s %12s %12s %10s  %s%s\n", "routine", "chunk [B]", "MB/s median",
		"MB/s min", "MB/s max", "time [s]", "verified",
		report_has_counters(r) ? "     cyc/B    B/cyc" : "");
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

void output_table(FILE *f, const struct report *r)
{
	bool counters = report_has_counters(r);

	header(f, r);
	for (size_t i = 0; i < r->n; i++) {
		const struct point_result *p = &r->results[i];

		if (i && p->routine != r->results[i - 1].routine)
			fputc('\n', f);
		if (!p->verified) {
			fprintf(f, "%-18s %9llu  FAILED: %s\n", p->routine,
				(unsigned long long)p->chunk, p->error);
			continue;
		}
		fprintf(f, "%-18s %9llu %12.1f %12.1f %12.1f %10.6f  yes", p->routine,
			(unsigned long long)p->chunk, rate(p, p->seconds.median) / BYTES_PER_MB,
			rate(p, p->seconds.max) / BYTES_PER_MB, rate(p, p->seconds.min) / BYTES_PER_MB,
			p->seconds.median);
		if (counters)
			counter_columns(f, p);
		fputc('\n', f);
	}
}
