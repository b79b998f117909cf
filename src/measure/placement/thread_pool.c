/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "interrupt.h"
#include "measure/engine/timing.h"
#include "thread_pool.h"
#include "xalloc.h"

struct worker {
	struct lane lane;
	enum measure_status status;
	struct lane_time time;
	char why[300];
};

/*
 * The threads taking part wait for each other spinning, awake: a thread woken
 * from the barrier's sleep starts tens of microseconds after another, longer
 * than a small measurement lasts.
 */
static void start_together(struct thread_pool *p)
{
	atomic_fetch_add_explicit(&p->arrived, 1, memory_order_acq_rel);
	while (atomic_load_explicit(&p->arrived, memory_order_acquire) < p->k)
		;
}

/* One measurement's part of worker i. */
static void work(void *ctx, unsigned i)
{
	struct thread_pool *p = ctx;
	struct worker *me = &p->workers[i];
	bool in = i < p->k;

	me->status = MEASURE_OK;
	if (in)
		me->status = lane_prepare(&me->lane, p->w, me->why, sizeof(me->why));
	pthread_barrier_wait(&p->start);
	if (in)
		start_together(p);
	if (in && me->status == MEASURE_OK &&
	    !lane_timed(&me->lane, p->routine->fn, p->w, NULL, &me->time)) {
		snprintf(me->why, sizeof(me->why), "stopped by a signal");
		me->status = MEASURE_ERROR; /* not verified: the copies were cut short */
	}
	pthread_barrier_wait(&p->timed);
	/* checked once every thread has stopped copying (outside flush mode, the untimed walk too) */
	if (in && me->status == MEASURE_OK)
		me->status = lane_verify(&me->lane, p->routine, p->w, me->why, sizeof(me->why));
}

static int open_lane(void *ctx, unsigned i, char *why, size_t whylen)
{
	struct thread_pool *p = ctx;

	return lane_open(&p->workers[i].lane, p->params, why, whylen);
}

static void close_lane(void *ctx, unsigned i)
{
	struct thread_pool *p = ctx;

	lane_close(&p->workers[i].lane);
}

static const struct pinned_pool_ops lane_ops = { open_lane, work, close_lane };

int thread_pool_start(struct thread_pool *p, const struct measure_params *params, const int *cpus,
		      unsigned n, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	p->params = params;
	p->workers = xcalloc(n, sizeof(*p->workers), "the threads");
	p->apart_floor = THREAD_POOL_APART_CLOCKS * clock_cost_ns();
	pthread_barrier_init(&p->start, NULL, n);
	pthread_barrier_init(&p->timed, NULL, n);
	return pinned_pool_start(&p->pool, "--threads", cpus, n, &lane_ops, p, err, errlen);
}

void thread_pool_stop(struct thread_pool *p)
{
	if (!p->workers)
		return;
	pinned_pool_stop(&p->pool);
	pthread_barrier_destroy(&p->start);
	pthread_barrier_destroy(&p->timed);
	free(p->workers);
	memset(p, 0, sizeof(*p));
}

/*
 * One measurement by the first k workers.  *apart says whether their starts
 * lay further apart than a tenth of the aggregate time and than
 * p->apart_floor (the spinning start leaves them up to about a microsecond
 * apart): a thread descheduled between the common start and its first copy
 * copies mostly alone, and the aggregate then says less than the machine does
 * with every thread copying.
 */
static enum measure_status run_once(struct thread_pool *p, unsigned k, double *seconds,
				    double *thread_seconds, bool *apart, char *why, size_t whylen)
{
	uint64_t first = UINT64_MAX, latest = 0, last = 0;
	enum measure_status status = MEASURE_OK;

	atomic_store(&p->arrived, 0);
	pinned_pool_run(&p->pool);
	for (unsigned i = 0; i < k; i++) {
		const struct worker *me = &p->workers[i];
		const struct lane_time *t = &me->time;

		if (me->status != MEASURE_OK && status != MEASURE_ERROR) {
			status = me->status;
			snprintf(why, whylen, "thread %u (CPU %d): %s", i + 1, p->pool.cpus[i], me->why);
		}
		if (me->status != MEASURE_OK)
			continue;
		first = t->t0 < first ? t->t0 : first;
		latest = t->t0 > latest ? t->t0 : latest;
		last = t->t1 - t->paused > last ? t->t1 - t->paused : last;
		thread_seconds[i] = lane_seconds(t);
	}
	if (status == MEASURE_OK)
		*seconds = (double)(last - first) * 1e-9;
	*apart = status == MEASURE_OK && (latest - first) * 10 > last - first &&
		 latest - first > p->apart_floor;
	return status;
}

enum measure_status thread_pool_measure(struct thread_pool *p, const struct copyperf_routine *routine,
					const struct workload *w, unsigned k, double *seconds,
					double *thread_seconds, char *why, size_t whylen)
{
	enum measure_status status;
	unsigned tries = 0;
	bool apart;

	p->routine = routine;
	p->w = w;
	p->k = k;
	/* Taken again while the starts lie apart; the last try is kept, and counted. */
	while ((status = run_once(p, k, seconds, thread_seconds, &apart, why, whylen)) ==
		       MEASURE_OK && apart) {
		if (++tries == THREAD_POOL_TRIES || interrupt_signal()) {
			p->apart++;
			break;
		}
	}
	return status;
}

void thread_pool_pages(const struct thread_pool *p, struct page_usage *u)
{
	for (unsigned i = 0; i < p->pool.n; i++)
		page_usage_add(u, &p->workers[i].lane.pages);
}
