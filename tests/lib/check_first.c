/* SPDX-License-Identifier: MIT */
/*
 * The first copies a process makes, before anything has read the library's
 * thresholds (on x86-64 the first disjoint copy past the ladders reads them,
 * inside the non-temporal copy, and copies by the loop): each size once, the
 * first of them the one that reads them, with the canaries checked.  Run
 * before anything else in libcheck, copyperf_describe() included, which reads
 * them too; with COPYPERF_ISA, once per variant.
 */
#include <string.h>
#include "check.h"

int check_first_copies(const struct subject *s)
{
	static const size_t sizes[] = { 100000, 600, 5000, 1 << 20, 2113, 70000 };
	size_t most = 1 << 20;
	unsigned char *src = map_or_die(most + 2 * CANARY), *dst = map_or_die(most + 2 * CANARY);
	unsigned char *image = map_or_die(most + 2 * CANARY);
	int bad = 0;

	fill_pattern(src, most + 2 * CANARY, 7);
	fill_pattern(dst, most + 2 * CANARY, 11);
	memcpy(image, dst, most + 2 * CANARY);
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		bad += copy_and_check(s, "first copies", dst + CANARY + i, src + CANARY + 3 * i, sizes[i],
				      image + i);
	return bad;
}
