/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sweep.h"

static void init_point(struct point_result *p, const struct options *o, const struct backend *b,
		       size_t r, uint64_t chunk)
{
	memset(p, 0, sizeof(*p));
	p->routine = b->routine_names[r];
	p->space = b->space;
	p->chunk = chunk;
	p->total = point_total(o->total, chunk);
	p->samples = calloc(o->repeat, sizeof(*p->samples));
	p->verified = true;
}

/* One measurement of one point; a wrong copy marks the point FAILED for good. */
static int take(struct backend *b, struct point_result *p, size_t r, double *seconds, char *why,
		size_t whylen)
{
	enum measure_status s;

	if (!p->verified)
		return 0;
	s = b->measure(b, r, p->chunk, seconds, why, whylen);
	if (s == MEASURE_WRONG) {
		p->verified = false;
		snprintf(p->error, sizeof(p->error), "%s", why);
	}
	return s == MEASURE_ERROR ? -1 : 0;
}

int sweep_run(const struct options *o, struct backend *b, progress_fn progress, void *arg,
	      struct point_result **out, size_t *n_out, char *why, size_t whylen)
{
	size_t nr = b->n_routines, ns = o->n_sizes;
	size_t steps = ns * nr * (o->repeat + 1), done = 0;
	struct point_result *res = calloc(nr * ns, sizeof(*res));

	if (!res) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	for (size_t r = 0; r < nr; r++)
		for (size_t s = 0; s < ns; s++)
			init_point(&res[r * ns + s], o, b, r, o->sizes[s]);
	*out = res;
	*n_out = nr * ns;

	for (size_t s = 0; s < ns; s++) {
		double discard;

		/* One untimed warm-up per point, then the repeats, routines interleaved. */
		for (size_t r = 0; r < nr; r++) {
			if (take(b, &res[r * ns + s], r, &discard, why, whylen))
				return -1;
			if (progress)
				progress(++done, steps, arg);
		}
		for (unsigned k = 0; k < o->repeat; k++)
			for (size_t r = 0; r < nr; r++) {
				struct point_result *p = &res[r * ns + s];

				if (take(b, p, r, &p->samples[k], why, whylen))
					return -1;
				if (b->counters && p->verified)
					counters_add(&p->counters, b->counters);
				if (progress)
					progress(++done, steps, arg);
			}
		for (size_t r = 0; r < nr; r++) {
			struct point_result *p = &res[r * ns + s];

			p->repeats = o->repeat;
			if (p->verified)
				summarize(p->samples, p->repeats, &p->seconds);
		}
	}
	return 0;
}

void *backend_start(struct backend *b, size_t ctx_size, char *err, size_t errlen)
{
	memset(b, 0, sizeof(*b));
	b->ctx = calloc(1, ctx_size);
	if (!b->ctx)
		snprintf(err, errlen, "out of memory");
	return b->ctx;
}

void sweep_free(struct point_result *results, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(results[i].samples);
	free(results);
}
