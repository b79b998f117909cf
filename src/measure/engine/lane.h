/* SPDX-License-Identifier: MIT */
/*
 * One thread's share of a measurement: its own source and destination
 * buffers (or replay arena), and one measurement made on them in three
 * steps, so that several threads can start and stop their timed parts
 * together: prepare (untimed), the timed copies, verify.
 */
#ifndef COPYPERF_LANE_H
#define COPYPERF_LANE_H

#include <stdbool.h>
#include <stdint.h>
#include "copyperf.h"
#include "measure/hardware/cache.h"
#include "measure/hardware/counters.h"
#include "measure/placement/pages.h"
#include "params.h"
#include "replay.h"
#include "sweep.h"

struct lane {
	const struct measure_params *params;
	unsigned char *src_map, *dst_map; /* whole mappings */
	size_t map_len;
	unsigned char *src, *dst; /* page base + --align offset */
	size_t region;            /* walkable bytes from src and dst */
	size_t cursor;            /* cold: where the next measurement starts */
	struct replay replay;     /* the replay being measured, if any */
	struct page_usage pages;  /* what the kernel gave this lane's buffers */
	struct cache_evictor evict; /* cold where nothing flushes: read to push the buffers out */
	/* the measurement under way: what prepare chose for the timed part */
	size_t start, walk, touched;
	uint64_t count;
	size_t last_pass;     /* what the walk's last pass copied, from start */
	size_t wrong_pass_at; /* a checked pass's first wrong byte, from start; SIZE_MAX: none */
	/*
	 * What a right pass leaves, the source's ref_len bytes from ref_start
	 * (SIZE_MAX: none yet) in memory no routine is given: a routine that
	 * writes its source (its arguments swapped, say) cannot make a wrong pass
	 * look right.
	 */
	unsigned char *ref;
	size_t ref_start, ref_len;
	bool checked_in_walk; /* the timed walk checks its passes (see lane.c) */
};

/* When a lane's timed part ran: its start, its end, and the time paused inside (flush). */
struct lane_time {
	uint64_t t0, t1, paused;
};

static inline double lane_seconds(const struct lane_time *t)
{
	return (double)(t->t1 - t->t0 - t->paused) * 1e-9;
}

/* Maps and fills the chunk sweep's buffers (none for a replay).  0, or -1 with a usage error. */
int lane_open(struct lane *l, const struct measure_params *params, char *err, size_t errlen);
void lane_close(struct lane *l);

/* The bytes of the two mappings lane_open makes (for pages_check). */
size_t lane_map_length(const struct measure_params *params);

/* Untimed: the destination reset, caches flushed as the mode asks; a replay's arena opened. */
enum measure_status lane_prepare(struct lane *l, const struct workload *w, char *why,
				 size_t whylen);

/*
 * The timed copies with fn; counters (started by the caller, or NULL) are
 * paused during a flush the timer pauses for.  False when a signal caught
 * (interrupt.h) cut them short: the copies are then neither whole nor timed.
 */
bool lane_timed(struct lane *l, copyperf_copy_fn fn, const struct workload *w,
		struct counters *counters, struct lane_time *t);

/* Checks what the timed copies left, and the routine's return value. */
enum measure_status lane_verify(struct lane *l, const struct copyperf_routine *routine,
				const struct workload *w, char *why, size_t whylen);

#endif
