/* SPDX-License-Identifier: MIT */
/*
 * Hardware counters around each timed walk, through perf_event_open: cycles,
 * instructions, L1D read misses and LLC misses, user space only.  Counted only
 * while enabled, so the walk's flushes and the verification stay out.
 */
#ifndef COPYPERF_COUNTERS_H
#define COPYPERF_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

enum counter_event {
	COUNTER_CYCLES, /* the group's leader: without it there are no counters */
	COUNTER_INSTRUCTIONS,
	COUNTER_L1D_READ_MISSES,
	COUNTER_LLC_MISSES,
	N_COUNTERS
};

/* Sums over measurements; an event counts only if it was counted every time. */
struct counter_values {
	uint64_t count[N_COUNTERS];
	unsigned present;      /* bit e: event e was counted */
	unsigned measurements; /* how many were added */
};

/* What perf_event_open is asked for each event (perf_event_attr type and config). */
struct counter_spec {
	uint32_t type;
	uint64_t config;
};

struct counters {
	int fd[N_COUNTERS];       /* -1: not counted */
	uint64_t id[N_COUNTERS];  /* the kernel's id of each, to match the group's read */
	unsigned open;            /* bit e: fd[e] is open */
};

extern const struct counter_spec counters_hardware[N_COUNTERS];

/*
 * Opens the events of spec as one group for this thread (counting disabled).
 * Returns 0, or -1 with a one-line reason when even the leader cannot be
 * opened (no PMU, perf_event_paranoid, no perf_event_open).
 */
int counters_open(struct counters *c, const struct counter_spec spec[N_COUNTERS], char *why,
		  size_t whylen);
void counters_close(struct counters *c);

/* Zeroes and enables the group. */
void counters_start(struct counters *c);
/* Disables it for a moment (an untimed flush inside the walk) and again. */
void counters_pause(struct counters *c);
void counters_resume(struct counters *c);
/* Disables the group and reads it into *out (replacing what was there). */
void counters_stop(struct counters *c, struct counter_values *out);

/* Adds one measurement's values to a sum. */
void counters_add(struct counter_values *sum, const struct counter_values *one);
/* The mean per measurement of event e, or -1 when it was not counted. */
double counter_mean(const struct counter_values *v, enum counter_event e);

const char *counter_name(enum counter_event e);

#endif
