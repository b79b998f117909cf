/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "copyperf.h"
#include "cache.h"
#include "counters.h"
#include "pattern.h"
#include "replay.h"
#include "routine_names.h"
#include "timing.h"
#include "user_backend.h"

/* Canary bytes checked on each side of the walked destination range. */
#define CANARY 64
/* Source data is pattern_byte(PATTERN_BIAS + offset), so negative offsets stay in range. */
#define PATTERN_BIAS 0x10000
#define COLD_DEFAULT_LLC (64ull << 20)

struct user_ctx {
	const struct options *o;
	const struct copyperf_routine **routines;
	const char **names;
	unsigned char *src_map, *dst_map; /* whole mappings */
	size_t map_len;
	unsigned char *src, *dst; /* page base + --align offset */
	size_t region;            /* walkable bytes from src and dst */
	size_t cursor;            /* cold: where the next measurement starts */
	struct counters *counters; /* NULL: not counting */
	struct counter_values last;
	bool *overlap_ok;          /* per routine */
	struct replay replay;      /* the replay being measured, if any */
};

static int resolve_routines(struct user_ctx *c, const struct options *o, char *err, size_t errlen)
{
	size_t total = copyperf_routine_count(), n = 0;

	c->routines = calloc(total + o->n_routines + 1, sizeof(*c->routines));
	c->names = calloc(total + o->n_routines + 1, sizeof(*c->names));
	if (!c->routines || !c->names) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (!o->routines) {
		for (size_t i = 0; i < total; i++)
			if (copyperf_routine_available(copyperf_routine_at(i)))
				c->routines[n++] = copyperf_routine_at(i);
	}
	for (size_t i = 0; i < o->n_routines; i++) {
		const struct copyperf_routine *r = copyperf_routine_find(o->routines[i]);

		if (!r) {
			for (size_t k = 0; k < total; k++)
				c->names[k] = copyperf_routine_at(k)->name;
			unknown_routine_error(err, errlen, "routine", o->routines[i], c->names,
					      total);
			return -1;
		}
		if (!copyperf_routine_available(r)) {
			snprintf(err, errlen, "--routines: '%s' does not run on this CPU", r->name);
			return -1;
		}
		c->routines[n++] = r;
	}
	for (size_t i = 0; i < n; i++)
		c->names[i] = c->routines[i]->name;
	return (int)n;
}

static size_t round_up(size_t v, size_t to)
{
	return (v + to - 1) / to * to;
}

/* A mapping with a spare page in front, so canaries before an offset-0 buffer exist. */
static unsigned char *map_buffer(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
		       -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memset(p, 0x5a, len); /* touch every page: no page fault is ever timed */
	return p;
}

static int allocate(struct user_ctx *c, const struct options *o, char *err, size_t errlen)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	c->region = o->buffer;
	if (o->cache == CACHE_COLD) {
		uint64_t llc = cache_last_level_size();

		/* src and dst each twice the LLC: the walk spans four times it */
		llc = 2 * (llc ? llc : COLD_DEFAULT_LLC);
		if (llc > c->region)
			c->region = llc;
	}
	c->map_len = round_up(page + o->align_src + o->align_dst + c->region + CANARY, page);
	c->src_map = map_buffer(c->map_len);
	c->dst_map = map_buffer(c->map_len);
	if (!c->src_map || !c->dst_map) {
		snprintf(err, errlen, "--buffer: cannot map two buffers of %zu bytes: %s", c->map_len,
			 strerror(errno));
		return -1;
	}
	c->src = c->src_map + page + o->align_src;
	c->dst = c->dst_map + page + o->align_dst;
	pattern_fill(c->src_map, c->map_len, PATTERN_BIAS - (page + o->align_src), 0);
	pattern_fill(c->dst_map, c->map_len, PATTERN_BIAS - (page + o->align_dst), 1);
	return 0;
}

static void flush_buffers(const struct user_ctx *c, size_t start, size_t len)
{
	cache_flush(c->src + start, len);
	cache_flush(c->dst + start, len);
}

/* The timed loop, as in the seed: walk the range chunk by chunk, wrap at its end. */
static double timed_walk(const struct user_ctx *c, copyperf_copy_fn fn, size_t start,
			 size_t walk, size_t chunk, uint64_t count)
{
	unsigned char *dst = c->dst + start;
	const unsigned char *src = c->src + start;
	enum cache_mode mode = c->o->cache;
	uint64_t paused = 0, t0;
	size_t pos = 0;

	__asm__ volatile("" : "+r"(fn)); /* the compiler may not see which function this is */
	t0 = now_ns();
	while (count--) {
		if (pos + chunk > walk) {
			pos = 0;
			if (mode == CACHE_FLUSH) {
				uint64_t p0 = now_ns();

				if (c->counters)
					counters_pause(c->counters);
				flush_buffers(c, start, walk);
				if (c->counters)
					counters_resume(c->counters);
				paused += now_ns() - p0;
			} else if (mode == CACHE_FLUSH_TIMED) {
				flush_buffers(c, start, walk);
			}
		}
		fn(dst + pos, src + pos, chunk);
		pos += chunk;
	}
	return (double)(now_ns() - t0 - paused) * 1e-9;
}

/* Checks dst[start, start+len) against the source and the canaries around it. */
static enum measure_status verify(const struct user_ctx *c, const char *name, size_t start,
				  size_t len, char *why, size_t whylen)
{
	const unsigned char *d = c->dst + start;
	size_t k = pattern_mismatch(d, len, PATTERN_BIAS + start, 0);

	if (k < len) {
		snprintf(why, whylen, "%s: wrong byte at offset %zu: 0x%02x, expected 0x%02x", name,
			 start + k, d[k], pattern_byte(PATTERN_BIAS + start + k));
		return MEASURE_WRONG;
	}
	/* The bytes just outside the copied range keep their old (inverted) values. */
	k = pattern_mismatch(d - CANARY, CANARY, PATTERN_BIAS + start - CANARY, 1);
	if (k < CANARY) {
		snprintf(why, whylen, "%s: wrote %zu bytes before the destination", name, CANARY - k);
		return MEASURE_WRONG;
	}
	k = pattern_mismatch(d + len, CANARY, PATTERN_BIAS + start + len, 1);
	if (k < CANARY) {
		snprintf(why, whylen, "%s: wrote past the copied range, at offset %zu", name,
			 start + len + k);
		return MEASURE_WRONG;
	}
	return MEASURE_OK;
}

/* A replay's measurement: the calls, passes times over, then every one of them checked. */
static enum measure_status replay_measure(struct user_ctx *c, const struct copyperf_routine *routine,
					  const struct workload *w, double *seconds, char *why,
					  size_t whylen)
{
	struct replay *rp = &c->replay;

	if (rp->l != w->calls) { /* the next workload: one arena at a time */
		if (rp->l)
			replay_close(rp);
		if (replay_open(rp, w->calls, why, whylen))
			return MEASURE_NO_MEMORY;
	}
	if (c->counters)
		counters_start(c->counters);
	*seconds = replay_timed(rp, routine->fn, call_list_passes(w->calls, c->o->total));
	if (c->counters)
		counters_stop(c->counters, &c->last);
	return replay_verify(rp, routine->name, routine->fn, why, whylen);
}

static enum measure_status user_measure(struct backend *b, size_t r, const struct workload *w,
					double *seconds, char *why, size_t whylen)
{
	struct user_ctx *c = b->ctx;
	const struct copyperf_routine *routine = c->routines[r];
	uint64_t chunk = w->chunk;
	uint64_t count;
	size_t walk, start = 0, touched;
	void *ret;

	if (w->calls)
		return replay_measure(c, routine, w, seconds, why, whylen);
	count = c->o->total / chunk;
	walk = c->region / chunk * chunk;
	if (c->o->cache == CACHE_COLD) {
		/* Start where the last measurement stopped: memory untouched for a region. */
		if (count * chunk < walk)
			walk = count * chunk;
		if (c->cursor + walk > c->region)
			c->cursor = 0;
		start = c->cursor;
		c->cursor += walk;
	}
	touched = count * chunk < walk ? count * chunk : walk;
	pattern_fill(c->dst + start - CANARY, touched + 2 * CANARY, PATTERN_BIAS + start - CANARY, 1);
	if (c->o->cache != CACHE_HOT && cache_flush_supported())
		flush_buffers(c, start, walk);

	if (c->counters)
		counters_start(c->counters);
	*seconds = timed_walk(c, routine->fn, start, walk, chunk, count);
	if (c->counters)
		counters_stop(c->counters, &c->last);

	if (verify(c, routine->name, start, touched, why, whylen) != MEASURE_OK)
		return MEASURE_WRONG;
	ret = routine->fn(c->dst + start, c->src + start, chunk); /* again, untimed: the result */
	if (ret != c->dst + start) {
		snprintf(why, whylen, "%s: returned %p, not the destination %p", routine->name, ret,
			 (void *)(c->dst + start));
		return MEASURE_WRONG;
	}
	return MEASURE_OK;
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

int user_backend_open(struct backend *b, const struct options *o, char *err, size_t errlen)
{
	struct user_ctx *c = backend_start(b, sizeof(*c), err, errlen);
	int n;

	if (!c)
		return -1;
	c->o = o;
	n = resolve_routines(c, o, err, errlen);
	if (n < 0 || (!o->distributions && allocate(c, o, err, errlen)))
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
	if (o->counters)
		open_counters(b, c);
	return 0;
}

void user_backend_close(struct backend *b)
{
	struct user_ctx *c = b->ctx;

	if (!c)
		return;
	if (c->src_map)
		munmap(c->src_map, c->map_len);
	if (c->dst_map)
		munmap(c->dst_map, c->map_len);
	if (c->counters) {
		counters_close(c->counters);
		free(c->counters);
	}
	if (c->replay.l)
		replay_close(&c->replay);
	free(c->overlap_ok);
	free(c->routines);
	free(c->names);
	free(c);
	b->ctx = NULL;
}
