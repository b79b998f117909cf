/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "copyperf.h"
#include "measure/engine/lane.h"
#include "measure/hardware/counters.h"
#include "measure/placement/thread_pool.h"
#include "routine_names.h"
#include "shared_routine.h"
#include "user_backend.h"
#include "xalloc.h"

struct user_ctx {
	const struct measure_params *params;
	const struct copyperf_routine **routines;
	const char **names;
	struct lane lane;          /* without -j: this thread's */
	struct thread_pool pool;   /* with -j: the workers' */
	double *thread_seconds;    /* with -j: the last measurement's, per thread */
	struct counters *counters; /* NULL: not counting */
	struct counter_values last;
	bool *overlap_ok;          /* per routine */
};

int user_backend_check_routines(const struct measure_params *params, char *err, size_t errlen)
{
	size_t total = copyperf_routine_count();

	for (size_t i = 0; i < params->n_routines; i++) {
		const struct copyperf_routine *r = copyperf_routine_find(params->routines[i]);
		const char **names;

		if (!r && shared_routine_spec(params->routines[i])) {
			char why[400];

			if (!shared_routine_load(params->routines[i], why, sizeof(why))) {
				snprintf(err, errlen, "--routines: %s", why);
				return -1;
			}
			continue;
		}
		if (r && copyperf_routine_available(r))
			continue;
		if (r) {
			snprintf(err, errlen, "--routines: '%s' does not run on this CPU", r->name);
			return -1;
		}
		names = xcalloc(total + 1, sizeof(*names), "--routines");
		for (size_t k = 0; k < total; k++)
			names[k] = copyperf_routine_at(k)->name;
		unknown_routine_error(err, errlen, "routine", params->routines[i], names, total);
		free(names);
		return -1;
	}
	return 0;
}

static int resolve_routines(struct user_ctx *c, const struct measure_params *params, char *err,
			    size_t errlen)
{
	size_t total = copyperf_routine_count(), n = 0;

	if (user_backend_check_routines(params, err, errlen))
		return -1;

	c->routines = calloc(total + params->n_routines + 1, sizeof(*c->routines));
	c->names = calloc(total + params->n_routines + 1, sizeof(*c->names));
	if (!c->routines || !c->names) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (!params->routines) {
		for (size_t i = 0; i < total; i++)
			if (copyperf_routine_available(copyperf_routine_at(i)))
				c->routines[n++] = copyperf_routine_at(i);
	}
	for (size_t i = 0; i < params->n_routines; i++)
		c->routines[n++] = copyperf_routine_find(params->routines[i]);
	for (size_t i = 0; i < n; i++)
		c->names[i] = c->routines[i]->name;
	return (int)n;
}

static enum measure_status user_measure(struct backend *b, size_t r, const struct workload *w,
					double *seconds, char *why, size_t whylen)
{
	struct user_ctx *c = b->ctx;
	const struct copyperf_routine *routine = c->routines[r];
	struct lane_time t;
	enum measure_status s;
	bool whole;

	if (w->threads)
		return thread_pool_measure(&c->pool, routine, w, w->threads, seconds,
					   c->thread_seconds, why, whylen);
	if ((s = lane_prepare(&c->lane, w, why, whylen)) != MEASURE_OK)
		return s;
	if (c->counters)
		counters_start(c->counters);
	whole = lane_timed(&c->lane, routine->fn, w, c->counters, &t);
	if (c->counters)
		counters_stop(c->counters, &c->last);
	if (!whole) {
		snprintf(why, whylen, "%s: stopped by a signal", routine->name);
		return MEASURE_ERROR; /* the sweep then stops: interrupt_signal() is set */
	}
	*seconds = lane_seconds(&t);
	return lane_verify(&c->lane, routine, w, why, whylen);
}

/* Without counters the run goes on: one notice, then MB/s alone. */
static void open_counters(struct backend *b, struct user_ctx *c)
{
	char why[200];

	c->counters = malloc(sizeof(*c->counters));
	if (c->counters && counters_open(c->counters, counters_hardware, why, sizeof(why)) == 0) {
		b->counters = &c->last;
		return;
	}
	fprintf(stderr, "copyperf: --counters: %s; going on without them\n",
		c->counters ? why : "out of memory");
	free(c->counters);
	c->counters = NULL;
}

/* The buffers: this thread's, or each worker's own. */
static int open_lanes(struct backend *b, struct user_ctx *c, const struct thread_plan *tp,
		      const struct workloads *ws, char *err, size_t errlen)
{
	const struct measure_params *params = c->params;
	size_t lanes = tp->most ? tp->most : 1;
	/* each lane maps two buffers, or a replay's arena and what it must hold, one at a time */
	size_t largest = params->distributions ? workloads_largest_arena(ws) : lane_map_length(params);

	if (pages_check(params->pages, largest, 2 * lanes, err, errlen))
		return -1;
	if (!tp->most)
		return lane_open(&c->lane, params, err, errlen);
	c->thread_seconds = calloc(tp->most, sizeof(*c->thread_seconds));
	if (!c->thread_seconds) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	b->thread_seconds = c->thread_seconds;
	if (thread_pool_start(&c->pool, params, tp->cpus, tp->most, err, errlen))
		return -1;
	b->starts_apart = &c->pool.apart;
	return 0;
}

int user_backend_open(struct backend *b, const struct measure_params *params,
		      const struct thread_plan *tp, const struct workloads *ws, char *err,
		      size_t errlen)
{
	struct user_ctx *c = backend_start(b, sizeof(*c), err, errlen);
	int n;

	if (!c)
		return -1;
	c->params = params;
	n = resolve_routines(c, params, err, errlen);
	if (n < 0 || open_lanes(b, c, tp, ws, err, errlen))
		return -1;
	c->overlap_ok = calloc((size_t)n + 1, sizeof(*c->overlap_ok));
	if (!c->overlap_ok) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < n; i++)
		c->overlap_ok[i] = c->routines[i]->flags & COPYPERF_OVERLAP_OK;
	b->space = "user";
	b->n_routines = (size_t)n;
	b->routine_names = c->names;
	b->overlap_ok = c->overlap_ok;
	b->measure = user_measure;
	if (params->counters)
		open_counters(b, c);
	return 0;
}

void user_backend_close(struct backend *b)
{
	struct user_ctx *c = b->ctx;

	if (!c)
		return;
	thread_pool_stop(&c->pool);
	lane_close(&c->lane);
	free(c->thread_seconds);
	if (c->counters) {
		counters_close(c->counters);
		free(c->counters);
	}
	free(c->overlap_ok);
	free(c->routines);
	free(c->names);
	free(c);
	b->ctx = NULL;
}

void user_backend_pages(const struct backend *b, struct page_usage *u)
{
	const struct user_ctx *c = b->ctx;

	memset(u, 0, sizeof(*u));
	page_usage_add(u, &c->lane.pages);
	thread_pool_pages(&c->pool, u);
}
