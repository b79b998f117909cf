/* SPDX-License-Identifier: MIT */
/*
 * The distribution files a run reads: each -d word stands for shipped call
 * mixes (by name or by family) or for a file of one's own, and the shipped
 * ones are looked for in the data directory (distribution_dir).
 */
#ifndef COPYPERF_DISTRIBUTION_FILES_H
#define COPYPERF_DISTRIBUTION_FILES_H

#include <stddef.h>
#include "distribution.h"

/*
 * Expands one -d word into the (name, path) pairs it stands for, appended to
 * *names and *paths (both malloc'd, grown as needed, *n counting them):
 * a shipped short name (memcpy_0 ... memcpy_8, memcpy_fleet, memmove_0 ...
 * memmove_fleet, any case), "fleet" (memcpy_fleet), "memcpy" or "memmove"
 * (their ten), "all" (the twenty), or else a file path, or else, when no
 * file has that path, a recording's WORD.memcpy and WORD.memmove, those of
 * the two that exist, each named by its path.  Returns 0, or -1 with a
 * one-line reason that names the word.
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
