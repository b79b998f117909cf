/* SPDX-License-Identifier: MIT */
/*
 * Every size 0..1100, powers of two up to 16 MiB (each also -1 and +1) and
 * the sizes in edges[], across source and destination offsets 0..63: content, return value,
 * canaries.  Up to 64 KiB + 1 every (source, destination) pair of offsets is
 * tried; above, 64 pairs in which every source offset and every destination
 * offset occurs once, with 32 different relative skews, so a 16 MiB copy is
 * run 64 times rather than 4096 (the loop code is the one 64 KiB exercises;
 * what changes above is which threshold applies).  Odd sizes put the
 * destination 64 bytes further on, so that offsets 0..63 fall on both halves
 * of a 128-byte line (POWER's): a destination on a line's start is tried.
 */
#include <string.h>
#include "check.h"

#define ALL_PAIRS_MAX ((size_t)64 * 1024 + 1)
#define ODD_SHIFT 64 /* the destination's further start for odd sizes */

struct arena {
	unsigned char *src;   /* MAX_OFFSET + largest size, pattern */
	unsigned char *src_copy; /* what src must still hold afterwards */
	unsigned char *dst;   /* CANARY + MAX_OFFSET + largest + CANARY, the image's copy */
	unsigned char *image; /* what dst holds between copies */
};

static const struct arena *arena(void)
{
	static struct arena a;
	size_t largest = ((size_t)1 << LARGE_MAX_LOG2) + 1;
	size_t dst_len = 2 * CANARY + ODD_SHIFT + MAX_OFFSET + largest;

	if (a.src == NULL) {
		a.src = map_or_die(MAX_OFFSET + largest);
		a.dst = map_or_die(dst_len);
		a.image = map_or_die(dst_len);
		a.src_copy = map_or_die(MAX_OFFSET + largest);
		fill_pattern(a.src, MAX_OFFSET + largest, 1);
		memcpy(a.src_copy, a.src, MAX_OFFSET + largest);
		fill_pattern(a.image, dst_len, 2);
		memcpy(a.dst, a.image, dst_len);
	}
	return &a;
}

static int one(const struct subject *s, const struct arena *a, size_t n, unsigned so,
	       unsigned dof)
{
	size_t at = (n & 1 ? ODD_SHIFT : 0) + dof;

	return copy_and_check(s, "sizes and offsets", a->dst + CANARY + at, a->src + so, n,
			      a->image + at);
}

static int all_pairs(const struct subject *s, const struct arena *a, size_t n)
{
	int bad = 0;

	for (unsigned so = 0; so < MAX_OFFSET; so++)
		for (unsigned dof = 0; dof < MAX_OFFSET; dof++)
			bad += one(s, a, n, so, dof);
	return bad;
}

static int each_offset_once(const struct subject *s, const struct arena *a, size_t n)
{
	int bad = 0;

	for (unsigned so = 0; so < MAX_OFFSET; so++)
		bad += one(s, a, n, so, (27 * so + 13) % MAX_OFFSET); /* 27 is odd: a permutation */
	return bad;
}

/* Where a copy changes method between powers of two: the x86-64 'rep movsb' step window's end. */
static const size_t edges[] = { 16384 + 63, 16384 + 64,
				 3 * 16384 + 4096 + 65 /* 4-page non-temporal blocks, then the rest */ };

int check_sizes(const struct subject *s)
{
	const struct arena *a = arena();
	int bad = 0;

	for (size_t n = 0; n <= SMALL_MAX; n++)
		bad += all_pairs(s, a, n);
	for (unsigned k = 11; k <= LARGE_MAX_LOG2; k++)
		for (size_t n = ((size_t)1 << k) - 1; n <= ((size_t)1 << k) + 1; n++)
			bad += n <= ALL_PAIRS_MAX ? all_pairs(s, a, n) : each_offset_once(s, a, n);
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		bad += all_pairs(s, a, edges[i]);
	if (memcmp(a->dst, a->image, 2 * CANARY + MAX_OFFSET + ((size_t)1 << LARGE_MAX_LOG2) + 1))
		bad += report(s, "sizes and offsets", "destination arena not restored: stray write");
	if (memcmp(a->src, a->src_copy, MAX_OFFSET + ((size_t)1 << LARGE_MAX_LOG2) + 1))
		bad += report(s, "sizes and offsets", "the source was written to");
	return bad;
}
