/* SPDX-License-Identifier: MIT */
/* x86-64 routines offered to the command by name. */
#include "../internal.h"

void *copyperf_rep_movsb(void *dst, const void *src, size_t n);

const struct copyperf_routine copyperf_arch_routines[] = {
	{ "rep-movsb", "x86 'rep movsb' string copy (fast with ERMS/FSRM)", copyperf_rep_movsb, NULL, 0 },
};
const size_t copyperf_arch_routine_count =
	sizeof(copyperf_arch_routines) / sizeof(copyperf_arch_routines[0]);
