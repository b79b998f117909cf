/* SPDX-License-Identifier: MIT */
/*
 * Several recordings of one kind made one: a program of several processes
 * (a shell script and what it starts, a server and its client) records one
 * mix per process (COPYPERF_RECORD=FILE.%p), and its copies as a whole are
 * their union, each process's probabilities weighted by its calls.
 */
#ifndef COPYPERF_MIX_MERGE_H
#define COPYPERF_MIX_MERGE_H

#include <stddef.h>

/*
 * The count in a recording's first "# calls N" line: 0 with *n set, or -1
 * where the file cannot be read, has no such line, or N is not a whole
 * number from 0 to 2^64-1.
 */
int mix_calls(const char *path, unsigned long long *n);

/*
 * Writes to out, in the three-line format with its "# calls N", the union of
 * the n recordings at paths, each weighted by its "# calls N" (one of 0 calls
 * adds nothing, and is not read further).  Returns 0 with *calls the calls
 * written, or -1 with a one-line reason in err (a file that cannot be read,
 * is not a mix or has no count; out unwritable; no calls at all; more calls
 * than a count holds).
 */
int mix_merge(const char *const *paths, size_t n, const char *out, unsigned long long *calls,
	      char *err, size_t errlen);

#endif
