/* SPDX-License-Identifier: MIT */
/* The x86 string copy on its own, as a routine to measure. */
#include "../internal.h"
#include "rep_movsb.h"
#include "x86_copy.h"

void *copyperf_rep_movsb(void *dst, const void *src, size_t n)
{
	rep_movsb_forward(dst, src, n);
	return dst;
}
