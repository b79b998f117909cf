/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include "output.h"
#include "stats/stats.h"
#include "xalloc.h"

int output_write(FILE *f, const struct report *r)
{
	static void (*const writers[])(FILE *, const struct report *) = {
		[FORMAT_TABLE] = output_table,
		[FORMAT_SEED] = output_seed,
		[FORMAT_CSV] = output_csv,
		[FORMAT_JSON] = output_json,
	};

	writers[r->o->format](f, r);
	return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}

bool report_has_counters(const struct report *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->results[i].counters.measurements)
			return true;
	return false;
}

void point_thread_speeds(const struct point_result *p, double *speeds, double *slowest,
			 double *fastest)
{
	double bytes = (double)p->total / point_threads(p);
	double *own = xcalloc(p->repeats + 1, sizeof(*own), "the threads' speeds");

	*slowest = *fastest = 0;
	for (unsigned t = 0; t < p->threads; t++) {
		for (unsigned k = 0; k < p->repeats; k++)
			own[k] = p->thread_samples[(size_t)k * p->threads + t];
		speeds[t] = bytes / median_of(own, p->repeats);
		*slowest = !t || speeds[t] < *slowest ? speeds[t] : *slowest;
		*fastest = speeds[t] > *fastest ? speeds[t] : *fastest;
	}
	free(own);
}

void report_describe_threads(const struct report *r, char *buf, size_t len)
{
	char cpus[256];

	cpu_list_format(r->cpus, r->n_cpus, cpus, sizeof(cpus));
	snprintf(buf, len, "threads on CPUs %s in this order (one per core, then SMT siblings), "
		 "each with its own buffers", cpus);
}
