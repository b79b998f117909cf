/* SPDX-License-Identifier: MIT */
/* The string copy, for the x86-64 copies in C and the routine of its own. */
#ifndef COPYPERF_X86_REP_MOVSB_H
#define COPYPERF_X86_REP_MOVSB_H

#include <stddef.h>

#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* The string copy, forward (the ABI keeps DF clear); never used backward. */
ALWAYS_INLINE void rep_movsb_forward(unsigned char *d, const unsigned char *s, size_t n)
{
	__asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

#endif
