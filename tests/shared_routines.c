/* SPDX-License-Identifier: MIT */
/*
 * Copies in a shared object of their own, as a user's build of a memcpy would
 * be, for copyperf -r FILE:SYMBOL and copybench -c / -C FILE:SYMBOL: one right
 * (and safe on overlapping buffers), one wrong at 4 KiB and above.
 */
#include <stddef.h>

void *plain_move(void *dst, const void *src, size_t n);
void *short_copy(void *dst, const void *src, size_t n);

/* Byte by byte, backward when dst lies above src: memmove's contract. */
void *plain_move(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d > s)
		while (n--)
			d[n] = s[n];
	else
		for (size_t i = 0; i < n; i++)
			d[i] = s[i];
	return dst;
}

/* Drops the last byte of a copy of 4 KiB or more. */
void *short_copy(void *dst, const void *src, size_t n)
{
	return plain_move(dst, src, n >= 4096 ? n - 1 : n);
}
