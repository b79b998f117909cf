/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "all_cpus.h"
#include "measure/cpu_order.h"
#include "measure/timing.h"

struct worker {
	struct all_cpus *pool;
	pthread_t thread;
	unsigned char *src, *dst;
	uint64_t start, end; /* ns, of the last copy run */
	int ok;              /* its buffers are mapped */
};

struct all_cpus {
	unsigned n;
	size_t buffer;
	pthread_barrier_t go, done;
	all_cpus_copy_fn fn; /* what the next release runs; NULL: quit */
	size_t size, bytes;
	struct worker w[];
};

static void *map_touched(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memset(p, 0x5a, len); /* by this thread: its pages, on its node */
	return p;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct all_cpus *p = w->pool;

	w->src = map_touched(p->buffer);
	w->dst = map_touched(p->buffer);
	w->ok = w->src && w->dst;
	pthread_barrier_wait(&p->done); /* ready */
	for (;;) {
		all_cpus_copy_fn volatile call;
		size_t count;

		pthread_barrier_wait(&p->go);
		if (p->fn == NULL)
			break;
		call = p->fn;
		count = p->bytes / p->size;
		w->start = now_ns();
		for (size_t i = 0; i < count; i++)
			call(w->dst, w->src, p->size);
		w->end = now_ns();
		pthread_barrier_wait(&p->done);
	}
	if (w->src)
		munmap(w->src, p->buffer);
	if (w->dst)
		munmap(w->dst, p->buffer);
	return NULL;
}

unsigned all_cpus_online(void)
{
	int cpus[CPU_SETSIZE];
	long n = cpu_order_read(cpus, CPU_SETSIZE);

	return n > 0 ? (unsigned)n : 0;
}

struct all_cpus *all_cpus_start(size_t buffer)
{
	static int cpus[CPU_SETSIZE];
	struct all_cpus *p;
	long got = cpu_order_read(cpus, CPU_SETSIZE);
	unsigned n = got > 0 ? (unsigned)got : 0, ok = 1;

	if (n == 0) {
		fprintf(stderr, "copybench: cannot read this process's CPUs\n");
		return NULL;
	}
	p = calloc(1, sizeof(*p) + n * sizeof(p->w[0]));
	if (p == NULL)
		return NULL;
	p->n = n;
	p->buffer = buffer;
	p->fn = NULL;
	pthread_barrier_init(&p->go, NULL, n + 1);
	pthread_barrier_init(&p->done, NULL, n + 1);
	for (unsigned k = 0; k < n; k++) {
		pthread_attr_t attr;
		cpu_set_t one;

		CPU_ZERO(&one);
		CPU_SET(cpus[k], &one);
		pthread_attr_init(&attr);
		pthread_attr_setaffinity_np(&attr, sizeof(one), &one);
		p->w[k].pool = p;
		if (pthread_create(&p->w[k].thread, &attr, work, &p->w[k]) != 0) {
			fprintf(stderr, "copybench: cannot start a thread on CPU %d\n", cpus[k]);
			exit(1); /* the barrier counts on every worker */
		}
		pthread_attr_destroy(&attr);
	}
	pthread_barrier_wait(&p->done);
	for (unsigned k = 0; k < n; k++)
		ok &= (unsigned)p->w[k].ok;
	if (!ok) {
		fprintf(stderr, "copybench: cannot map 2 x %zu bytes on each of %u CPUs\n", buffer, n);
		all_cpus_stop(p);
		return NULL;
	}
	return p;
}

unsigned all_cpus_count(const struct all_cpus *p)
{
	return p->n;
}

double all_cpus_copy(struct all_cpus *p, all_cpus_copy_fn fn, size_t size, size_t bytes)
{
	uint64_t first, last;

	p->fn = fn;
	p->size = size;
	p->bytes = bytes < size ? size : bytes;
	pthread_barrier_wait(&p->go);
	pthread_barrier_wait(&p->done);
	first = p->w[0].start;
	last = p->w[0].end;
	for (unsigned k = 1; k < p->n; k++) {
		first = p->w[k].start < first ? p->w[k].start : first;
		last = p->w[k].end > last ? p->w[k].end : last;
	}
	return (double)(last - first) * 1e-9;
}

void all_cpus_stop(struct all_cpus *p)
{
	p->fn = NULL;
	pthread_barrier_wait(&p->go);
	for (unsigned k = 0; k < p->n; k++)
		pthread_join(p->w[k].thread, NULL);
	pthread_barrier_destroy(&p->go);
	pthread_barrier_destroy(&p->done);
	free(p);
}
