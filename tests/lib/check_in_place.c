/* SPDX-License-Identifier: MIT */
/*
 * A copy onto itself (dst == src): what compilers emit for a struct assigned
 * to itself, and what GCC and LLVM expect memcpy to survive.  The bytes must
 * stay as they were; a copy that zeroes destination lines before reading
 * them (PowerPC dcbz, AArch64 dc zva) would destroy them.  Every size
 * 0..SMALL_MAX at offsets 0..63, then the powers of two from 1 KiB to 1 MiB
 * (past every line and block path's start), each also -1 and +1, at three
 * offsets.
 */
#include <stdint.h>
#include <string.h>
#include "check.h"

#define IN_PLACE_MAX_LOG2 20

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
