/* SPDX-License-Identifier: MIT */
/* UTF-8, as JSON (RFC 8259) requires of its text. */
#ifndef COPYPERF_UTF8_H
#define COPYPERF_UTF8_H

#include <stddef.h>

/*
 * The length of the well-formed UTF-8 sequence at p (1 to 4 bytes, none past
 * end), or 0 where p starts none: an overlong form, a surrogate, a code point
 * past U+10FFFF, a stray or missing continuation byte.
 */
static inline size_t utf8_sequence(const unsigned char *p, const unsigned char *end)
{
	unsigned c = p[0], lo = 0x80, hi = 0xbf;
	size_t n;

	if (c < 0x80)
		return 1;
	if (c < 0xc2 || c > 0xf4)
		return 0;
	n = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	/* the second byte's range rules out overlong forms, surrogates and past U+10FFFF */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if ((size_t)(end - p) < n || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

#endif
