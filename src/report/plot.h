/* SPDX-License-Identifier: MIT */
/*
 * Throughput against chunk size, or a replay's time per call for each
 * distribution and working set, drawn by gnuplot into an SVG or PNG file:
 * `copyperf plot RESULTS.json... -o FILE` (its command line is
 * src/builtin-plot.c's) and `copyperf --plot FILE`.
 */
#ifndef COPYPERF_PLOT_H
#define COPYPERF_PLOT_H

#include <stddef.h>
#include "results_file.h"

/*
 * Checks that path names an .svg or .png file that can be written and that
 * gnuplot is installed, before anything is measured.  Returns 0, or -1 with a
 * one-line reason.
 */
int plot_check(const char *path, char *why, size_t whylen);

#define PLOT_NOTHING_TO_DRAW (-2)
#define PLOT_INTERRUPTED (-3)

/*
 * Draws one line (a replay: one series of bars) per (routine, space, set)
 * into path, which has passed plot_check; the sets hold one kind of result
 * (see result_kinds_add), atomically (atomic_file.h).  Returns 0, or with the
 * reason: PLOT_NOTHING_TO_DRAW (no verified result, or more lines or clusters
 * of bars than a plot can show), PLOT_INTERRUPTED (a signal caught: path left
 * as it was) or -1 (gnuplot could not run or
 * failed, or the file could not be written).
 */
int plot_write(const struct result_set *sets, size_t n_sets, const char *path, char *why,
	       size_t whylen);

#endif
