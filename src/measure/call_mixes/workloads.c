/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "distribution_files.h"
#include "measure/hardware/cache.h"
#include "measure/hardware/llc_probe.h"
#include "sizes.h"
#include "workloads.h"

static const struct {
	const char *name;
	unsigned level; /* 0: the last */
	bool memory;    /* from memory: sized from llc_memory_level() */
	uint64_t num, den;
} levels[] = {
	{ "l1", 1, false, 3, 4 }, { "l2", 2, false, 1, 2 }, { "llc", 0, false, 1, 2 },
	{ "cold", 0, true, 2, 1 },
	{ "stream", 0, true, 4, 1 }, /* two walks of twice the last level each */
};
#define N_LEVELS (sizeof(levels) / sizeof(levels[0]))

bool working_set_is_level(const char *word)
{
	for (size_t i = 0; i < N_LEVELS; i++)
		if (!strcmp(word, levels[i].name))
			return true;
	return false;
}

bool working_set_is_stream(const char *word)
{
	return !strcmp(word, "stream");
}

int working_set_calls(struct call_list *l, const struct distribution *d, const char *word,
		      uint64_t bytes, uint64_t seed, char *err, size_t errlen)
{
	if (working_set_is_stream(word))
		return call_list_build_stream(l, d, bytes, seed, err, errlen);
	return call_list_build(l, d, bytes, seed, call_list_calls(bytes, d->mean_size), err, errlen);
}

uint64_t working_set_bytes(const char *word, char *err, size_t errlen)
{
	uint64_t v;

	for (size_t i = 0; i < N_LEVELS; i++) {
		if (strcmp(word, levels[i].name))
			continue;
		if (levels[i].level) {
			v = cache_data_size(levels[i].level);
		} else { /* the last level as this CPU finds it, not as a guest may be told */
			if (llc_probe()->bad_given) {
				snprintf(err, errlen, "--working-set %s: COPYPERF_LLC='%s' is not a size "
					 "such as 16M (or 16M,64M)", word, getenv("COPYPERF_LLC"));
				return 0;
			}
			v = levels[i].memory ? llc_memory_level(llc_probe()) : llc_probe()->size;
		}
		if (!v)
			snprintf(err, errlen, "--working-set %s: this machine does not say how large its "
				 "%s cache is (give a size)", word, levels[i].level ? word : "last-level");
		return v * levels[i].num / levels[i].den;
	}
	if (parse_size(word, &v, err, errlen))
		return 0;
	return v;
}

/*
 * A point is known by its bytes and layout: two names for both would make one
 * point twice (a stream and a spread list of equal bytes are two).
 */
bool working_sets_coincide(const char *a, uint64_t a_bytes, const char *b, uint64_t b_bytes)
{
	return a_bytes == b_bytes && working_set_is_stream(a) == working_set_is_stream(b);
}

static int add_working_sets(struct workloads *ws, const struct measure_params *params, char *err,
			    size_t errlen)
{
	ws->ws_names = params->working_sets;
	ws->ws_bytes = calloc(params->n_working_sets + 1, sizeof(*ws->ws_bytes));
	if (!ws->ws_bytes) {
		snprintf(err, errlen, "--working-set: out of memory");
		return -1;
	}
	for (size_t i = 0; i < params->n_working_sets; i++) {
		if ((ws->ws_bytes[i] = working_set_bytes(params->working_sets[i], err, errlen)) == 0)
			return -1;
		for (size_t k = 0; k < i; k++)
			if (working_sets_coincide(params->working_sets[k], ws->ws_bytes[k],
						  params->working_sets[i], ws->ws_bytes[i])) {
				snprintf(err, errlen, "--working-set: '%s' and '%s' are both %llu bytes here",
					 params->working_sets[k], params->working_sets[i],
					 (unsigned long long)ws->ws_bytes[i]);
				return -1;
			}
	}
	ws->n_ws = params->n_working_sets;
	return 0;
}

static int build_replays(struct workloads *ws, const struct measure_params *params, char *err,
			 size_t errlen)
{
	if (distribution_load(params->distributions, params->n_distributions, &ws->dists,
			      &ws->n_dists, err, errlen) ||
	    add_working_sets(ws, params, err, errlen))
		return -1;
	ws->w = calloc(ws->n_dists * ws->n_ws + 1, sizeof(*ws->w));
	ws->lists = calloc(ws->n_dists * ws->n_ws + 1, sizeof(*ws->lists));
	if (!ws->w || !ws->lists) {
		snprintf(err, errlen, "--distribution: out of memory");
		return -1;
	}
	for (size_t d = 0; d < ws->n_dists; d++)
		for (size_t k = 0; k < ws->n_ws; k++) {
			struct workload *w = &ws->w[ws->n];
			uint64_t bytes = ws->ws_bytes[k];

			if (working_set_calls(&ws->lists[ws->n], &ws->dists[d], ws->ws_names[k], bytes,
					      params->seed, err, errlen))
				return -1;
			w->calls = &ws->lists[ws->n++];
			w->distribution = ws->dists[d].name;
			w->working_set_name = ws->ws_names[k];
			w->working_set = bytes;
		}
	return 0;
}

int workloads_build(struct workloads *ws, const struct measure_params *params, char *err,
		    size_t errlen)
{
	memset(ws, 0, sizeof(*ws));
	if (params->distributions) {
		int status = build_replays(ws, params, err, errlen);

		ws->n_lists = ws->n;
		return status;
	}
	ws->w = calloc(params->n_sizes + 1, sizeof(*ws->w));
	if (!ws->w) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (; ws->n < params->n_sizes; ws->n++)
		ws->w[ws->n].chunk = params->sizes[ws->n];
	return 0;
}

size_t workloads_largest_arena(const struct workloads *ws)
{
	size_t largest = 0;

	for (size_t i = 0; i < ws->n_lists; i++)
		largest = ws->lists[i].arena > largest ? ws->lists[i].arena : largest;
	return largest;
}

int workloads_by_threads(struct workloads *ws, const unsigned *counts, size_t n, char *err,
			 size_t errlen)
{
	struct workload *w;

	if (!n)
		return 0;
	w = calloc(ws->n * n + 1, sizeof(*w));
	if (!w) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < ws->n; i++)
		for (size_t k = 0; k < n; k++) {
			w[i * n + k] = ws->w[i];
			w[i * n + k].threads = counts[k];
		}
	free(ws->w);
	ws->w = w;
	ws->n *= n;
	return 0;
}

void workloads_free(struct workloads *ws)
{
	for (size_t i = 0; ws->lists && i < ws->n_lists; i++)
		call_list_free(&ws->lists[i]);
	distributions_free(ws->dists, ws->n_dists);
	free(ws->lists);
	free(ws->ws_bytes);
	free(ws->w);
	memset(ws, 0, sizeof(*ws));
}
