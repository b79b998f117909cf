/* SPDX-License-Identifier: MIT */
/* The JSON results' columns, one row per point; samples joined by ';'. */
#include <string.h>
#include "output.h"

static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* Mean counts per measurement, then cycles/byte and bytes/cycle; empty where not counted. */
static void counter_fields(FILE *f, const struct point_result *p)
{
	double cpb = cycles_per_byte(p);

	for (int e = 0; e < N_COUNTERS; e++) {
		double v = counter_mean(&p->counters, (enum counter_event)e);

		if (v >= 0)
			fprintf(f, ",%.0f", v);
		else
			fputc(',', f);
	}
	if (cpb > 0)
		fprintf(f, ",%.6g,%.6g", cpb, 1 / cpb);
	else
		fputs(",,", f);
}

void output_csv(FILE *f, const struct report *r)
{
	bool counters = report_has_counters(r);

	fputs("routine,space,chunk,total,repeats,seconds_median,seconds_min,seconds_max,"
	      "bytes_per_s_median,bytes_per_s_min,bytes_per_s_max,verified,samples,error",
	      f);
	if (counters) {
		for (int e = 0; e < N_COUNTERS; e++)
			fprintf(f, ",%s", counter_name((enum counter_event)e));
		fputs(",cycles_per_byte,bytes_per_cycle", f);
	}
	fputc('\n', f);
	for (size_t i = 0; i < r->n; i++) {
		const struct point_result *p = &r->results[i];

		csv_field(f, p->routine);
		fprintf(f, ",%s,%llu,%llu,%u,", p->space, (unsigned long long)p->chunk,
			(unsigned long long)p->total, p->repeats);
		if (!p->verified) {
			fputs(",,,,,,false,,", f);
			csv_field(f, p->error);
			if (counters)
				counter_fields(f, p);
			fputc('\n', f);
			continue;
		}
		fprintf(f, "%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,true,", p->seconds.median, p->seconds.min,
			p->seconds.max, rate(p, p->seconds.median), rate(p, p->seconds.max),
			rate(p, p->seconds.min));
		for (unsigned k = 0; k < p->repeats; k++)
			fprintf(f, "%s%.9g", k ? ";" : "", p->samples[k]);
		fputc(',', f);
		if (counters)
			counter_fields(f, p);
		fputc('\n', f);
	}
}
