/* SPDX-License-Identifier: MIT */
/* The one-line answer to a routine name that does not exist, for both backends. */
#ifndef COPYPERF_ROUTINE_NAMES_H
#define COPYPERF_ROUTINE_NAMES_H

#include <stddef.h>

/* "--routines: unknown <kind> 'name' (valid: a, b, c)"; the list is cut to fit err. */
void unknown_routine_error(char *err, size_t errlen, const char *kind, const char *name,
			   const char *const *valid, size_t n_valid);

#endif
