/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include "footprint.h"

#define LINE 64

/* One word of each line: the whole line comes in all the same. */
static uint64_t read_lines(const volatile uint64_t *p, size_t n)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < n / sizeof(*p); i += LINE / sizeof(*p))
		sum += p[i];
	return sum;
}

void *footprint_read(void *dst, const void *src, size_t n)
{
	uint64_t sum = read_lines(src, n) + read_lines(dst, n);

	__asm__ volatile("" : : "r"(sum));
	return dst;
}
