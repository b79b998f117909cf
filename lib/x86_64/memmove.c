/* SPDX-License-Identifier: MIT */
/* libcopyperf's memmove on x86-64: an ifunc, like memcpy.c. */
#include "x86_copy.h"

EARLY __attribute__((used)) static copyperf_copy_fn resolve_memmove(void)
{
	return copyperf_x86_choose_memmove();
}

void *copyperf_memmove(void *dst, const void *src, size_t n) __attribute__((ifunc("resolve_memmove")));
