/* SPDX-License-Identifier: MIT */
/* For the programs that talk to /dev/copyperf directly: a routine's number from its name. */
#ifndef COPYPERF_TESTS_ROUTINE_BY_NAME_H
#define COPYPERF_TESTS_ROUTINE_BY_NAME_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include "uapi/copyperf_ioctl.h"

/* The number of the module's routine called name, of n_routines; exits 1 naming prog if none. */
static inline uint32_t routine_by_name(int fd, uint32_t n_routines, const char *name,
				       const char *prog)
{
	for (uint32_t r = 0; r < n_routines; r++) {
		struct copyperf_routine_info info = { .index = r };

		if (ioctl(fd, COPYPERF_IOC_ROUTINE, &info) == 0 && strcmp(info.name, name) == 0)
			return r;
	}
	fprintf(stderr, "%s: the module has no routine '%s'\n", prog, name);
	exit(1);
}

#endif
