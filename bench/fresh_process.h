/* SPDX-License-Identifier: MIT */
/*
 * The benchmarks' measuring processes: this program run afresh (a new exec,
 * so that code, stack and buffers land elsewhere), its standard output read
 * by the caller.
 */
#ifndef COPYBENCH_FRESH_PROCESS_H
#define COPYBENCH_FRESH_PROCESS_H

#include <stdio.h>
#include <sys/types.h>

/*
 * Starts /proc/self/exe with argv, its standard output a pipe to the
 * returned stream; *pid is the child's. Exits 1, saying so as prog, if it
 * cannot.
 */
FILE *fresh_process_start(const char *prog, char *const *argv, pid_t *pid);

/* Closes the stream and waits for the child: 1 if it exited with 0. */
int fresh_process_end(FILE *out, pid_t pid);

#endif
