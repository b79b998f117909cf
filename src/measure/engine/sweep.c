/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "interrupt.h"
#include "measure/call_mixes/call_list.h"
#include "sweep.h"

bool sweep_runs(const struct backend *b, size_t r, const struct workload *w)
{
	return !w->calls || w->calls->kind != DIST_MEMMOVE || (b->overlap_ok && b->overlap_ok[r]);
}

/* Returns 0, or -1 when out of memory for the samples. */
static int init_point(struct point_result *p, const struct measure_params *params,
		      const struct backend *b, size_t r, const struct workload *w)
{
	uint64_t passes;

	memset(p, 0, sizeof(*p));
	p->routine = b->routine_names[r];
	p->space = b->space;
	p->overlap_ok = b->overlap_ok && b->overlap_ok[r];
	p->samples = calloc(params->repeat, sizeof(*p->samples));
	p->verified = true;
	p->chunk = w->chunk;
	p->threads = w->threads;
	if (w->threads)
		p->thread_samples = calloc((size_t)params->repeat * w->threads, sizeof(double));
	if (!w->calls) {
		p->total = point_total(params->total, w->chunk) * point_threads(p);
		return p->samples && (!w->threads || p->thread_samples) ? 0 : -1;
	}
	p->distribution = w->distribution;
	p->working_set_name = w->working_set_name;
	p->working_set = w->working_set;
	p->layout = w->calls->layout;
	p->chained = params->chained;
	p->tested = params->tested;
	passes = call_list_passes(w->calls, params->total);
	p->calls = passes * w->calls->n * point_threads(p);
	p->total = passes * w->calls->bytes * point_threads(p);
	return p->samples && (!w->threads || p->thread_samples) ? 0 : -1;
}

/*
 * One measurement of one point; a wrong copy marks the point FAILED for good.
 * A signal caught stops the run here, before the measurement or (the module
 * gives up its walk on a signal) during it.
 */
static int take(struct backend *b, struct point_result *p, size_t r, const struct workload *w,
		double *seconds, char *why, size_t whylen)
{
	enum measure_status s;

	if (interrupt_signal())
		return SWEEP_INTERRUPTED;
	if (!p->verified)
		return 0;
	s = b->measure(b, r, w, seconds, why, whylen);
	if (s == MEASURE_WRONG) {
		p->verified = false;
		snprintf(p->error, sizeof(p->error), "%s", why);
	}
	if (s == MEASURE_ERROR)
		return interrupt_signal() ? SWEEP_INTERRUPTED : -1;
	return s == MEASURE_NO_MEMORY ? SWEEP_NO_MEMORY : 0;
}

int sweep_run(const struct measure_params *params, struct backend *b, const struct workload *w,
	      size_t nw, progress_fn progress, void *arg, struct point_result **out, size_t *n_out,
	      char *why, size_t whylen)
{
	size_t nr = b->n_routines, np = 0, steps, done = 0;
	int status;
	/* at[r * nw + i]: routine r's result for workload i, or NULL where it does not run */
	struct point_result **at = calloc(nr * nw + 1, sizeof(*at));
	struct point_result *res = calloc(nr * nw + 1, sizeof(*res));
	/* summarize's sorted copy, so that no allocation can fail once measuring has begun */
	double *scratch = calloc(params->repeat, sizeof(*scratch));

	*out = res;
	*n_out = 0;
	status = res && at && scratch ? 0 : SWEEP_NO_MEMORY;
	for (size_t r = 0; r < nr && !status; r++)
		for (size_t i = 0; i < nw && !status; i++)
			if (sweep_runs(b, r, &w[i])) {
				at[r * nw + i] = &res[np];
				status = init_point(&res[np++], params, b, r, &w[i]) ? SWEEP_NO_MEMORY : 0;
			}
	*n_out = np;
	steps = np * (params->repeat + 1);
	if (status) {
		snprintf(why, whylen, "out of memory for the samples of %zu measurements",
			 nr * nw * params->repeat);
		goto fail;
	}

	for (size_t i = 0; i < nw; i++) {
		double discard;

		/* One untimed warm-up per point, then the repeats, routines interleaved. */
		for (size_t r = 0; r < nr; r++) {
			struct point_result *p = at[r * nw + i];

			if (!p)
				continue;
			if ((status = take(b, p, r, &w[i], &discard, why, whylen)))
				goto fail;
			if (progress)
				progress(++done, steps, arg);
		}
		for (unsigned k = 0; k < params->repeat; k++)
			for (size_t r = 0; r < nr; r++) {
				struct point_result *p = at[r * nw + i];

				if (!p)
					continue;
				if ((status = take(b, p, r, &w[i], &p->samples[k], why, whylen)))
					goto fail;
				if (b->counters && p->verified)
					counters_add(&p->counters, b->counters);
				if (p->threads && p->verified && b->thread_seconds)
					memcpy(&p->thread_samples[k * p->threads], b->thread_seconds,
					       p->threads * sizeof(double));
				if (progress)
					progress(++done, steps, arg);
			}
		for (size_t r = 0; r < nr; r++) {
			struct point_result *p = at[r * nw + i];

			if (!p)
				continue;
			p->repeats = params->repeat;
			if (p->verified)
				summarize_in(p->samples, p->repeats, scratch, &p->seconds);
		}
	}
	status = 0;
fail:
	if (status == SWEEP_INTERRUPTED)
		snprintf(why, whylen, "stopped by %s after %zu of %zu measurements", interrupt_name(),
			 done, steps);
	free(scratch);
	free(at);
	return status;
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
	for (size_t i = 0; i < n; i++) {
		free(results[i].samples);
		free(results[i].thread_samples);
	}
	free(results);
}
