/* SPDX-License-Identifier: MIT */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "all_cpus.h"
#include "measure/engine/timing.h"
#include "measure/placement/cpu_order.h"
#include "measure/placement/pinned_pool.h"

struct worker {
	unsigned char *src, *dst;
	uint64_t start, end; /* ns, of the last copy run */
};

struct all_cpus {
	struct pinned_pool pool;
	int cpus[CPU_SETSIZE];
	size_t buffer;
	all_cpus_copy_fn fn; /* what the next release runs */
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

static int open_buffers(void *ctx, unsigned i, char *why, size_t whylen)
{
	struct all_cpus *p = ctx;
	struct worker *w = &p->w[i];

	w->src = map_touched(p->buffer);
	w->dst = map_touched(p->buffer);
	if (w->src && w->dst)
		return 0;
	snprintf(why, whylen, "copybench: cannot map 2 x %zu bytes on CPU %d", p->buffer, p->cpus[i]);
	return -1;
}

static TIMED_LOOP void copy_again_and_again(void *ctx, unsigned i)
{
	struct all_cpus *p = ctx;
	struct worker *w = &p->w[i];
	all_cpus_copy_fn volatile call = p->fn;
	size_t count = p->bytes / p->size;

	w->start = now_ns();
	for (size_t k = 0; k < count; k++)
		call(w->dst, w->src, p->size);
	w->end = now_ns();
}

static void close_buffers(void *ctx, unsigned i)
{
	struct all_cpus *p = ctx;
	struct worker *w = &p->w[i];

	if (w->src)
		munmap(w->src, p->buffer);
	if (w->dst)
		munmap(w->dst, p->buffer);
}

static const struct pinned_pool_ops buffer_ops = { open_buffers, copy_again_and_again, close_buffers };

unsigned all_cpus_online(void)
{
	int cpus[CPU_SETSIZE];
	long n = cpu_order_read(cpus, CPU_SETSIZE);

	return n > 0 ? (unsigned)n : 0;
}

struct all_cpus *all_cpus_start(size_t buffer)
{
	unsigned n = all_cpus_online();
	struct all_cpus *p = n ? calloc(1, sizeof(*p) + n * sizeof(p->w[0])) : NULL;
	char err[400];

	if (n == 0) {
		fprintf(stderr, "copybench: cannot read this process's CPUs\n");
		return NULL;
	}
	if (p == NULL || cpu_order_read(p->cpus, CPU_SETSIZE) != (long)n) {
		fprintf(stderr, "copybench: cannot set up %u CPUs\n", n);
		free(p);
		return NULL;
	}
	p->buffer = buffer;
	if (pinned_pool_start(&p->pool, "copybench", p->cpus, n, &buffer_ops, p, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		all_cpus_stop(p);
		return NULL;
	}
	return p;
}

unsigned all_cpus_count(const struct all_cpus *p)
{
	return p->pool.n;
}

double all_cpus_copy(struct all_cpus *p, all_cpus_copy_fn fn, size_t size, size_t bytes)
{
	uint64_t first, last;

	p->fn = fn;
	p->size = size;
	p->bytes = bytes < size ? size : bytes;
	pinned_pool_run(&p->pool);
	first = p->w[0].start;
	last = p->w[0].end;
	for (unsigned k = 1; k < p->pool.n; k++) {
		first = p->w[k].start < first ? p->w[k].start : first;
		last = p->w[k].end > last ? p->w[k].end : last;
	}
	return (double)(last - first) * 1e-9;
}

unsigned char *all_cpus_buffer(struct all_cpus *p, unsigned i, int which)
{
	return which ? p->w[i].dst : p->w[i].src;
}

void all_cpus_stop(struct all_cpus *p)
{
	pinned_pool_stop(&p->pool);
	free(p);
}
