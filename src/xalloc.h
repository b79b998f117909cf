/* SPDX-License-Identifier: MIT */
/*
 * Memory the command cannot go on without: when there is none, one line that
 * says for what, and exit status 2 (too little memory for what was asked, as
 * when a buffer cannot be mapped), never an abort. The output files being
 * written are removed at exit (atomic_file.h), so nothing half-written is left.
 */
#ifndef COPYPERF_XALLOC_H
#define COPYPERF_XALLOC_H

#include <stddef.h>

/* The line "copyperf: out of memory for WHAT", and exit(2). */
__attribute__((noreturn)) void out_of_memory(const char *what);

/* calloc(n, size), or out_of_memory(what). */
void *xcalloc(size_t n, size_t size, const char *what);

/* realloc(p, n * size) (n * size > 0, not overflowing), or out_of_memory(what). */
void *xrealloc(void *p, size_t n, size_t size, const char *what);

/* strdup(s), or out_of_memory(what). */
char *xstrdup(const char *s, const char *what);

#endif
