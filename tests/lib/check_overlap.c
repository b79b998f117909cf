/* SPDX-License-Identifier: MIT */
/*
 * memmove with overlapping buffers: every delta -70..+70 at sizes 0..260,
 * then deltas of 1, 63, 64, 4000, 4095, 4096 and 4097 each way at sizes that
 * take the large-copy paths (4000 down: a destination below the source within
 * the copy, yet just past it modulo 4 KiB, where the loop must still go
 * forward).  The expected image is built with a copy between separate
 * buffers, so it does not depend on any memmove.
 */
#include <string.h>
#include "check.h"

#define SMALL_DELTA 70
#define SMALL_SIZE 260
#define LARGE_SIZE ((size_t)1024 * 1024 + 1)
#define MARGIN (4097 + CANARY + MAX_OFFSET) /* room for the largest delta and the canaries */

struct window {
	unsigned char *buf, *orig, *expect; /* 2 * MARGIN + LARGE_SIZE each */
};

static const struct window *window(void)
{
	static struct window w;
	size_t len = 2 * MARGIN + LARGE_SIZE;

	if (w.buf == NULL) {
		w.buf = map_or_die(len);
		w.orig = map_or_die(len);
		w.expect = map_or_die(len);
		fill_pattern(w.orig, len, 5);
		memcpy(w.buf, w.orig, len);
		memcpy(w.expect, w.orig, len);
	}
	return &w;
}

/* Moves n bytes from MARGIN + align to MARGIN + align + delta and checks the whole neighbourhood. */
static int one(const struct subject *s, const struct window *w, size_t n, long delta,
	       unsigned align)
{
	size_t from = MARGIN + align, to = (size_t)((long)from + delta);
	size_t lo = (to < from ? to : from) - CANARY, hi = (to > from ? to : from) + n + CANARY;
	void *ret;
	int bad = 0;

	memcpy(w->expect + to, w->orig + from, n);
	ret = s->fn(w->buf + to, w->buf + from, n);
	if (ret != w->buf + to)
		bad = report(s, "overlaps", "n=%zu delta=%ld: returned %p, not dst", n, delta, ret);
	else if (memcmp(w->buf + lo, w->expect + lo, hi - lo))
		bad = report(s, "overlaps", "n=%zu delta=%ld src%%64=%u: wrong bytes", n, delta,
			     align);
	memcpy(w->buf + lo, w->orig + lo, hi - lo);
	memcpy(w->expect + lo, w->orig + lo, hi - lo);
	return bad;
}

int check_overlaps(const struct subject *s)
{
	static const long large_deltas[] = { 1, 63, 64, 4000, 4095, 4096, 4097 };
	static const unsigned aligns[] = { 0, 1, 15, 31, 32, 63 };
	const struct window *w = window();
	int bad = 0;

	for (size_t n = 0; n <= SMALL_SIZE; n++)
		for (long delta = -SMALL_DELTA; delta <= SMALL_DELTA; delta++)
			for (size_t a = 0; a < sizeof(aligns) / sizeof(aligns[0]); a++)
				bad += one(s, w, n, delta, aligns[a]);
	for (unsigned k = 9; k <= 20; k++)
		for (size_t n = ((size_t)1 << k) - 1; n <= ((size_t)1 << k) + 1; n++)
			for (size_t d = 0; d < sizeof(large_deltas) / sizeof(large_deltas[0]); d++)
				for (size_t a = 0; a < sizeof(aligns) / sizeof(aligns[0]); a++) {
					bad += one(s, w, n, large_deltas[d], aligns[a]);
					bad += one(s, w, n, -large_deltas[d], aligns[a]);
				}
	return bad;
}
