/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "thread_pool.h"

struct worker {
	struct thread_pool *pool;
	unsigned index;
	pthread_t thread;
	struct lane lane;
	const struct options *o;
	enum measure_status status;
	struct lane_time time;
	char why[300];
};

static int pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

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

/* One measurement's part of a worker, between the caller's barriers. */
static void work(struct worker *me)
{
	struct thread_pool *p = me->pool;
	bool in = me->index < p->k;

	me->status = MEASURE_OK;
	if (in)
		me->status = lane_prepare(&me->lane, p->w, me->why, sizeof(me->why));
	pthread_barrier_wait(&p->start);
	if (in)
		start_together(p);
	if (in && me->status == MEASURE_OK)
		lane_timed(&me->lane, p->routine->fn, p->w, NULL, &me->time);
	pthread_barrier_wait(&p->timed);
	/* verified only once every thread has stopped copying: checking takes bandwidth too */
	if (in && me->status == MEASURE_OK)
		me->status = lane_verify(&me->lane, p->routine, p->w, me->why, sizeof(me->why));
}

static void *worker_main(void *arg)
{
	struct worker *me = arg;
	struct thread_pool *p = me->pool;
	int e = pin_self(p->cpus[me->index]);

	if (e) {
		snprintf(me->why, sizeof(me->why), "--threads: cannot run thread %u on CPU %d: %s",
			 me->index + 1, p->cpus[me->index], strerror(e));
		me->status = MEASURE_ERROR;
	} else if (lane_open(&me->lane, me->o, me->why, sizeof(me->why))) {
		me->status = MEASURE_ERROR;
	}
	pthread_barrier_wait(&p->done); /* opened */
	for (;;) {
		pthread_barrier_wait(&p->go);
		if (p->quit)
			break;
		work(me);
		pthread_barrier_wait(&p->done);
	}
	lane_close(&me->lane);
	return NULL;
}

int thread_pool_start(struct thread_pool *p, const struct options *o, const int *cpus,
		      unsigned n, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	p->n = n;
	p->cpus = cpus;
	p->workers = calloc(n, sizeof(*p->workers));
	if (!p->workers) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	pthread_barrier_init(&p->go, NULL, n + 1);
	/* the caller sleeps through the start: woken there, it would take a CPU from a copy */
	pthread_barrier_init(&p->start, NULL, n);
	pthread_barrier_init(&p->timed, NULL, n + 1);
	pthread_barrier_init(&p->done, NULL, n + 1);
	for (unsigned i = 0; i < n; i++) {
		struct worker *w = &p->workers[i];
		int e;

		w->pool = p;
		w->index = i;
		w->o = o;
		if ((e = pthread_create(&w->thread, NULL, worker_main, w)) != 0) {
			snprintf(err, errlen, "--threads: cannot start thread %u: %s", i + 1,
				 strerror(e));
			return -1;
		}
		p->started++;
	}
	pthread_barrier_wait(&p->done);
	for (unsigned i = 0; i < n; i++)
		if (p->workers[i].status != MEASURE_OK) {
			snprintf(err, errlen, "%s", p->workers[i].why);
			return -1;
		}
	return 0;
}

void thread_pool_stop(struct thread_pool *p)
{
	if (!p->workers)
		return;
	if (p->started == p->n) {
		p->quit = true;
		pthread_barrier_wait(&p->go);
		for (unsigned i = 0; i < p->n; i++)
			pthread_join(p->workers[i].thread, NULL);
		pthread_barrier_destroy(&p->go);
		pthread_barrier_destroy(&p->start);
		pthread_barrier_destroy(&p->timed);
		pthread_barrier_destroy(&p->done);
	}
	/* else some threads wait at a barrier that cannot fill: the process is ending anyway */
	free(p->workers);
	memset(p, 0, sizeof(*p));
}

enum measure_status thread_pool_measure(struct thread_pool *p, const struct copyperf_routine *routine,
					const struct workload *w, unsigned k, double *seconds,
					double *thread_seconds, char *why, size_t whylen)
{
	uint64_t first = UINT64_MAX, last = 0;
	enum measure_status status = MEASURE_OK;

	p->routine = routine;
	p->w = w;
	p->k = k;
	atomic_store(&p->arrived, 0);
	pthread_barrier_wait(&p->go);
	pthread_barrier_wait(&p->timed);
	pthread_barrier_wait(&p->done);
	for (unsigned i = 0; i < k; i++) {
		const struct worker *me = &p->workers[i];
		const struct lane_time *t = &me->time;

		if (me->status != MEASURE_OK && status != MEASURE_ERROR) {
			status = me->status;
			snprintf(why, whylen, "thread %u (CPU %d): %s", i + 1, p->cpus[i], me->why);
		}
		if (me->status != MEASURE_OK)
			continue;
		first = t->t0 < first ? t->t0 : first;
		last = t->t1 - t->paused > last ? t->t1 - t->paused : last;
		thread_seconds[i] = lane_seconds(t);
	}
	if (status == MEASURE_OK)
		*seconds = (double)(last - first) * 1e-9;
	return status;
}

void thread_pool_pages(const struct thread_pool *p, struct page_usage *u)
{
	for (unsigned i = 0; i < p->n; i++)
		page_usage_add(u, &p->workers[i].lane.pages);
}
