/* SPDX-License-Identifier: MIT */
/*
 * A copy onto itself (dst == src): what compilers emit for a struct assigned
 * to itself, and what GCC and LLVM expect memcpy to survive.  The bytes must
 * stay as they were; a copy that zeroes destination lines before reading
 * them (PowerPC dcbz, AArch64 dc zva) would destroy them.  Every size
 * 0..SMALL_MAX at offsets 0..63, then the powers of two from 1 KiB to 1 MiB
 * (past every line and block path's start), each also -1 and +1, at three
 * offsets.
 *
 * Overlapping by a few bytes (undefined for memcpy, yet done: the shim's
 * mempcpy is libcopyperf's memcpy): the order of the bytes is the caller's
 * problem, but a copy that zeroes destination lines before it has read the
 * source bytes in them hands back zeroes that were nowhere in the source.
 */
#include <stdint.h>
#include <string.h>
#include "check.h"

#define IN_PLACE_MAX_LOG2 20
#define OVERLAPPING_MAX_LOG2 14 /* past dcbz's and dc zva's starts, with whole blocks */

/* One copy of n bytes at buf + CANARY + align onto itself; buf is image's copy, and is again after. */
static int one(const struct subject *s, unsigned char *buf, const unsigned char *image, size_t n,
	       unsigned align)
{
	unsigned char *p = buf + CANARY + align;
	size_t span = CANARY + align + n + CANARY;
	void *ret = s->fn(p, p, n);
	int bad = 0;

	if (ret != p)
		bad = report(s, "in place", "n=%zu: returned %p, not dst %p", n, ret, (void *)p);
	else if (memcmp(buf, image, span))
		bad = report(s, "in place", "n=%zu dst%%64=%u: byte %zu changed", n,
			     (unsigned)((uintptr_t)p % 64),
			     first_difference(buf, image, span) - (CANARY + align));
	if (bad)
		memcpy(buf, image, span);
	return bad;
}

int check_in_place(const struct subject *s)
{
	static unsigned char *buf, *image;
	size_t len = 2 * CANARY + MAX_OFFSET + ((size_t)1 << IN_PLACE_MAX_LOG2) + 1;
	int defects = 0;

	if (buf == NULL) {
		buf = map_or_die(len);
		image = map_or_die(len);
		fill_pattern(image, len, 9);
		memcpy(buf, image, len);
	}
	for (size_t n = 0; n <= SMALL_MAX; n++)
		for (unsigned align = 0; align < MAX_OFFSET; align++)
			defects += one(s, buf, image, n, align);
	for (unsigned k = 10; k <= IN_PLACE_MAX_LOG2; k++)
		for (size_t n = ((size_t)1 << k) - 1; n <= ((size_t)1 << k) + 1; n++) {
			defects += one(s, buf, image, n, 0);
			defects += one(s, buf, image, n, 1);
			defects += one(s, buf, image, n, MAX_OFFSET - 1);
		}
	return defects;
}

/* n bytes from p to p + shift, in zero-free bytes: the destination must hold no zero after. */
static int one_overlapping(const struct subject *s, unsigned char *buf, const unsigned char *image,
			   size_t n, long shift)
{
	unsigned char *src = buf + CANARY + 256, *dst = src + shift;
	size_t span = CANARY + 256 + n + 256 + CANARY;
	unsigned char *zero;
	int bad = 0;

	s->fn(dst, src, n);
	zero = memchr(dst, 0, n);
	if (zero)
		bad = report(s, "overlapping", "n=%zu dst=src%+ld: byte %zu is 0, in no source byte",
			     n, shift, (size_t)(zero - dst));
	memcpy(buf, image, span);
	return bad;
}

int check_overlapping_no_zeroes(const struct subject *s)
{
	static const long shifts[] = { -200, -40, -8, 8, 40, 200 };
	static unsigned char *buf, *image;
	size_t len = 2 * CANARY + 512 + ((size_t)1 << OVERLAPPING_MAX_LOG2) + 1;
	int defects = 0;

	if (buf == NULL) {
		buf = map_or_die(len);
		image = map_or_die(len);
		fill_pattern(image, len, 11);
		for (size_t i = 0; i < len; i++)
			image[i] |= 1;
		memcpy(buf, image, len);
	}
	for (unsigned k = 7; k <= OVERLAPPING_MAX_LOG2; k++)
		for (size_t n = ((size_t)1 << k) - 1; n <= ((size_t)1 << k) + 1; n++)
			for (size_t i = 0; i < sizeof(shifts) / sizeof(shifts[0]); i++)
				defects += one_overlapping(s, buf, image, n, shifts[i]);
	return defects;
}
