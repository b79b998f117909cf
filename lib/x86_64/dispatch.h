/* SPDX-License-Identifier: MIT */
/* What the dispatcher chose (dispatch.c), for copyperf_describe() to say (describe.c). */
#ifndef COPYPERF_X86_DISPATCH_H
#define COPYPERF_X86_DISPATCH_H

#include <stdbool.h>
#include "x86_copy.h"

#pragma GCC visibility push(hidden)

struct x86_choice {
	const char *isa; /* the variant's name, as COPYPERF_ISA takes it */
	bool portable;   /* the portable C copy, which has no thresholds */
	bool avx512;     /* an AVX-512 variant, whose vector loop the tuning sets too */
	const struct x86_tuning_report *report; /* the thresholds and where each came from */
};

/* The variant the resolvers chose; if none has run yet, chosen now as they choose. */
void copyperf_x86_choice(struct x86_choice *c);

#pragma GCC visibility pop

#endif
