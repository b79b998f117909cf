/* SPDX-License-Identifier: MIT */
/*
 * SIGINT, SIGTERM and SIGHUP: the first stops the run at the next measurement
 * boundary (the command then says how far it got, writes nothing and exits
 * 128 + the signal); a second one ends the process at once, its temporary
 * files removed.
 */
#ifndef COPYPERF_INTERRUPT_H
#define COPYPERF_INTERRUPT_H

/* Catches SIGINT, SIGTERM and SIGHUP from now on, and ignores SIGXFSZ. */
void interrupt_catch(void);

/* The signal caught so far, or 0. */
int interrupt_signal(void);

/* "SIGINT", "SIGTERM" or "SIGHUP": the signal caught. */
const char *interrupt_name(void);

/* The exit status of a command stopped by the signal caught: 130, 143 or 129. */
int interrupt_exit_status(void);

#endif
