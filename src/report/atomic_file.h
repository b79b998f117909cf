/* SPDX-License-Identifier: MIT */
/*
 * A file the command writes (-o, --plot, plot -o) that appears whole or not at
 * all.  A regular file, or one that does not exist yet, is written to a
 * temporary file in its directory, flushed to disk and renamed over it only
 * when complete: a failure or a signal leaves the previous file as it was.
 * Anything else (a terminal, a pipe, /dev/stdout, /dev/full) is written in
 * place and never replaced: the command may run as root.
 */
#ifndef COPYPERF_ATOMIC_FILE_H
#define COPYPERF_ATOMIC_FILE_H

#include <stddef.h>
#include <stdio.h>

struct atomic_file {
	const char *target; /* the name as given, for messages */
	char *final;        /* what the temporary file replaces: target with its links resolved */
	char *temp;         /* the temporary file; NULL when written in place */
	const char *path;   /* where the contents go: temp, or target in place */
	FILE *f;
};

/*
 * Opens a for writing target.  Returns 0, or -1 with err set to "cannot write
 * 'TARGET': reason" (nothing is left behind).
 */
int atomic_file_open(struct atomic_file *a, const char *target, char *err, size_t errlen);

/*
 * Flushes and closes a; a temporary file is synced and renamed over the
 * target.  Returns 0, or -1 with err set to "cannot write 'TARGET': reason",
 * the temporary file then removed.  Either way a is closed.
 */
int atomic_file_commit(struct atomic_file *a, char *err, size_t errlen);

/* Closes a without replacing anything: the temporary file is removed. */
void atomic_file_discard(struct atomic_file *a);

/*
 * Removes every temporary file still open; async-signal-safe, for a fatal
 * signal's handler, and run at exit.
 */
void atomic_file_remove_temps(void);

#endif
