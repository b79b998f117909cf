/* SPDX-License-Identifier: MIT */
/* Portable memcpy: the word loop until the size-ladder version lands. */
#include "../internal.h"

void *copyperf_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	return copyperf_word_copy(dst, src, n);
}
