/* SPDX-License-Identifier: MIT */
#include "pattern.h"

void pattern_fill(unsigned char *buf, size_t len, uint64_t first, int invert)
{
	unsigned char mask = invert ? 0xff : 0;

	for (size_t k = 0; k < len; k++)
		buf[k] = pattern_byte(first + k) ^ mask;
}

size_t pattern_mismatch(const unsigned char *buf, size_t len, uint64_t first, int invert)
{
	unsigned char mask = invert ? 0xff : 0;

	for (size_t k = 0; k < len; k++)
		if (buf[k] != (pattern_byte(first + k) ^ mask))
			return k;
	return len;
}
