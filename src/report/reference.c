/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include "compare.h"
#include "reference.h"
#include "stats/mann_whitney.h"
#include "xalloc.h"

const char *reference_name(const struct point_result *p)
{
	return p->overlap_ok ? "memmove" : "memcpy";
}

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Whether a and b measured the same thing: one chunk, or one replayed list, on as many threads. */
static bool same_point(const struct point_result *a, const struct point_result *b)
{
	return a->chunk == b->chunk && a->threads == b->threads && a->total == b->total &&
	       same_text(a->space, b->space) && same_text(a->distribution, b->distribution) &&
	       same_text(a->working_set_name, b->working_set_name) &&
	       a->working_set == b->working_set && a->layout == b->layout &&
	       a->chained == b->chained && a->calls == b->calls;
}

static const struct point_result *find_reference(const struct report *r,
						 const struct point_result *p)
{
	const char *name = reference_name(p);

	for (size_t i = 0; i < r->n; i++) {
		const struct point_result *q = &r->results[i];

		if (!strcmp(q->routine, name) && same_point(p, q))
			return q;
	}
	return NULL;
}

bool point_read(const struct report *r, const struct point_result *p, struct point_reading *out)
{
	const struct point_result *ref = find_reference(r, p);
	struct mann_whitney test;
	double *speeds;

	if (!ref || ref == p || !strcmp(p->routine, ref->routine) || !p->verified ||
	    !ref->verified || !p->repeats || !ref->repeats)
		return false;
	/* the same bytes in both: speeds are the inverse times, and ranks the same test */
	speeds = xcalloc((size_t)p->repeats + ref->repeats, sizeof(double), "the readings");
	for (unsigned i = 0; i < p->repeats; i++)
		speeds[i] = 1 / p->samples[i];
	for (unsigned i = 0; i < ref->repeats; i++)
		speeds[p->repeats + i] = 1 / ref->samples[i];
	mann_whitney(speeds, p->repeats, speeds + p->repeats, ref->repeats, &test);
	free(speeds);
	out->reference = ref;
	out->ratio = ref->seconds.median / p->seconds.median;
	out->p = test.p;
	out->verdict = test.p >= COMPARE_ALPHA ? 0 : out->ratio > 1 ? 1 : -1;
	return true;
}

bool report_has_readings(const struct report *r)
{
	struct point_reading reading;

	for (size_t i = 0; i < r->n; i++)
		if (point_read(r, &r->results[i], &reading))
			return true;
	return false;
}
