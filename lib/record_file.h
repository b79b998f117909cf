/* SPDX-License-Identifier: MIT */
/*
 * A recorded call mix as a file COPYPERF_RECORD names (FILE.memcpy or
 * FILE.memmove): what record.c hands over once every thread's counts of one
 * family are merged, and the writer that formats it.
 */
#ifndef COPYPERF_LIB_RECORD_FILE_H
#define COPYPERF_LIB_RECORD_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "record.h"

#pragma GCC visibility push(hidden)

struct record_size {
	uint64_t size, count;
};

struct record_mix {
	const uint64_t *small;           /* calls of each size 0..RECORD_SMALL_MAX */
	const struct record_size *large; /* the larger sizes, ascending, each once */
	size_t n_large;
	uint64_t calls;                  /* the sum of the two above */
	uint64_t overlap;                /* calls whose source and destination ranges meet */
	uint64_t align[RECORD_ALIGNS];   /* pointers (two a call) by alignment 1 << index */
};

/*
 * Writes the three lines and "# calls N" to a temporary file beside path,
 * then renames it to path, so no reader sees half a file.  On failure
 * removes the temporary file, says "copyperf: COPYPERF_RECORD: cannot write
 * 'shown': reason" on standard error and returns -1.  Uses no stdio and no
 * allocation, and formats numbers itself: the program may have set a locale
 * whose decimal point is a comma.
 */
int record_file_write(const struct record_mix *mix, const char *path, const char *shown);

/*
 * name then suffix into buf, each %p as the process id; false if they do not
 * fit in size, buf then holding as much as fits.
 */
bool record_name(char *buf, size_t size, const char *name, const char *suffix);

/* Says "copyperf: COPYPERF_RECORD: cannot write 'shown': " and err's description; returns -1. */
int record_cannot_write(const char *shown, int err);

/* "copyperf: COPYPERF_RECORD: " and the pieces given (up to a NULL), one line on standard error. */
void record_say(const char *first, ...) __attribute__((sentinel));

#pragma GCC visibility pop

#endif
