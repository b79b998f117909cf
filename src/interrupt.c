/* SPDX-License-Identifier: MIT */
#include <signal.h>
#include <string.h>
#include "interrupt.h"
#include "report/atomic_file.h"

static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
	if (!caught) {
		caught = sig;
		return;
	}
	atomic_file_remove_temps();
	signal(sig, SIG_DFL);
	raise(sig);
}

void interrupt_catch(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/* Restarted: a write or waitpid is not cut short; the module's walk checks by itself. */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL); /* the terminal closed: as SIGTERM */
	/*
	 * A file size limit: the write fails (EFBIG) and is reported, the old file
	 * kept, where the signal would kill the run and leave its temporary file.
	 */
	signal(SIGXFSZ, SIG_IGN);
}

int interrupt_signal(void)
{
	return caught;
}

const char *interrupt_name(void)
{
	return caught == SIGINT ? "SIGINT" : caught == SIGHUP ? "SIGHUP" : "SIGTERM";
}

int interrupt_exit_status(void)
{
	return 128 + caught;
}
