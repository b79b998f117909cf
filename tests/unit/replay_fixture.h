/* SPDX-License-Identifier: MIT */
/*
 * A small report of replayed call mixes for the writers' and the results
 * files' tests: memcpy replaying one mix per point, every point 1000 calls
 * copying 150000 bytes (150 B a call) per measurement, measured in 10, 20
 * and 15 us: 15 ns/call median, 10 min, 20 max; 10^10 bytes/s at the median.
 */
#ifndef COPYPERF_REPLAY_FIXTURE_H
#define COPYPERF_REPLAY_FIXTURE_H

#include <string.h>
#include "report/output.h"

#define REPLAY_POINTS 3
/* 2^63 + 5: a seed no double holds, which must still be written and read exactly */
#define REPLAY_SEED 9223372036854775813u

static double replay_samples[3] = { 10e-6, 20e-6, 15e-6 };

struct replay_fixture {
	struct options o;
	struct machine_info m;
	struct point_result p[REPLAY_POINTS];
	struct report r;
};

/*
 * n points, verified; point i replays distributions[i] in the working set
 * names[i] of bytes[i].  The -d and -w words are the same lists.
 */
static inline void replay_fixture(struct replay_fixture *x, size_t n, char **distributions,
				  char **names, const uint64_t *bytes)
{
	memset(x, 0, sizeof(*x));
	x->o.repeat = 3;
	x->o.distributions = distributions;
	x->o.n_distributions = n;
	x->o.working_sets = names;
	x->o.n_working_sets = n;
	x->o.seed = REPLAY_SEED;
	x->o.format = FORMAT_JSON;
	snprintf(x->m.cpu, sizeof(x->m.cpu), "test CPU");
	for (size_t i = 0; i < n; i++) {
		struct point_result *p = &x->p[i];

		p->routine = "memcpy";
		p->space = "user";
		p->distribution = distributions[i];
		p->working_set_name = names[i];
		p->working_set = bytes[i];
		p->calls = 1000;
		p->total = 150000;
		p->repeats = 3;
		p->samples = replay_samples;
		summarize(replay_samples, 3, &p->seconds);
		p->verified = true;
	}
	x->r = (struct report){ .o = &x->o, .m = &x->m, .results = x->p, .n = n };
}

/* Point i FAILED with why. */
static inline void replay_fail(struct replay_fixture *x, size_t i, const char *why)
{
	x->p[i].verified = false;
	snprintf(x->p[i].error, sizeof(x->p[i].error), "%s", why);
}

#endif
