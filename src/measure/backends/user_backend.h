/* SPDX-License-Identifier: MIT */
/* Measurements in this process: the library's registry of routines. */
#ifndef COPYPERF_USER_BACKEND_H
#define COPYPERF_USER_BACKEND_H

#include "measure/call_mixes/workloads.h"
#include "measure/engine/sweep.h"
#include "measure/placement/pages.h"
#include "measure/placement/thread_plan.h"

/*
 * Whether every routine params names exists and runs on this CPU, before
 * anything is built or opened.  Returns 0, or -1 with a one-line reason.
 */
int user_backend_check_routines(const struct measure_params *params, char *err, size_t errlen);

/*
 * Resolves the routine names (every available one when params has none),
 * allocates and pre-faults the buffers: this thread's, or with -j those of
 * tp's workers, each in its own thread; checks that explicit huge pages are
 * reserved for them and for ws's replay arenas.  Returns 0, or -1 with a
 * one-line reason naming the option at fault (a usage error).
 */
int user_backend_open(struct backend *b, const struct measure_params *params,
		      const struct thread_plan *tp, const struct workloads *ws, char *err,
		      size_t errlen);
void user_backend_close(struct backend *b);

/* What the kernel gave the buffers measured so far (see pages.h). */
void user_backend_pages(const struct backend *b, struct page_usage *u);

#endif
