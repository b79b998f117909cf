/* SPDX-License-Identifier: MIT */
/*
 * A recorded call mix: the sizes of a program's memcpy or memmove calls, how
 * often their buffers overlap and how their pointers are aligned, each value
 * with its probability, in fleetbench's three-line format:
 *   line 1  size:probability,...        (sizes in bytes, whole numbers >= 0)
 *   line 2  overlap:probability,...     (0: disjoint, 1: overlapping)
 *   line 3  alignment:probability,...   (powers of two: the largest that divides the pointer)
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
 * calls inside one buffer, overlapping as often as line 2 says.
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

/*
 * Expands one -d word into the (name, path) pairs it stands for, appended to
 * *names and *paths (both malloc'd, grown as needed, *n counting them):
 * a shipped short name (memcpy_0 ... memcpy_8, memcpy_fleet, memmove_0 ...
 * memmove_fleet, any case), "fleet" (memcpy_fleet), "memcpy" or "memmove"
 * (their ten), "all" (the twenty), or else a file path.  Returns 0, or -1
 * with a one-line reason that names the word.
 */
int distribution_expand(const char *word, char ***names, char ***paths, size_t *n, char *err,
			size_t errlen);

/*
 * Expands each of the n_words words (distribution_expand) and reads every
 * distribution they stand for into *out, a malloc'd array of *n.  Returns 0,
 * or -1 with a one-line reason, *out then NULL: nothing to free.
 */
int distribution_load(char *const *words, size_t n_words, struct distribution **out, size_t *n,
		      char *err, size_t errlen);
/* Frees n distributions of distribution_load's and their array. */
void distributions_free(struct distribution *d, size_t n);

/*
 * The directory of the shipped distributions: $COPYPERF_DATADIR/distributions
 * if set, else the first that holds them of <dir of the executable>/../share/
 * copyperf/distributions, the installed DATADIR, and the source tree's
 * data/distributions.  NULL if none does.
 */
const char *distribution_dir(void);

#endif
