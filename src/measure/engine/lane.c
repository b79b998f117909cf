/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "interrupt.h"
#include "lane.h"
#include "measure/hardware/cache.h"
#include "pattern.h"
#include "sizes.h"
#include "timing.h"

/* Canary bytes checked on each side of the walked destination range. */
#define CANARY 64
/* Source data is pattern_byte(PATTERN_BIAS + offset), so negative offsets stay in range. */
#define PATTERN_BIAS 0x10000

/* A spare page in front of each buffer, so canaries before an offset-0 buffer exist. */
size_t lane_map_length(const struct measure_params *params)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return round_up(page + params->align_src + params->align_dst + (size_t)params->buffer + CANARY,
			page);
}

int lane_open(struct lane *l, const struct measure_params *params, char *err, size_t errlen)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), ref_len;

	memset(l, 0, sizeof(*l));
	l->params = params;
	if (params->distributions)
		return 0;
	l->region = (size_t)params->buffer;
	l->map_len = lane_map_length(params);
	l->src_map = pages_map(l->map_len, params, 0x5a, &l->pages, "--buffer", err, errlen);
	l->dst_map = l->src_map ? pages_map(l->map_len, params, 0x5a, &l->pages, "--buffer", err, errlen)
				: NULL;
	if (!l->src_map || !l->dst_map)
		return -1;
	l->src = l->src_map + page + params->align_src;
	l->dst = l->dst_map + page + params->align_dst;
	/* Needed only where a walk wraps, so only as long as what one measurement copies. */
	ref_len = (size_t)(params->total < params->buffer ? params->total : params->buffer);
	l->ref_start = SIZE_MAX;
	if (!(l->ref = malloc(ref_len))) {
		snprintf(err, errlen, "--buffer: no memory for the %zu bytes the passes are checked against",
			 ref_len);
		return -1;
	}
	pattern_fill(l->src_map, l->map_len, PATTERN_BIAS - (page + params->align_src), 0);
	pattern_fill(l->dst_map, l->map_len, PATTERN_BIAS - (page + params->align_dst), 1);
	if (params->cache == CACHE_COLD && !cache_flush_supported() && cache_evictor_open(&l->evict)) {
		snprintf(err, errlen,
			 "--cache cold: cannot map %llu bytes to push the buffers out of the cache "
			 "(no cache flush on this architecture): %s",
			 (unsigned long long)cache_cold_bytes(), strerror(errno));
		return -1;
	}
	return 0;
}

void lane_close(struct lane *l)
{
	pages_unmap(l->src_map, l->map_len, l->params ? l->params->pages : PAGES_DEFAULT);
	pages_unmap(l->dst_map, l->map_len, l->params ? l->params->pages : PAGES_DEFAULT);
	cache_evictor_close(&l->evict);
	free(l->ref);
	if (l->replay.l)
		replay_close(&l->replay);
	memset(l, 0, sizeof(*l));
}

static void flush_buffers(const struct lane *l, size_t start, size_t len)
{
	cache_flush(l->src + start, len);
	cache_flush(l->dst + start, len);
}

enum measure_status lane_prepare(struct lane *l, const struct workload *w, char *why,
				 size_t whylen)
{
	const struct measure_params *params = l->params;
	uint64_t chunk = w->chunk;

	if (w->calls) {
		if (l->replay.l == w->calls)
			return MEASURE_OK;
		if (l->replay.l) /* the next workload: one arena at a time */
			replay_close(&l->replay);
		return replay_open(&l->replay, w->calls, params, &l->pages, why, whylen) ? MEASURE_NO_MEMORY
											: MEASURE_OK;
	}
	l->count = params->total / chunk;
	l->walk = l->region / chunk * chunk;
	l->start = 0;
	if (params->cache == CACHE_COLD) {
		/* Start where the last measurement stopped: memory untouched for a region. */
		if (l->count * chunk < l->walk)
			l->walk = l->count * chunk;
		if (l->cursor + l->walk > l->region)
			l->cursor = 0;
		l->start = l->cursor;
		/* Whole pages on: every measurement at the alignment -a asked for. */
		l->cursor += round_up(l->walk, (size_t)sysconf(_SC_PAGESIZE));
	}
	l->touched = l->count * chunk < l->walk ? l->count * chunk : l->walk;
	l->wrong_pass_at = SIZE_MAX;
	if (l->count * chunk > l->walk && (l->ref_start != l->start || l->ref_len < l->walk)) {
		/* a wrap: passes checked, against a walk no shorter than this one */
		pattern_fill(l->ref, l->walk, PATTERN_BIAS + l->start, 0);
		l->ref_start = l->start;
		l->ref_len = l->walk;
	}
	l->checked_in_walk = pattern_pass_checked_in_walk(params->cache == CACHE_HOT, l->walk);
	pattern_fill(l->dst + l->start - CANARY, l->touched + 2 * CANARY,
		     PATTERN_BIAS + l->start - CANARY, 1);
	if (params->cache != CACHE_HOT && cache_flush_supported())
		flush_buffers(l, l->start, l->walk);
	else if (params->cache == CACHE_COLD) /* the destination just written, out again */
		cache_evict(&l->evict);
	return MEASURE_OK;
}

/*
 * What the timed walk does at a wrap but for the signal test, out of its loop
 * (an 8-byte copy is six cycles, and the loop's code counts): the pass check
 * with the timer and counters paused, the flush.  False when the pass was wrong.
 */
static __attribute__((noinline)) bool at_wrap(struct lane *l, struct counters *counters,
					      struct lane_time *t)
{
	unsigned char *dst = l->dst + l->start;
	enum cache_mode mode = l->params->cache;

	if (l->checked_in_walk) {
		uint64_t p0 = now_ns();
		size_t bad;
		bool wrong;

		if (counters)
			counters_pause(counters);
		bad = pattern_pass_check(dst, l->ref, l->walk);
		wrong = bad < l->walk;
		if (wrong)
			l->wrong_pass_at = bad;
		if (!wrong && mode == CACHE_FLUSH)
			flush_buffers(l, l->start, l->walk);
		if (counters)
			counters_resume(counters);
		t->paused += now_ns() - p0;
		if (wrong)
			return false;
	}
	if (mode == CACHE_FLUSH_TIMED)
		flush_buffers(l, l->start, l->walk);
	return true;
}

/*
 * The timed loop, as in the seed: walk the range chunk by chunk, wrap at its
 * end.  With l->checked_in_walk, at each wrap, the timer paused, the pass
 * just made is checked against the lane's copy of the source and its
 * destination set back to the complement (pattern_pass_check); a wrong pass
 * ends the walk for lane_verify to report.  That is every mode but hot with
 * short passes, where the pause's clock read would be a visible part of the
 * time (pattern.h): there lane_verify makes the same calls again in
 * checked_walk.  False when a signal (interrupt.h) stopped the walk, at a
 * wrap: a measurement of 1 TiB need not run to its end after a Ctrl-C.
 */
static TIMED_LOOP bool timed_walk(struct lane *l, copyperf_copy_fn fn, size_t chunk,
				  struct counters *counters, struct lane_time *t)
{
	unsigned char *dst = l->dst + l->start;
	const unsigned char *src = l->src + l->start;
	bool wrap_work = l->checked_in_walk || l->params->cache == CACHE_FLUSH_TIMED;
	uint64_t count = l->count;
	size_t pos = 0, walk = l->walk;

	__asm__ volatile("" : "+r"(fn)); /* the compiler may not see which function this is */
	t->paused = 0;
	t->t0 = now_ns();
	while (count--) {
		if (pos + chunk > walk) {
			/* At this point: pos == walk, a whole pass copied. */
			if (interrupt_signal())
				return false;
			if (wrap_work && !at_wrap(l, counters, t))
				break;
			pos = 0;
		}
		fn(dst + pos, src + pos, chunk);
		pos += chunk;
	}
	t->t1 = now_ns();
	l->last_pass = pos;
	return true;
}

/*
 * The timed walk's calls made again, untimed, each pass checked at its wrap
 * as the timed walk does elsewhere; the timed loop is kept apart from it, as
 * small as it was (an 8-byte copy is six cycles: the loop's code counts).
 */
static bool checked_walk(struct lane *l, copyperf_copy_fn fn, size_t chunk)
{
	unsigned char *dst = l->dst + l->start;
	const unsigned char *src = l->src + l->start;
	size_t pos = 0;

	for (uint64_t count = l->count; count; count--) {
		if (pos + chunk > l->walk) {
			if (interrupt_signal())
				return false;
			size_t bad = pattern_pass_check(dst, l->ref, l->walk);

			if (bad < l->walk) {
				l->wrong_pass_at = bad;
				break;
			}
			pos = 0;
		}
		fn(dst + pos, src + pos, chunk);
		pos += chunk;
	}
	l->last_pass = pos;
	return true;
}

bool lane_timed(struct lane *l, copyperf_copy_fn fn, const struct workload *w,
		struct counters *counters, struct lane_time *t)
{
	bool whole;

	if (!w->calls)
		return timed_walk(l, fn, w->chunk, counters, t);
	t->paused = 0;
	t->t0 = now_ns();
	whole = replay_timed(&l->replay, fn, call_list_passes(w->calls, l->params->total));
	t->t1 = now_ns();
	return whole;
}

static enum measure_status wrong_byte(const struct lane *l, const char *name, size_t at, char *why,
				      size_t whylen)
{
	snprintf(why, whylen, "%s: wrong byte at offset %zu: 0x%02x, expected 0x%02x", name, at,
		 l->dst[at], pattern_byte(PATTERN_BIAS + at));
	return MEASURE_WRONG;
}

/*
 * The source over the walk and its canaries, as it was filled: a routine only
 * reads it.  One that writes it (its arguments swapped, say) fails the passes'
 * check too, which compares them with the lane's copy; this says what it did.
 */
static enum measure_status source_intact(struct lane *l, const char *name, char *why,
					 size_t whylen)
{
	const unsigned char *from = l->src + l->start - CANARY;
	size_t len = l->touched + 2 * CANARY;
	size_t k = pattern_mismatch(from, len, PATTERN_BIAS + l->start - CANARY, 0);

	if (k < len) {
		snprintf(why, whylen, "%s: changed its source, at offset %lld", name,
			 (long long)l->start - CANARY + (long long)k);
		/* as it was, for the routines measured next */
		pattern_fill(l->src + l->start - CANARY, len, PATTERN_BIAS + l->start - CANARY, 0);
		return MEASURE_WRONG;
	}
	return MEASURE_OK;
}

/* Checks dst[start, start+len) against the source and the canaries around it. */
static enum measure_status verify(const struct lane *l, const char *name, size_t start,
				  size_t len, char *why, size_t whylen)
{
	const unsigned char *d = l->dst + start;
	size_t k = pattern_mismatch(d, len, PATTERN_BIAS + start, 0);

	if (k < len)
		return wrong_byte(l, name, start + k, why, whylen);
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

/* What a checked walk left: its last pass, and after a wrap the complement past it. */
static enum measure_status last_pass_right(const struct lane *l, const char *name, char *why,
					   size_t whylen)
{
	size_t from = l->start + l->last_pass, rest = l->touched - l->last_pass + CANARY, k;

	if (verify(l, name, l->start, l->last_pass, why, whylen) != MEASURE_OK)
		return MEASURE_WRONG;
	if (l->last_pass == l->touched)
		return MEASURE_OK;
	k = pattern_mismatch(l->dst + from, rest, PATTERN_BIAS + from, 1);
	if (k < rest) {
		snprintf(why, whylen, "%s: wrote past the copied range, at offset %zu", name,
			 from + k);
		return MEASURE_WRONG;
	}
	return MEASURE_OK;
}

enum measure_status lane_verify(struct lane *l, const struct copyperf_routine *routine,
				const struct workload *w, char *why, size_t whylen)
{
	void *ret;

	if (w->calls)
		return replay_verify(&l->replay, routine->name, routine->fn, why, whylen);
	if (!l->checked_in_walk && l->count * w->chunk > l->walk) {
		/*
		 * Passes went unseen. What the timed walk left first (each byte holds
		 * its last copy: the last pass, and the one before past it), then the
		 * same calls again, each pass checked (the check only resets here).
		 */
		if (source_intact(l, routine->name, why, whylen) != MEASURE_OK ||
		    verify(l, routine->name, l->start, l->touched, why, whylen) != MEASURE_OK)
			return MEASURE_WRONG;
		pattern_pass_check(l->dst + l->start, l->ref, l->walk);
		if (!checked_walk(l, routine->fn, w->chunk)) {
			snprintf(why, whylen, "%s: stopped by a signal", routine->name);
			return MEASURE_ERROR;
		}
	}
	/* A wrong pass found by a walk's check stays wrong, whatever the later bytes say. */
	if (source_intact(l, routine->name, why, whylen) != MEASURE_OK)
		return MEASURE_WRONG;
	if (l->wrong_pass_at != SIZE_MAX)
		return wrong_byte(l, routine->name, l->start + l->wrong_pass_at, why, whylen);
	if (last_pass_right(l, routine->name, why, whylen) != MEASURE_OK)
		return MEASURE_WRONG;
	ret = routine->fn(l->dst + l->start, l->src + l->start, w->chunk); /* untimed: the result */
	if (ret != l->dst + l->start) {
		snprintf(why, whylen, "%s: returned %p, not the destination %p", routine->name, ret,
			 (void *)(l->dst + l->start));
		return MEASURE_WRONG;
	}
	return MEASURE_OK;
}
