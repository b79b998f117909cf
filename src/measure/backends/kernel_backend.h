/* SPDX-License-Identifier: MIT */
/* Measurements inside the kernel, through the copyperf module's /dev/copyperf. */
#ifndef COPYPERF_KERNEL_BACKEND_H
#define COPYPERF_KERNEL_BACKEND_H

#include <stdio.h>
#include "measure/engine/sweep.h"

/*
 * Opens /dev/copyperf, checks the ABI version and resolves the routine names
 * against the module's list.  Returns 0, or -1 with a one-line reason (how to
 * load the module, when it is not loaded).
 */
int kernel_backend_open(struct backend *b, const struct measure_params *params, char *err,
			size_t errlen);
void kernel_backend_close(struct backend *b);

/* Prints the module's routines, one line each; -1 with the reason when it cannot. */
int kernel_backend_list(FILE *f, char *err, size_t errlen);

#endif
