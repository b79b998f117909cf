/* SPDX-License-Identifier: MIT */
#include "text.h"

char *copyperf_text_put(char *p, char *end, const char *s)
{
	while (*s && p < end)
		*p++ = *s++;
	*p = '\0';
	return p;
}

char *copyperf_text_put_uint(char *p, char *end, uint64_t v)
{
	char digits[24], *d = digits + sizeof(digits) - 1;

	*d = '\0';
	do
		*--d = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	return copyperf_text_put(p, end, d);
}
