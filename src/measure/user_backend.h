/* SPDX-License-Identifier: MIT */
/* Measurements in this process: the library's registry of routines. */
#ifndef COPYPERF_USER_BACKEND_H
#define COPYPERF_USER_BACKEND_H

#include "sweep.h"

/*
 * Resolves the routine names (every available one when o->routines is NULL),
 * allocates and pre-faults the buffers.  Returns 0, or -1 with a one-line
 * reason naming the option at fault (a usage error).
 */
int user_backend_open(struct backend *b, const struct options *o, char *err, size_t errlen);
void user_backend_close(struct backend *b);

#endif
