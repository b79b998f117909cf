/* SPDX-License-Identifier: MIT */
/*
 * A recorded call mix: the sizes of a program's memcpy or memmove calls, how
 * often their buffers overlap and how their pointers are aligned, each value
 * with its probability, in fleetbench's three-line format:
 *   line 1  size:probability,...        (sizes in bytes, whole numbers >= 0)
 *   line 2  overlap:probability,...     (0: disjoint, 1: overlapping)
 *   line 3  alignment:probability,...   (powers of two: the largest that divides the pointer)
 * Lines that start with '#' are comments, before, between or after these
 * (COPYPERF_RECORD writes "# calls N" after them).
 */
#ifndef COPYPERF_DISTRIBUTION_H
#define COPYPERF_DISTRIBUTION_H

#include <stddef.h>
#include <stdint.h>

/* One value of a line and its probability, normalised so that a line's add up to 1. */
struct dist_value {
	uint64_t value;
	double p;
	unsigned line, column; /* where it was read (1-based), for errors found later */
};

/*
 * How a mix is replayed: memcpy calls between two disjoint buffers (the
 * overlap line is ignored: overlapping memcpy is undefined), or memmove
 * calls inside one buffer, overlapping as often as line 2 says.  The name
 * says which where it can: one ending in .memcpy or .memmove (the files
 * COPYPERF_RECORD writes), else one whose base name starts with memcpy or
 * memmove (the shipped mixes); any other is memmove if it ever overlaps.
 */
enum dist_kind { DIST_MEMCPY, DIST_MEMMOVE };

struct distribution {
	char *name; /* the shipped short name (memcpy_fleet), or the path as given */
	char *path; /* the file read */
	enum dist_kind kind;
	struct dist_value *sizes; /* ascending size, probability > 0 only */
	size_t n_sizes;
	double overlap;           /* probability that a call's buffers overlap */
	struct dist_value *aligns; /* ascending alignment, probability > 0 only */
	size_t n_aligns;
	double mean_size;         /* bytes per call, by the probabilities */
	uint64_t max_size;        /* the largest size */
	const struct dist_value *largest; /* the entry of max_size */
};

/*
 * Reads the file at path as the distribution called name (NULL: the path).
 * Returns 0, or -1 with err set to one line "PATH:LINE:COLUMN: reason" (or
 * "PATH: reason" when the file cannot be read).
 */
int distribution_read(struct distribution *d, const char *path, const char *name, char *err,
		      size_t errlen);
void distribution_free(struct distribution *d);

#endif
