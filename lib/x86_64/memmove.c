/* SPDX-License-Identifier: MIT */
/* libcopyperf's memmove on x86-64: one jump to the variant chosen at load time. */
#include "x86_copy.h"

void *copyperf_memmove(void *dst, const void *src, size_t n)
{
	return __atomic_load_n(&x86_memmove_impl, __ATOMIC_RELAXED)(dst, src, n);
}
