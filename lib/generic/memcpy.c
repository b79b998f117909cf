/* SPDX-License-Identifier: MIT */
/* Where no architecture directory overrides it, libcopyperf's memcpy is the portable one. */
#include "../internal.h"
#include "copy_compat.h"

void *copyperf_memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	return copyperf_generic_memcpy(dst, src, n);
}
