/* SPDX-License-Identifier: MIT */
/*
 * A call list replayed in user space: its arena, the timed passes, and the
 * checks that every call copied what it had to and nothing else.
 */
#ifndef COPYPERF_REPLAY_H
#define COPYPERF_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include "copyperf.h"
#include "measure/call_mixes/call_list.h"
#include "measure/placement/pages.h"
#include "sweep.h"

struct replay {
	const struct call_list *l;
	unsigned char *arena;  /* the calls' memory: page aligned, every page present */
	unsigned char *expect; /* what the arena must hold after expect_passes passes */
	unsigned char *before, *source; /* one call's surroundings and source, before it runs */
	uint64_t arena_passes, expect_passes;
	enum page_mode pages;
	bool chained;         /* each call waits for the one before (call_list_pass_chained) */
	bool tested;          /* each call after the caller's tests of its size (call_list_pass_tested) */
	unsigned char last;   /* the last byte a chained pass read back */
};

/*
 * Maps and fills the arena for l, on the pages params asks for (what the
 * kernel gave them added to *u).  Returns 0, or -1 with a one-line reason.
 */
int replay_open(struct replay *rp, const struct call_list *l,
		const struct measure_params *params, struct page_usage *u, char *err, size_t errlen);
void replay_close(struct replay *rp);

/*
 * Makes every call of the list, passes times over, with fn, each call waiting
 * for the one before where params asked for chained calls and after the
 * caller's tests of its size where they asked for tested ones; false when a
 * signal (interrupt.h) stopped it first, at the end of a pass.
 */
bool replay_timed(struct replay *rp, copyperf_copy_fn fn, uint64_t passes);

/*
 * Checks the arena against what the passes made so far must have left in it
 * (the destinations and everything around them), then makes every call
 * once more, each checked on its own: the destination holds the source's
 * bytes, nothing around it changed, the source is intact where the
 * destination does not cover it, dst is returned.  A wrong call is named
 * with its size and offsets.
 */
enum measure_status replay_verify(struct replay *rp, const char *name, copyperf_copy_fn fn,
				  char *why, size_t whylen);

#endif
