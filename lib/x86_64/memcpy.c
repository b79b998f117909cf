/* SPDX-License-Identifier: MIT */
/*
 * libcopyperf's memcpy on x86-64 is an ifunc: the dynamic linker (or, in a
 * static program, the C library's start-up) binds it once to the variant
 * dispatch.c chooses, so a call is a direct jump to that variant.
 */
#include "x86_copy.h"

EARLY __attribute__((used)) static copyperf_copy_fn resolve_memcpy(void)
{
	return copyperf_x86_choose_memcpy();
}

void *copyperf_memcpy(void *restrict dst, const void *restrict src, size_t n)
	__attribute__((ifunc("resolve_memcpy")));
