/* SPDX-License-Identifier: MIT */
/*
 * The subcommands, as Linux perf keeps them: each builtin-NAME.c holds one
 * subcommand's command line and its main, and leaves the work to its engine
 * (report/compare.c, report/plot.c).  argv[0] is the subcommand's name; each
 * returns the exit status.
 */
#ifndef COPYPERF_BUILTIN_H
#define COPYPERF_BUILTIN_H

/* The exit status for bad options or input that cannot be used, in every subcommand. */
#define EXIT_USAGE 2

/* `copyperf compare`: 0, 1 (a regression past --threshold) or 2. */
int cmd_compare(int argc, char **argv);

/* `copyperf plot`: 0, 1 (gnuplot failed) or 2 (bad input). */
int cmd_plot(int argc, char **argv);

/* `copyperf program`: 0, 1 (the command failed, or its outputs differ), 2 (bad input) or 128+N. */
int cmd_program(int argc, char **argv);

#endif
