/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json_read.h"
#include "output.h"
#include "results_file.h"
#include "stats/stats.h"
#include "xalloc.h"

/*
 * Results files are a few hundred KiB; anything far larger is not one (its
 * parse would take several times its size in memory).
 */
#define MAX_FILE (64u << 20)
/* More points than any run's lists make, more samples than --repeat takes. */
#define MAX_ROWS 65536
#define MAX_SAMPLES 100000

static char *slurp(const char *path, size_t *len, char *why, size_t whylen)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f) {
		snprintf(why, whylen, "cannot read '%s': %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		if (n == cap) {
			char *more;

			if (cap >= MAX_FILE) {
				snprintf(why, whylen, "'%s' is too large for a results file", path);
				break;
			}
			cap = cap ? 2 * cap : 65536;
			if (!(more = realloc(buf, cap))) {
				snprintf(why, whylen, "'%s': out of memory reading it", path);
				break;
			}
			buf = more;
		}
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap) {
			if (ferror(f)) {
				snprintf(why, whylen, "cannot read '%s': %s", path, strerror(errno));
				break;
			}
			fclose(f);
			*len = n;
			return buf;
		}
	}
	free(buf);
	fclose(f);
	return NULL;
}

/*
 * A number a uint64_t can hold, else dflt: the cast of one past 2^64 is
 * undefined.  Whole numbers read exactly (a seed past 2^53 stays itself).
 */
static uint64_t u64_or(const struct json *obj, const char *key, uint64_t dflt)
{
	const struct json *v = json_get_type(obj, key, JSON_NUMBER);

	if (v && v->is_whole)
		return v->whole;
	return v && v->number >= 0 && v->number < 0x1p64 ? (uint64_t)v->number : dflt;
}

/*
 * A string of the file, its control characters (escaped in JSON, a file name
 * may hold any) shown as '?': what compare prints and plot draws is text, not
 * terminal escapes or gnuplot commands.
 */
static const char *string_or(const struct json *obj, const char *key, const char *dflt)
{
	const struct json *v = json_get_type(obj, key, JSON_STRING);

	if (!v)
		return dflt;
	for (char *c = v->string; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	return v->string;
}

static void read_header(struct result_set *s, const struct json *doc)
{
	const struct json *m = json_get_type(doc, "machine", JSON_OBJECT);
	const struct json *c = json_get_type(doc, "config", JSON_OBJECT);
	const struct json *align = json_get_type(c, "align", JSON_OBJECT);

	s->cpu = string_or(m, "cpu", "unknown CPU");
	s->kernel = string_or(m, "kernel", "unknown kernel");
	s->cache = string_or(c, "cache", "?");
	s->total = u64_or(c, "total", 0);
	s->buffer = u64_or(c, "buffer", 0);
	s->align_src = u64_or(align, "src", 0);
	s->align_dst = u64_or(align, "dst", 0);
	s->repeat = (unsigned)u64_or(c, "repeat", 0);
	s->seed = u64_or(c, "seed", 0);
}

/*
 * What names a row: its chunk, or its distribution and working set (a row
 * without a distribution is a chunk row, as in every file before replays).
 * False when a field the row needs is missing.
 */
static bool read_key(struct result_row *row, const struct json *e)
{
	uint64_t threads;

	row->routine = string_or(e, "routine", NULL);
	row->space = string_or(e, "space", "user");
	row->total = u64_or(e, "total", 0);
	threads = u64_or(e, "threads", 1);
	row->threads = threads <= UINT_MAX ? (unsigned)threads : 0;
	row->distribution = string_or(e, "distribution", NULL);
	if (!row->distribution) {
		row->chunk = u64_or(e, "chunk", 0);
		return row->routine && row->chunk && row->total && row->threads;
	}
	row->working_set_name = string_or(e, "working_set_name", NULL);
	row->working_set = u64_or(e, "working_set", 0);
	row->calls = u64_or(e, "calls", 0);
	/* A program's run (copyperf program) copies what it copies: no bytes or working set said. */
	if (row_is_program(row))
		return row->routine && row->calls && row->threads;
	return row->routine && row->total && row->working_set_name && row->working_set &&
	       row->calls && row->threads;
}

/*
 * A replay row's layout: "spread" (none in files from before streams) or
 * "stream".  NULL, or the word when it is another: a layout this reader does
 * not know, taken for spread, would line up with points it is not.
 */
static const char *read_layout(struct result_row *row, const struct json *e)
{
	const char *word = string_or(e, "layout", call_layout_name(CALLS_SPREAD));

	row->layout = strcmp(word, call_layout_name(CALLS_STREAM)) ? CALLS_SPREAD : CALLS_STREAM;
	return strcmp(word, call_layout_name(row->layout)) ? word : NULL;
}

/* What one measurement of a row does: bytes copied in chunks, or calls replayed. */
static double row_work(const struct result_row *r)
{
	return (double)(row_is_replay(r) ? r->calls : r->total);
}

/*
 * A replay row's flag key: false where it is missing (files from before the
 * option), -1 with the reason where it is not true or false.
 */
static int read_flag(const struct json *e, const char *key, bool *flag, size_t i, char *why,
		     size_t whylen)
{
	const struct json *v = json_get(e, key);

	if (v && v->type != JSON_TRUE && v->type != JSON_FALSE) {
		snprintf(why, whylen, "result %zu has a \"%s\" that is not true or false", i + 1,
			 key);
		return -1;
	}
	*flag = v && v->type == JSON_TRUE;
	return 0;
}

/* One element of "results"; a verified one must carry its samples. */
static int read_row(struct result_row *row, const struct json *e, double **store, size_t i,
		    char *why, size_t whylen)
{
	const struct json *samples = json_get_type(e, "samples", JSON_ARRAY);
	const struct json *verified = json_get(e, "verified");
	const char *layout;
	char where[160];

	row->verified = verified && verified->type == JSON_TRUE;
	row->n_runs = 1;
	if (!read_key(row, e)) {
		snprintf(why, whylen, "result %zu lacks %s", i + 1,
			 row->distribution ? "\"routine\", \"total\", \"working_set\", "
					     "\"working_set_name\" or \"calls\" (or has 0 \"threads\")"
					   : "\"routine\", \"chunk\" or \"total\" (or has 0 \"threads\")");
		return -1;
	}
	if (row_is_replay(row) && (layout = read_layout(row, e)) != NULL) {
		snprintf(why, whylen, "result %zu has \"layout\" '%s', not \"spread\" or \"stream\"",
			 i + 1, layout);
		return -1;
	}
	/*
	 * none in files from before --chain and --tested: their calls did not
	 * wait for each other, nor come after tests of their sizes
	 */
	if (row_is_replay(row) && (read_flag(e, "chained", &row->chained, i, why, whylen) ||
				   read_flag(e, "tested", &row->tested, i, why, whylen)))
		return -1;
	if (!row->verified)
		return 0;
	row_where(row, where, sizeof(where));
	if (!samples || samples->n == 0) {
		snprintf(why, whylen, "result %zu (%s, %s) has no \"samples\"", i + 1, row->routine,
			 where);
		return -1;
	}
	if (samples->n > MAX_SAMPLES) {
		snprintf(why, whylen, "result %zu (%s, %s) has more than %d samples", i + 1,
			 row->routine, where, MAX_SAMPLES);
		return -1;
	}
	row->samples = *store;
	row->n_samples = samples->n;
	for (size_t k = 0; k < samples->n; k++) {
		double t = samples->items[k].type == JSON_NUMBER ? samples->items[k].number : 0;

		/* a time so short that its speed is infinite is no measurement either */
		if (!(t > 0) || !isfinite(t) || !isfinite(row_work(row) / t)) {
			snprintf(why, whylen, "result %zu (%s, %s): sample %zu is not a time > 0",
				 i + 1, row->routine, where, k + 1);
			return -1;
		}
		*(*store)++ = t;
	}
	return 0;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

/* An order of points: 0 exactly when row_same_point. */
static int point_order(const struct result_row *a, const struct result_row *b)
{
	int c = strcmp(a->routine, b->routine);

	if (!c)
		c = strcmp(a->space, b->space);
	if (!c)
		c = cmp_u64(a->threads, b->threads);
	if (!c)
		c = (int)row_is_replay(a) - (int)row_is_replay(b);
	if (!c)
		c = cmp_u64(a->chunk, b->chunk);
	if (!c && row_is_replay(a))
		c = cmp_u64(a->working_set, b->working_set);
	if (!c && row_is_replay(a))
		c = (int)a->layout - (int)b->layout;
	if (!c && row_is_replay(a))
		c = (int)a->chained - (int)b->chained;
	if (!c && row_is_replay(a))
		c = (int)a->tested - (int)b->tested;
	if (!c && row_is_replay(a))
		c = strcmp(a->distribution, b->distribution);
	return c;
}

/* For qsort of row pointers: by point, then by place in the set. */
static int by_point_then_place(const void *x, const void *y)
{
	const struct result_row *a = *(const struct result_row *const *)x;
	const struct result_row *b = *(const struct result_row *const *)y;
	int c = point_order(a, b);

	return c ? c : (a > b) - (a < b);
}

/*
 * Sorts s's rows by point into s->index, for result_set_find.  Returns 0, or
 * -1 when out of memory; *twin (if asked) is a row that repeats an earlier
 * one's point, or NULL.
 */
static int result_set_index(struct result_set *s, const struct result_row **twin)
{
	free(s->index);
	s->index = calloc(s->n + 1, sizeof(*s->index));
	if (!s->index)
		return -1;
	for (size_t i = 0; i < s->n; i++)
		s->index[i] = &s->rows[i];
	qsort(s->index, s->n, sizeof(*s->index), by_point_then_place);
	for (size_t i = 1; twin && i < s->n; i++)
		if (!point_order(s->index[i - 1], s->index[i])) {
			*twin = s->index[i];
			return 0;
		}
	if (twin)
		*twin = NULL;
	return 0;
}

static int read_rows(struct result_set *s, const struct json *results, char *why, size_t whylen)
{
	size_t n_samples = 0;
	const struct result_row *twin;
	double *store;

	if (results->n > MAX_ROWS) {
		snprintf(why, whylen, "more than %d results", MAX_ROWS);
		return -1;
	}
	for (size_t i = 0; i < results->n; i++) {
		const struct json *a = json_get_type(&results->items[i], "samples", JSON_ARRAY);

		n_samples += a ? a->n : 0;
	}
	s->rows = calloc(results->n + 1, sizeof(*s->rows));
	s->sample_store = store = calloc(n_samples + 1, sizeof(double));
	if (!s->rows || !store) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < results->n; i++)
		if (read_row(&s->rows[i], &results->items[i], &store, i, why, whylen))
			return -1;
	s->n = results->n;
	if (result_set_index(s, &twin)) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	if (twin) {
		const struct result_row *first = result_set_find(s, twin);
		char where[160];

		row_where(twin, where, sizeof(where));
		snprintf(why, whylen, "result %zu repeats result %zu (%s, %s)",
			 (size_t)(twin - s->rows) + 1, (size_t)(first - s->rows) + 1, twin->routine,
			 where);
		return -1;
	}
	return 0;
}

int result_set_read(struct result_set *s, const char *path, char *why, size_t whylen)
{
	char reason[400]; /* a row named by its routine and distribution, each maybe a path */
	size_t len;
	char *text;
	const struct json *results;

	memset(s, 0, sizeof(*s));
	s->source = path;
	if (!(text = slurp(path, &len, why, whylen)))
		return -1;
	s->doc = json_parse(text, len, reason, sizeof(reason));
	free(text);
	if (!s->doc) {
		if (errno == ENOMEM)
			snprintf(why, whylen, "'%s': out of memory reading it", path);
		else
			snprintf(why, whylen, "'%s' is not valid JSON: %s", path, reason);
		return -1;
	}
	results = json_get_type(s->doc, "results", JSON_ARRAY);
	if (strcmp(string_or(s->doc, "tool", ""), "copyperf") || !results) {
		snprintf(why, whylen,
			 "'%s' is not copyperf results (no \"tool\":\"copyperf\" with \"results\"; "
			 "make them with -f json)",
			 path);
		return -1;
	}
	read_header(s, s->doc);
	s->runs = 1;
	if (read_rows(s, results, reason, sizeof(reason))) {
		snprintf(why, whylen, "'%s': %s", path, reason);
		return -1;
	}
	return 0;
}

int result_set_from_report(struct result_set *s, const struct report *r)
{
	const struct options *o = r->o;

	memset(s, 0, sizeof(*s));
	s->source = "this run";
	s->cpu = r->m->cpu;
	s->kernel = r->m->kernel;
	s->cache = cache_mode_name(o->cache);
	s->total = o->total;
	s->buffer = o->buffer;
	s->align_src = o->align_src;
	s->align_dst = o->align_dst;
	s->repeat = o->repeat;
	s->seed = o->seed;
	s->runs = 1;
	s->rows = calloc(r->n + 1, sizeof(*s->rows));
	if (!s->rows)
		return -1;
	for (size_t i = 0; i < r->n; i++) {
		const struct point_result *p = &r->results[i];

		s->rows[i] = (struct result_row){ .routine = p->routine,
						  .space = p->space,
						  .chunk = p->chunk,
						  .distribution = p->distribution,
						  .working_set_name = p->working_set_name,
						  .working_set = p->working_set,
						  .layout = p->layout,
						  .chained = p->chained,
						  .tested = p->tested,
						  .calls = p->calls,
						  .threads = point_threads(p),
						  .total = p->total,
						  .n_samples = p->repeats,
						  .samples = p->samples,
						  .verified = p->verified,
						  .n_runs = 1 };
	}
	s->n = r->n;
	return result_set_index(s, NULL);
}

bool row_same_routine(const struct result_row *a, const struct result_row *b)
{
	return !strcmp(a->routine, b->routine) && !strcmp(a->space, b->space);
}

bool row_same_place(const struct result_row *a, const struct result_row *b)
{
	if (a->chunk != b->chunk || a->threads != b->threads || row_is_replay(a) != row_is_replay(b))
		return false;
	return !row_is_replay(a) || (a->working_set == b->working_set && a->layout == b->layout &&
				     a->chained == b->chained && a->tested == b->tested &&
				     !strcmp(a->distribution, b->distribution));
}

bool row_same_point(const struct result_row *a, const struct result_row *b)
{
	return row_same_place(a, b) && row_same_routine(a, b);
}

void row_where(const struct result_row *r, char *buf, size_t len)
{
	char threads[32] = "";

	if (r->threads > 1)
		snprintf(threads, sizeof(threads), ", %u threads", r->threads);
	if (row_is_replay(r))
		snprintf(buf, len, "%s %s%s%s%s", r->distribution, r->working_set_name,
			 r->chained ? " chained" : "", r->tested ? " tested" : "", threads);
	else
		snprintf(buf, len, "chunk %llu%s", (unsigned long long)r->chunk, threads);
}

size_t result_set_thread_counts(const struct result_set *s, unsigned *out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++) {
		unsigned t = s->rows[i].threads;
		size_t k = 0;

		while (k < n && out[k] < t)
			k++;
		if (!s->rows[i].verified || (k < n && out[k] == t) || n == max)
			continue;
		memmove(out + k + 1, out + k, (n - k) * sizeof(*out));
		out[k] = t;
		n++;
	}
	return n;
}

const struct result_row *result_set_find(const struct result_set *s, const struct result_row *key)
{
	size_t lo = 0, hi = s->n;

	if (!s->index) { /* a set made by hand */
		for (size_t i = 0; i < s->n; i++)
			if (row_same_point(&s->rows[i], key))
				return &s->rows[i];
		return NULL;
	}
	/* the first of the index's rows at key's point: the earliest in the set */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (point_order(s->index[mid], key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n && !point_order(s->index[lo], key) ? s->index[lo] : NULL;
}

bool result_set_is_program(const struct result_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (!row_is_program(&s->rows[i]))
			return false;
	return s->n > 0;
}

bool result_set_is_replay(const struct result_set *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (row_is_replay(&s->rows[i]))
			return true;
	return false;
}

const char *result_set_calling(const struct result_set *s)
{
	/* [chained: none, some, all][tested: none, some, all] */
	static const char *const says[3][3] = {
		{ NULL, "some calls tested", "calls tested" },
		{ "some calls chained", "some calls chained, some tested",
		  "some calls chained, calls tested" },
		{ "calls chained", "calls chained, some tested", "calls chained and tested" },
	};
	size_t replays = 0, chained = 0, tested = 0;

	for (size_t i = 0; i < s->n; i++) {
		replays += row_is_replay(&s->rows[i]);
		chained += s->rows[i].chained;
		tested += s->rows[i].tested;
	}
	return says[!chained ? 0 : chained == replays ? 2 : 1][!tested ? 0 : tested == replays ? 2 : 1];
}

int result_kinds_add(struct result_kinds *k, const struct result_set *s, char *why, size_t whylen)
{
	for (size_t i = 0; i < s->n; i++) {
		const char **first = row_is_replay(&s->rows[i]) ? &k->replay : &k->chunk;

		if (!*first)
			*first = s->source;
	}
	if (!k->chunk || !k->replay)
		return 0;
	if (k->chunk == k->replay)
		snprintf(why, whylen, "'%s' holds both chunk results and replayed call mixes",
			 k->chunk);
	else
		snprintf(why, whylen, "'%s' holds chunk results and '%s' replayed call mixes",
			 k->chunk, k->replay);
	return -1;
}

bool result_sets_same_walk(const struct result_set *a, const struct result_set *b)
{
	/* a replay has no cache mode, buffers or offsets (null, or in older files a default) */
	if (result_set_is_replay(a) && result_set_is_replay(b))
		return true;
	return !strcmp(a->cache, b->cache) && a->buffer == b->buffer &&
	       a->align_src == b->align_src && a->align_dst == b->align_dst;
}

int result_sets_alike(const struct result_set *sets, size_t n, char *why, size_t whylen)
{
	for (size_t i = 1; i < n; i++) {
		const struct result_set *a = &sets[0], *b = &sets[i];

		if (!result_sets_same_walk(a, b)) {
			snprintf(why, whylen,
				 "'%s' and '%s' were measured with other options (cache, buffer or "
				 "align): their repeats are not one population",
				 a->source, b->source);
			return -1;
		}
	}
	return 0;
}

/* A row of the sets pooled, and its place in them (set by set, row by row). */
struct pool_key {
	const struct result_row *row;
	size_t pos;
};

static int by_point_then_pos(const void *x, const void *y)
{
	const struct pool_key *a = x, *b = y;
	int c = point_order(a->row, b->row);

	return c ? c : (a->pos > b->pos) - (a->pos < b->pos);
}

/* The row at place pos of the sets, counted set by set. */
static const struct result_row *sets_row(const struct result_set *sets, size_t pos)
{
	for (; pos >= sets->n; sets++)
		pos -= sets->n;
	return &sets->rows[pos];
}

int result_set_pool(struct result_set *out, const struct result_set *sets, size_t n,
		    const char *label)
{
	size_t cap = 0, n_samples = 0, pos = 0;
	struct pool_key *keys;
	size_t *first, *slot; /* by place: the first place of its point; a first place's row in out */
	double *at;

	*out = sets[0];
	out->source = label;
	out->doc = NULL;
	out->index = NULL;
	out->repeat = 0;
	out->runs = 0;
	out->n = 0;
	for (size_t s = 0; s < n; s++) {
		cap += sets[s].n;
		out->repeat += sets[s].repeat;
		out->runs += sets[s].runs;
		out->seeds_vary =
			out->seeds_vary || sets[s].seeds_vary || sets[s].seed != out->seed;
		for (size_t i = 0; i < sets[s].n; i++)
			n_samples += sets[s].rows[i].n_samples;
	}
	out->rows = calloc(cap + 1, sizeof(*out->rows));
	out->sample_store = at = calloc(n_samples + 1, sizeof(double));
	out->run_store = calloc(cap + 1, sizeof(double));
	keys = calloc(cap + 1, sizeof(*keys));
	first = calloc(2 * cap + 1, sizeof(*first));
	if (!out->rows || !at || !out->run_store || !keys || !first) {
		free(keys);
		free(first);
		return -1;
	}
	slot = first + cap;
	for (size_t s = 0; s < n; s++)
		for (size_t i = 0; i < sets[s].n; i++, pos++)
			keys[pos] = (struct pool_key){ &sets[s].rows[i], pos };
	qsort(keys, cap, sizeof(*keys), by_point_then_pos);
	for (size_t k = 0, lead = 0; k < cap; k++) {
		if (k && point_order(keys[k - 1].row, keys[k].row))
			lead = k;
		first[keys[k].pos] = keys[lead].pos;
	}
	/* by place again: the points in order of first appearance, then each run's samples */
	for (size_t k = 0; k < cap; k++)
		keys[k].row = sets_row(sets, k);
	for (size_t k = 0; k < cap; k++) {
		const struct result_row *r = keys[k].row;
		struct result_row *p;

		if (first[k] == k) {
			slot[k] = out->n;
			p = &out->rows[out->n++];
			*p = *r;
			p->n_samples = 0;
			p->n_runs = 0;
		}
		p = &out->rows[slot[first[k]]];
		p->n_runs += r->n_samples > 0;
		p->verified = p->verified && r->verified;
		p->n_samples += r->n_samples;
	}
	for (size_t k = 0, runs = 0; k < out->n; k++) {
		out->rows[k].samples = at;
		at += out->rows[k].n_samples;
		out->rows[k].run_speeds = out->run_store + runs;
		runs += out->rows[k].n_runs;
		out->rows[k].n_runs = 0; /* both counted again as they are filled */
		out->rows[k].n_samples = 0;
	}
	for (size_t k = 0; k < cap; k++) {
		const struct result_row *r = keys[k].row;
		struct result_row *p = &out->rows[slot[first[k]]];
		double *to;

		if (!r->n_samples)
			continue;
		to = (double *)p->samples + p->n_samples;
		memcpy(to, r->samples, r->n_samples * sizeof(double));
		/* seconds for the pooled row's work: other seeds copy other bytes */
		for (size_t j = 0; row_work(r) != row_work(p) && j < r->n_samples; j++)
			to[j] *= row_work(p) / row_work(r);
		p->n_samples += r->n_samples;
		((double *)p->run_speeds)[p->n_runs++] =
			row_work(r) / median_of(r->samples, r->n_samples);
	}
	free(keys);
	free(first);
	return result_set_index(out, NULL);
}

void result_set_free(struct result_set *s)
{
	json_free(s->doc);
	free(s->index);
	free(s->rows);
	free(s->sample_store);
	free(s->run_store);
	memset(s, 0, sizeof(*s));
}

void row_speeds(const struct result_row *row, double *out)
{
	for (size_t k = 0; k < row->n_samples; k++)
		out[k] = row_work(row) / row->samples[k];
}

void row_speed_summary(const struct result_row *row, struct summary *out)
{
	struct summary t;
	double work = row_work(row);

	summarize(row->samples, row->n_samples, &t);
	out->median = work / t.median;
	out->min = work / t.max;
	out->max = work / t.min;
	out->mean = work / t.mean;
	out->stddev = out->mean * t.stddev / t.mean; /* to first order */
}
