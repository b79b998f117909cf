/* SPDX-License-Identifier: MIT */
/*
 * COPYPERF_RECORD=FILE: the preload shim counts the program's own memcpy,
 * memmove and mempcpy calls and writes them to FILE at exit as a call mix
 * (fleetbench's three-line format) that copyperf -d replays.  record.c says
 * how; the shim only calls copyperf_record_hook() with each call's arguments.
 */
#ifndef COPYPERF_LIB_RECORD_H
#define COPYPERF_LIB_RECORD_H

#include <stddef.h>

#pragma GCC visibility push(hidden)

/* Non-zero while calls are counted: from the constructor until the file is written. */
extern int copyperf_record_on;

/* Counts one call: its size, its two pointers' alignment, whether its ranges overlap. */
void copyperf_record(const void *dst, const void *src, size_t n);

/*
 * The whole cost when COPYPERF_RECORD is unset: one load of a flag that never
 * changes and one branch that always goes the same way.
 */
static inline void copyperf_record_hook(const void *dst, const void *src, size_t n)
{
	if (__builtin_expect(__atomic_load_n(&copyperf_record_on, __ATOMIC_RELAXED), 0))
		copyperf_record(dst, src, n);
}

#pragma GCC visibility pop

#endif
