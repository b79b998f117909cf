/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "call_list.h"
#include "random.h"
#include "sizes.h"

/* The arena's unit: canary pages, and the largest alignment a call can ask for. */
#define PAGE 4096u

/*
 * Sizes in the proportions of the distribution, as nearly as n calls can
 * hold them (each size gets its cumulative share, rounded), then shuffled:
 * the mix is the recorded one, its order unpredictable.
 */
static void draw_sizes(struct call *c, size_t n, const struct distribution *d, struct rng *r)
{
	double cum = 0;
	size_t k = 0;

	for (size_t i = 0; i < d->n_sizes; i++) {
		size_t upto;

		cum += d->sizes[i].p;
		upto = i + 1 == d->n_sizes ? n : (size_t)(cum * (double)n + 0.5);
		for (; k < upto && k < n; k++)
			c[k].size = (uint32_t)d->sizes[i].value;
	}
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)rng_below(r, i + 1);
		uint32_t t = c[i].size;

		c[i].size = c[j].size;
		c[j].size = t;
	}
}

static uint64_t draw_align(const struct distribution *d, struct rng *r)
{
	double u = rng_unit(r), cum = 0;

	for (size_t i = 0; i + 1 < d->n_aligns; i++) {
		cum += d->aligns[i].p;
		if (u < cum)
			return d->aligns[i].value;
	}
	return d->aligns[d->n_aligns - 1].value;
}

/*
 * Offsets whose largest power-of-two divisor is a (a multiple of a from 64
 * up: recordings stop counting there): the first one, and one placed at
 * random so that n bytes from it stay inside span when they can.
 */
static uint64_t first_offset(uint64_t a)
{
	return a < 64 ? a : 0;
}

static uint64_t place(struct rng *r, uint64_t span, uint64_t n, uint64_t a)
{
	uint64_t step = a < 64 ? 2 * a : a, first = first_offset(a);

	if (first + n > span)
		return first;
	return first + rng_below(r, (span - n - first) / step + 1) * step;
}

/* memmove: dst at src + delta, delta in (-n, n), kept inside the side. */
static uint64_t place_overlapping(struct rng *r, uint64_t src, uint64_t n)
{
	uint64_t back = rng_below(r, 2 * n - 1); /* delta + n - 1 */

	if (back < n - 1 && src < n - 1 - back) /* would start before the side: mirror */
		back = 2 * (n - 1) - back;
	return src + back - (n - 1);
}

/* memmove, disjoint: elsewhere in the span, or right after the source when it will not go. */
static uint64_t place_apart(struct rng *r, uint64_t span, uint64_t src, uint64_t n, uint64_t a)
{
	for (int tries = 0; tries < 16; tries++) {
		uint64_t dst = place(r, span, n, a);

		if (!call_ranges_overlap(src, dst, n))
			return dst;
	}
	return round_up(src + n, 64) + first_offset(a);
}

/* The part of a call list both layouts share: the size check, kind and layout. */
static int list_start(struct call_list *l, const struct distribution *d, enum call_layout layout,
		      char *err, size_t errlen)
{
	memset(l, 0, sizeof(*l));
	if (d->max_size > CALL_MAX_SIZE) {
		snprintf(err, errlen, "%s:%u:%u: size %llu is larger than the working set allows "
			 "(a call may copy at most %llu bytes)", d->path, d->largest->line,
			 d->largest->column, (unsigned long long)d->max_size,
			 (unsigned long long)CALL_MAX_SIZE);
		return -1;
	}
	l->kind = d->kind;
	l->layout = layout;
	return 0;
}

/* Sets the arena's size from its sides; -1 with the reason where offsets cannot reach it. */
static int list_arena(struct call_list *l, const struct distribution *d, uint64_t working_set,
		      char *err, size_t errlen)
{
	l->arena = l->dst_side + l->side + PAGE;
	if (l->arena > UINT32_MAX) {
		snprintf(err, errlen, "%s: a working set of %llu bytes and calls of up to %llu bytes "
			 "need more than the 4 GiB a replay addresses", d->path,
			 (unsigned long long)working_set, (unsigned long long)d->max_size);
		return -1;
	}
	return 0;
}

static int list_calls(struct call_list *l, size_t n, char *err, size_t errlen)
{
	l->n = n;
	l->calls = calloc(n ? n : 1, sizeof(*l->calls));
	if (!l->calls) {
		snprintf(err, errlen, "out of memory for %zu calls", n);
		return -1;
	}
	return 0;
}

/* Files call c's offsets (from the start of their sides) and adds it to the list's counts. */
static void list_add(struct call_list *l, struct call *c, uint64_t src, uint64_t dst)
{
	c->src = (uint32_t)(l->src_side + src);
	c->dst = (uint32_t)(l->dst_side + dst);
	l->bytes += c->size;
	if (c->size > l->largest)
		l->largest = c->size;
	l->overlapping += l->kind == DIST_MEMMOVE && call_ranges_overlap(src, dst, c->size);
}

int call_list_build(struct call_list *l, const struct distribution *d, uint64_t working_set,
		    uint64_t seed, size_t n, char *err, size_t errlen)
{
	struct rng r = { seed };
	bool move = d->kind == DIST_MEMMOVE;
	uint64_t max_align = d->aligns[d->n_aligns - 1].value;

	if (list_start(l, d, CALLS_SPREAD, err, errlen))
		return -1;
	l->span = move ? working_set : working_set / 2;
	/* Room for the span, then the longest call from its end (memmove: and its partner). */
	l->side = round_up(l->span + (move ? 2 : 1) * (d->max_size + max_align + 64), PAGE);
	l->src_side = PAGE;
	l->dst_side = move ? PAGE : PAGE + l->side + PAGE;
	if (list_arena(l, d, working_set, err, errlen) || list_calls(l, n, err, errlen))
		return -1;
	draw_sizes(l->calls, n, d, &r);
	for (size_t i = 0; i < n; i++) {
		struct call *c = &l->calls[i];
		uint64_t src = place(&r, l->span, c->size, draw_align(d, &r)), dst;

		if (!move)
			dst = place(&r, l->span, c->size, draw_align(d, &r));
		else if (c->size && rng_unit(&r) < d->overlap)
			dst = place_overlapping(&r, src, c->size);
		else
			dst = place_apart(&r, l->span, src, c->size, draw_align(d, &r));
		list_add(l, c, src, dst);
	}
	return 0;
}

int call_list_build_stream(struct call_list *l, const struct distribution *d,
			   uint64_t working_set, uint64_t seed, char *err, size_t errlen)
{
	struct rng r = { seed };
	bool move = d->kind == DIST_MEMMOVE;
	uint64_t max_align = d->aligns[d->n_aligns - 1].value, src_at = 0, dst_at = 0, dst_base;
	double want;
	size_t n, i;

	if (list_start(l, d, CALLS_STREAM, err, errlen))
		return -1;
	if (!(d->mean_size > 0)) {
		snprintf(err, errlen, "%s: every call copies 0 bytes: a stream has nothing to walk",
			 d->path);
		return -1;
	}
	l->span = working_set / 2;
	want = call_list_stream_calls(d, working_set);
	if (!call_list_stream_fits(d, working_set)) {
		snprintf(err, errlen, "%s: calls of %.1f bytes on average would take more than %u "
			 "calls to walk %llu bytes as a stream", d->path, d->mean_size,
			 CALL_LIST_STREAM_CALLS, (unsigned long long)l->span);
		return -1;
	}
	n = (size_t)want;
	/* memmove: the source walk, then the destination walk, in the one side */
	dst_base = move ? round_up(l->span + d->max_size + max_align, PAGE) : 0;
	l->side = round_up(dst_base + l->span + d->max_size + max_align + 64, PAGE);
	l->src_side = PAGE;
	l->dst_side = move ? PAGE : PAGE + l->side + PAGE;
	if (list_arena(l, d, working_set, err, errlen) || list_calls(l, n, err, errlen))
		return -1;
	draw_sizes(l->calls, n, d, &r);
	for (i = 0; i < n; i++) {
		struct call *c = &l->calls[i];
		uint64_t src = round_up(src_at, draw_align(d, &r)), dst;
		bool overlap = move && c->size && rng_unit(&r) < d->overlap;

		dst = overlap ? place_overlapping(&r, src, c->size)
			      : dst_base + round_up(dst_at, draw_align(d, &r));
		if (src + c->size > l->span || (!overlap && dst - dst_base + c->size > l->span))
			break; /* the walk's end: the next pass starts again from the first call */
		list_add(l, c, src, dst);
		src_at = src + c->size;
		if (!overlap)
			dst_at = dst - dst_base + c->size;
	}
	l->n = i;
	return 0;
}

void call_list_free(struct call_list *l)
{
	free(l->calls);
	memset(l, 0, sizeof(*l));
}
