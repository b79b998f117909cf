/* SPDX-License-Identifier: MIT */
/*
 * A routine that copies wrongly in two ways, registered only in the test
 * build: verification must report it FAILED and give it no speed.
 */
#include <string.h>
#include "copyperf.h"

/* Drops the last byte of every chunk of 64 bytes or more. */
static void *off_by_one(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n >= 64 ? n - 1 : n);
	return dst;
}

/* Right bytes, but one more than asked for. */
static void *overrun(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
	((unsigned char *)dst)[n] = ((const unsigned char *)src)[n] ^ 0x55;
	return dst;
}

static const struct copyperf_routine broken[] = {
	{ "broken-short", "test only: drops the last byte of chunks >= 64 B", off_by_one, NULL, 0 },
	{ "broken-overrun", "test only: writes one byte past the end", overrun, NULL, 0 },
};

__attribute__((constructor)) static void register_broken(void)
{
	for (size_t i = 0; i < sizeof(broken) / sizeof(broken[0]); i++)
		copyperf_routine_register(&broken[i]);
}
