/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"
#include "reference.h"
#include "results_file.h"
#include "xalloc.h"

const char *reference_name(const struct point_result *p)
{
	return p->overlap_ok ? "memmove" : "memcpy";
}

static bool timed(const struct summary *speed)
{
	return isfinite(speed->median) && speed->median > 0;
}

void readings_make(struct readings *out, const struct report *r)
{
	struct result_set set;

	out->at = xcalloc(r->n + 1, sizeof(*out->at), "the readings against the C library");
	out->any = false;
	if (result_set_from_report(&set, r))
		out_of_memory("the readings against the C library");
	for (size_t i = 0; i < r->n; i++) {
		const struct point_result *p = &r->results[i];
		struct result_row key = set.rows[i];
		const struct result_row *ref;
		struct compare_verdict v;

		key.routine = reference_name(p);
		ref = result_set_find(&set, &key);
		if (!ref || !strcmp(p->routine, ref->routine) || !p->verified || !ref->verified ||
		    !p->repeats || !ref->n_samples)
			continue;
		compare_judge(ref, &set.rows[i], 1, &v);
		if (!timed(&v.a) || !timed(&v.b))
			continue;
		out->at[i] = (struct point_reading){ .reference = &r->results[ref - set.rows],
						     .ratio = v.ratio,
						     .p = v.test.p,
						     .verdict = v.direction };
		out->any = true;
	}
	result_set_free(&set);
}

void readings_free(struct readings *rd)
{
	free(rd->at);
	rd->at = NULL;
}
