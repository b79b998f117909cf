/* SPDX-License-Identifier: MIT */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpu_order.h"
#include "pinned_pool.h"
#include "xalloc.h"

struct start_arg {
	struct pinned_pool *p;
	unsigned i;
};

/* Waits until the caller has created every thread; false if it could not. */
static bool through_gate(struct pinned_pool *p)
{
	int gate;

	pthread_mutex_lock(&p->gate_lock);
	while ((gate = p->gate) == 0)
		pthread_cond_wait(&p->gate_moved, &p->gate_lock);
	pthread_mutex_unlock(&p->gate_lock);
	return gate > 0;
}

static void set_gate(struct pinned_pool *p, int gate)
{
	pthread_mutex_lock(&p->gate_lock);
	p->gate = gate;
	pthread_cond_broadcast(&p->gate_moved);
	pthread_mutex_unlock(&p->gate_lock);
}

static void *worker_main(void *arg)
{
	struct start_arg *a = arg;
	struct pinned_pool *p = a->p;
	unsigned i = a->i;
	char why[sizeof(p->why)] = "";
	int e;

	free(a);
	if (!through_gate(p))
		return NULL; /* a later thread could not be created: nothing opened, nothing to close */
	e = cpu_pin_self(p->cpus[i]);
	if (e)
		snprintf(why, sizeof(why), "%s: cannot run thread %u on CPU %d: %s", p->who, i + 1,
			 p->cpus[i], strerror(e));
	else if (p->ops->open(p->ctx, i, why, sizeof(why)))
		e = -1;
	if (e && __atomic_exchange_n(&p->failed, (int)i + 1, __ATOMIC_ACQ_REL) == 0)
		snprintf(p->why, sizeof(p->why), "%s", why);
	pthread_barrier_wait(&p->done); /* opened */
	for (;;) {
		pthread_barrier_wait(&p->go);
		if (p->quit)
			break;
		p->ops->job(p->ctx, i);
		pthread_barrier_wait(&p->done);
	}
	p->ops->close(p->ctx, i);
	return NULL;
}

int pinned_pool_start(struct pinned_pool *p, const char *who, const int *cpus, unsigned n,
		      const struct pinned_pool_ops *ops, void *ctx, char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	p->who = who;
	p->n = n;
	p->cpus = cpus;
	p->ops = ops;
	p->ctx = ctx;
	p->threads = xcalloc(n, sizeof(*p->threads), "the threads");
	pthread_barrier_init(&p->go, NULL, n + 1);
	pthread_barrier_init(&p->done, NULL, n + 1);
	pthread_mutex_init(&p->gate_lock, NULL);
	pthread_cond_init(&p->gate_moved, NULL);
	for (unsigned i = 0; i < n; i++) {
		struct start_arg *a = xcalloc(1, sizeof(*a), "the threads");
		int e;

		*a = (struct start_arg){ p, i };
		e = pthread_create(&p->threads[i], NULL, worker_main, a);
		if (e) {
			free(a);
			snprintf(err, errlen, "%s: cannot start thread %u: %s", who, i + 1, strerror(e));
			/* Those created wait at the gate, not at a barrier that cannot fill. */
			set_gate(p, -1);
			for (unsigned k = 0; k < p->started; k++)
				pthread_join(p->threads[k], NULL);
			p->started = 0;
			return -1;
		}
		p->started++;
	}
	set_gate(p, 1);
	pthread_barrier_wait(&p->done);
	if (p->failed) {
		snprintf(err, errlen, "%s", p->why);
		return -1;
	}
	return 0;
}

void pinned_pool_run(struct pinned_pool *p)
{
	pthread_barrier_wait(&p->go);
	pthread_barrier_wait(&p->done);
}

void pinned_pool_stop(struct pinned_pool *p)
{
	if (!p->threads)
		return;
	if (p->started == p->n) {
		p->quit = true;
		pthread_barrier_wait(&p->go);
		for (unsigned i = 0; i < p->n; i++)
			pthread_join(p->threads[i], NULL);
	}
	/* else no thread runs: pinned_pool_start joined those it had created */
	pthread_barrier_destroy(&p->go);
	pthread_barrier_destroy(&p->done);
	pthread_mutex_destroy(&p->gate_lock);
	pthread_cond_destroy(&p->gate_moved);
	free(p->threads);
	memset(p, 0, sizeof(*p));
}
