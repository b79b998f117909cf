/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "interrupt.h"
#include "measure/placement/pages.h"
#include "pattern.h"
#include "replay.h"
#include "timing.h"

/*
 * Bytes on each side of a call's destination that must keep their values:
 * 512, the most any block or loop step of this project's copies stores at
 * once (eight 64-byte vectors); a stray write further away is seen only by
 * the whole arena's comparison, unless a later call covers it. The arena's
 * canary pages leave a page around every window.
 */
#define GUARD 512

/*
 * Every byte tells where it belongs; the destinations start out inverted, so a
 * call that copies nothing is seen. Also the state after a wrong routine: the
 * next one starts from a known arena, not from what the wrong one left.
 */
static void fill(struct replay *rp)
{
	const struct call_list *l = rp->l;

	pattern_fill(rp->arena, l->arena, 0, 0);
	if (l->dst_side != l->src_side)
		pattern_fill(rp->arena + l->dst_side, l->side, l->dst_side, 1);
	memcpy(rp->expect, rp->arena, l->arena);
	rp->arena_passes = rp->expect_passes = 0;
}

int replay_open(struct replay *rp, const struct call_list *l, const struct measure_params *params,
		struct page_usage *u, char *err, size_t errlen)
{
	memset(rp, 0, sizeof(*rp));
	rp->l = l;
	rp->pages = params->pages;
	rp->chained = params->chained;
	rp->tested = params->tested;
	/* the arena's pages are the ones measured; expect is only compared with them */
	if (!(rp->arena = pages_map(l->arena, params, 0, u, "--distribution", err, errlen)))
		return replay_close(rp), -1;
	rp->expect = pages_map(l->arena, params, 0, NULL, "--distribution", err, errlen);
	rp->before = malloc(l->largest + 2 * GUARD);
	rp->source = malloc(l->largest + 2 * GUARD);
	if (!rp->expect || !rp->before || !rp->source) {
		snprintf(err, errlen, "--distribution: cannot allocate the %zu bytes of a replay: %s",
			 2 * l->arena, strerror(errno ? errno : ENOMEM));
		replay_close(rp);
		return -1;
	}
	fill(rp); /* which also faults every page in */
	return 0;
}

void replay_close(struct replay *rp)
{
	pages_unmap(rp->arena, rp->l->arena, rp->pages);
	pages_unmap(rp->expect, rp->l->arena, rp->pages);
	free(rp->before);
	free(rp->source);
	memset(rp, 0, sizeof(*rp));
}

/* 0, read where the compiler cannot know it: what chains the calls adds nothing to an address. */
static volatile size_t chain_zero;

TIMED_LOOP bool replay_timed(struct replay *rp, copyperf_copy_fn fn, uint64_t passes)
{
	size_t zero = chain_zero;
	uint64_t p;

	__asm__ volatile("" : "+r"(fn)); /* the compiler may not see which function this is */
	for (p = 0; p < passes && !interrupt_signal(); p++)
		if (rp->chained && rp->tested)
			rp->last = call_list_pass_chained_tested(rp->arena, rp->l, fn, zero, rp->last);
		else if (rp->chained)
			rp->last = call_list_pass_chained(rp->arena, rp->l, fn, zero, rp->last);
		else if (rp->tested)
			call_list_pass_tested(rp->arena, rp->l, fn);
		else
			call_list_pass(rp->arena, rp->l, fn);
	rp->arena_passes += p;
	return p == passes;
}

/*
 * d's n bytes become the complement of s's, a word at a time (d and s apart):
 * the check below does this for every call it makes, as many bytes as the
 * call copies.
 */
static void complement_into(unsigned char *d, const unsigned char *s, size_t n)
{
	size_t k = 0;

	for (; k + sizeof(uint64_t) <= n; k += sizeof(uint64_t)) {
		uint64_t w;

		memcpy(&w, s + k, sizeof(w));
		w = ~w;
		memcpy(d + k, &w, sizeof(w));
	}
	for (; k < n; k++)
		d[k] = (unsigned char)~s[k];
}

static size_t first_difference(const unsigned char *a, const unsigned char *b, size_t n)
{
	size_t k = 0;

	while (k < n && a[k] == b[k])
		k++;
	return k;
}

/*
 * The first of the source window's win bytes from s, outside the destination's
 * window [d, d + win), that no longer holds what was holds: its offset, or win.
 * Those bytes lie before the destination's window, after it, or both.
 */
static size_t source_changed_at(const unsigned char *s, const unsigned char *was,
				const unsigned char *d, size_t win)
{
	size_t below = d <= s ? 0 : (size_t)(d - s) < win ? (size_t)(d - s) : win;
	size_t above = d + win <= s ? 0 : (size_t)(d + win - s) < win ? (size_t)(d + win - s) : win;

	if (memcmp(s, was, below))
		return first_difference(s, was, below);
	if (memcmp(s + above, was + above, win - above))
		return above + first_difference(s + above, was + above, win - above);
	return win;
}

/*
 * Why call i went wrong, as "NAME: call 12 of 65536 (size 37, source +4101,
 * destination +8200)" and what: offsets from the start of their sides.
 */
static bool call_wrong(const struct call_list *l, size_t i, const char *name, char *why,
		       size_t whylen, const char *what_fmt, ...) __attribute__((format(printf, 6, 7)));

static bool call_wrong(const struct call_list *l, size_t i, const char *name, char *why,
		       size_t whylen, const char *what_fmt, ...)
{
	const struct call *c = &l->calls[i];
	int w = snprintf(why, whylen, "%s: call %zu of %zu (size %u, source +%zu, destination +%zu)",
			 name, i, l->n, c->size, c->src - l->src_side, c->dst - l->dst_side);
	va_list ap;

	if (w > 0 && (size_t)w < whylen) {
		va_start(ap, what_fmt);
		vsnprintf(why + w, whylen - (size_t)w, what_fmt, ap);
		va_end(ap);
	}
	return false;
}

/* One call of the list made on its own and checked; false with the reason in why. */
static bool check_call(struct replay *rp, size_t i, const char *name, copyperf_copy_fn fn,
		       char *why, size_t whylen)
{
	const struct call_list *l = rp->l;
	const struct call *c = &l->calls[i];
	unsigned char *base = rp->arena, *d = base + c->dst - GUARD, *s = base + c->src - GUARD;
	/* call_list_build keeps sizes to CALL_MAX_SIZE: saying so lets a 32-bit compiler see the bound */
	size_t n = c->size <= CALL_MAX_SIZE ? c->size : CALL_MAX_SIZE, win = n + 2 * GUARD, k;
	void *ret;

	/* The canary pages around the sides keep both windows inside the arena. */
	memcpy(rp->before, d, win);
	memcpy(rp->source, s, win);
	/*
	 * A destination that already holds its source's bytes (an earlier call
	 * copied them) would pass a call that copies nothing: it holds their
	 * complement first, where that changes no source byte.
	 */
	if (!call_ranges_overlap(c->src, c->dst, n))
		complement_into(d + GUARD, s + GUARD, n);
	ret = fn(base + c->dst, base + c->src, n);
	if (ret != base + c->dst)
		return call_wrong(l, i, name, why, whylen, " returned %p, not the destination", ret);
	/* Around the source, what the destination's window does not cover is as it was. */
	k = source_changed_at(s, rp->source, d, win);
	if (k < win)
		return call_wrong(l, i, name, why, whylen, " changed the byte at %+ld from the source",
				  (long)k - GUARD);
	memcpy(rp->before + GUARD, rp->source + GUARD, n); /* what the window must hold now */
	if (!memcmp(d, rp->before, win))
		return true;
	k = first_difference(d, rp->before, win);
	if (k < GUARD)
		return call_wrong(l, i, name, why, whylen, " wrote %zu bytes before the destination",
				  GUARD - k);
	if (k >= GUARD + n)
		return call_wrong(l, i, name, why, whylen, " wrote past the destination, at +%zu",
				  k - GUARD);
	return call_wrong(l, i, name, why, whylen, ": wrong byte at +%zu: 0x%02x, expected 0x%02x",
			  k - GUARD, d[k], rp->before[k]);
}

/* Brings expect up to what the arena must hold: memmove's calls change their own sources. */
static void advance_expect(struct replay *rp)
{
	uint64_t want = rp->l->kind == DIST_MEMMOVE ? rp->arena_passes :
		rp->arena_passes ? 1 : 0; /* memcpy: sources never change, one pass says all */

	for (; rp->expect_passes < want; rp->expect_passes++)
		call_list_pass(rp->expect, rp->l, memmove);
}

enum measure_status replay_verify(struct replay *rp, const char *name, copyperf_copy_fn fn,
				  char *why, size_t whylen)
{
	const struct call_list *l = rp->l;
	unsigned char got = 0, want = 0;
	size_t k;

	advance_expect(rp);
	k = memcmp(rp->arena, rp->expect, l->arena) ? first_difference(rp->arena, rp->expect,
									  l->arena) : l->arena;
	if (k < l->arena) {
		got = rp->arena[k];
		want = rp->expect[k];
	}
	/* Each call on its own: the one that went wrong is named, when it does so again. */
	for (size_t i = 0; i < l->n; i++)
		if (!check_call(rp, i, name, fn, why, whylen)) {
			fill(rp);
			return MEASURE_WRONG;
		}
	rp->arena_passes++;
	if (k < l->arena) {
		snprintf(why, whylen, "%s: after the timed calls, byte %zu of the arena was 0x%02x, "
			 "expected 0x%02x (no call went wrong on its own)", name, k, got, want);
		fill(rp);
		return MEASURE_WRONG;
	}
	return MEASURE_OK;
}
