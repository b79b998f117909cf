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

size_t pattern_pass_check(unsigned char *dst, const unsigned char *ref, size_t len)
{
	size_t k = 0;

	/* A word at a time: this runs over every byte copied. */
	for (; k + sizeof(uint64_t) <= len; k += sizeof(uint64_t)) {
		uint64_t d, s;

		__builtin_memcpy(&d, dst + k, sizeof(d));
		__builtin_memcpy(&s, ref + k, sizeof(s));
		if (d != s)
			break;
		s = ~s;
		__builtin_memcpy(dst + k, &s, sizeof(s));
	}
	for (; k < len && dst[k] == ref[k]; k++)
		dst[k] = (unsigned char)~ref[k];
	if (k == len)
		return len;
	/* A wrong byte at or after k: the bytes before it go back to what the copy left. */
	for (size_t i = 0; i < k; i++)
		dst[i] = ref[i];
	return k;
}
