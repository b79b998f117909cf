/* SPDX-License-Identifier: MIT */
/*
 * A preload shim that copies wrongly at one size (1000 bytes: its last byte
 * flipped) and right at every other: what `copyperf program --check` must
 * catch, through the output of a program that copies that size.
 */
#include <stddef.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d < s)
		for (size_t i = 0; i < n; i++)
			d[i] = s[i];
	else
		for (size_t i = n; i-- > 0;)
			d[i] = s[i];
	if (n == 1000)
		d[n - 1] ^= 1;
	return dst;
}

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	return memmove(dst, src, n);
}
