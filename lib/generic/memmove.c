/* SPDX-License-Identifier: MIT */
/* Where no architecture directory overrides it, libcopyperf's memmove is the portable one. */
#include "../internal.h"
#include "copy_compat.h"

void *copyperf_memmove(void *dst, const void *src, size_t n)
{
	return copyperf_generic_memmove(dst, src, n);
}
