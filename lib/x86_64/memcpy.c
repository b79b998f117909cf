/* SPDX-License-Identifier: MIT */
/* libcopyperf's memcpy on x86-64: one jump to the variant chosen at load time. */
#include "x86_copy.h"

void *copyperf_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	return __atomic_load_n(&x86_memcpy_impl, __ATOMIC_RELAXED)(dst, src, n);
}
