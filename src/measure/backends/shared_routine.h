/* SPDX-License-Identifier: MIT */
/*
 * A copy routine from a shared object, named on the command line as
 * FILE:SYMBOL (the memcpy contract: disjoint buffers) or FILE:SYMBOL:overlap
 * (memmove's), where FILE holds a '/': a build of your own memcpy measured
 * beside the C library's and libcopyperf's, in one process, interleaved.
 */
#ifndef COPYPERF_SHARED_ROUTINE_H
#define COPYPERF_SHARED_ROUTINE_H

#include <stdbool.h>
#include <stddef.h>
#include "copyperf.h"

/* Whether name is a FILE:SYMBOL[:overlap] spec rather than a registry name. */
bool shared_routine_spec(const char *name);

/*
 * Opens FILE, finds SYMBOL and registers it under the spec as its name, once:
 * copyperf_routine_find(spec) finds it from then on. Returns it, or NULL with
 * a one-line reason in err ("'spec': ...").
 */
const struct copyperf_routine *shared_routine_load(const char *spec, char *err, size_t errlen);

/*
 * A routine as a benchmark's command line names it: a registry name that runs
 * on this CPU, or a spec that shared_routine_load() loads. NULL with a
 * one-line reason in err ("NAME: no such routine on this CPU", or the load's).
 */
const struct copyperf_routine *shared_routine_named(const char *name, char *err, size_t errlen);

#endif
