/* SPDX-License-Identifier: MIT */
/*
 * Threads pinned one to a CPU, each running the caller's code: open once
 * (after pinning, so what it maps and touches is on its CPU's node), then
 * the job at every release, close at the end. A release is two barriers
 * with the caller, which sleeps in between. copyperf -j (thread_pool.c) and
 * make bench's threads table (bench/all_cpus.c) both run on it.
 */
#ifndef COPYPERF_PINNED_POOL_H
#define COPYPERF_PINNED_POOL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

struct pinned_pool_ops {
	/* In worker i, pinned: 0, or -1 with a one-line reason in why. */
	int (*open)(void *ctx, unsigned i, char *why, size_t whylen);
	void (*job)(void *ctx, unsigned i);  /* one release's work */
	void (*close)(void *ctx, unsigned i); /* after the last release, even if open failed */
};

struct pinned_pool {
	unsigned n;           /* workers */
	const int *cpus;      /* the CPU of each */
	const struct pinned_pool_ops *ops;
	void *ctx;
	const char *who;      /* what its own messages start with: an option, a program */
	pthread_t *threads;
	unsigned started;     /* threads created and running; all of them wait at go when == n */
	pthread_barrier_t go, done; /* n + 1 each: the workers and the caller */
	/*
	 * Shut until every thread is created: then open (1), or, when one could
	 * not be, closed for good (-1) and those created return at once.
	 */
	pthread_mutex_t gate_lock;
	pthread_cond_t gate_moved;
	int gate;
	bool quit;
	int failed;           /* 1 + the first worker whose pinning or open failed, 0: none */
	char why[320];        /* its reason */
};

/*
 * Starts n workers on cpus[0..n-1] and waits until each has opened. 0, or -1
 * with a one-line reason in err ("WHO: cannot run thread 2 on CPU 5: ...", or
 * the open's own); pinned_pool_stop must follow either way.
 */
int pinned_pool_start(struct pinned_pool *p, const char *who, const int *cpus, unsigned n,
		      const struct pinned_pool_ops *ops, void *ctx, char *err, size_t errlen);

/* Every worker runs the job once; returns when all have. */
void pinned_pool_run(struct pinned_pool *p);

void pinned_pool_stop(struct pinned_pool *p);

#endif
