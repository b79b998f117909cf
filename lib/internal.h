/* SPDX-License-Identifier: MIT */
/* Library-private declarations shared by the registry and the routines. */
#ifndef COPYPERF_LIB_INTERNAL_H
#define COPYPERF_LIB_INTERNAL_H

#include "copyperf.h"

/*
 * Keep reference loops what their names say: without this the compiler turns
 * a byte loop into a call to memcpy or into vector code.
 */
#if defined(__clang__)
#define COPYPERF_NO_VECTORIZE __attribute__((noinline))
#define COPYPERF_LOOP_PLAIN _Pragma("clang loop vectorize(disable) interleave(disable) unroll(disable)")
#elif defined(__GNUC__)
#define COPYPERF_NO_VECTORIZE \
	__attribute__((noinline, optimize("no-tree-vectorize", "no-tree-loop-distribute-patterns")))
#define COPYPERF_LOOP_PLAIN
#else
#define COPYPERF_NO_VECTORIZE
#define COPYPERF_LOOP_PLAIN
#endif

/* Reference loops (lib/generic/). */
void *copyperf_byte_copy(void *dst, const void *src, size_t n);
void *copyperf_word_copy(void *dst, const void *src, size_t n);

/*
 * Routines an architecture directory adds to the registry; the generic
 * arch_routines.c supplies an empty list where no directory exists.
 */
extern const struct copyperf_routine copyperf_arch_routines[];
extern const size_t copyperf_arch_routine_count;

#endif
