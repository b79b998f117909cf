/* SPDX-License-Identifier: MIT */
/*
 * The fuzzers' input as a file the readers open by name, as the command's
 * subcommands do: a memfd, named /proc/self/fd/N, rewritten for each input.
 */
#ifndef COPYPERF_FUZZ_INPUT_FILE_H
#define COPYPERF_FUZZ_INPUT_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* The file's name, holding the size bytes of data. */
static inline const char *input_file(const uint8_t *data, size_t size)
{
	static char path[64];
	static int fd = -1;

	if (fd < 0) {
		fd = memfd_create("fuzz-input", MFD_CLOEXEC);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || (size && pwrite(fd, data, size, 0) != (ssize_t)size))
		abort();
	return path;
}

#endif
