/* SPDX-License-Identifier: MIT */
/* A one-line progress report on a terminal's standard error; silent elsewhere. */
#ifndef COPYPERF_PROGRESS_H
#define COPYPERF_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

struct progress {
	FILE *f;         /* NULL: report nothing */
	uint64_t start;  /* ns */
	uint64_t last;   /* ns of the last line drawn */
	int drawn;
};

/* Reports only when enabled and f is a terminal. */
void progress_start(struct progress *p, FILE *f, int enabled);
void progress_update(size_t done, size_t total, void *progress);
/* Clears the line, if one was drawn. */
void progress_end(struct progress *p);

#endif
