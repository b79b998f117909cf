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

/* The count in a recording's "# calls N" line, or 0 where it has none (or cannot be read). */
unsigned long long mix_calls(const char *path);

/*
 * Writes to out, in the three-line format with its "# calls N", the union of
 * the n recordings at paths (each needs its "# calls N"; one of 0 calls adds
 * nothing).  Returns 0 with *calls the calls written, or -1 with a one-line
 * reason in err (a file that cannot be read or is not a mix, out unwritable,
 * no calls at all).
 */
int mix_merge(const char *const *paths, size_t n, const char *out, unsigned long long *calls,
	      char *err, size_t errlen);

#endif
