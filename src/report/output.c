/* SPDX-License-Identifier: MIT */
#include "output.h"

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
