/* SPDX-License-Identifier: MIT */
/*
 * Measuring (copybench.h): one process measures its tables' rows, each copy
 * warmed up and checked first, the contenders interleaved round by round;
 * the run starts that process afresh for each of -p's and gathers the rows
 * each one prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "all_cpus.h"
#include "bench_design.h"
#include "copybench.h"
#include "fresh_process.h"
#include "measure/call_mixes/call_list.h"
#include "measure/engine/lane.h"
#include "measure/hardware/cache.h"
#include "measure/hardware/llc_probe.h"

static void warm_up(const struct table *t, const struct contender *who, unsigned c,
		    const struct buffers *b, size_t size, unsigned char **reference)
{
	size_t n, at;

	if (c == BOUND || t->measure == measure_lane) { /* reads only; checks every copy itself */
		t->measure(&who[c], size, b);
		return;
	}
	if (t->placed) {
		t->placed->check(&who[c], size, b);
		t->measure(&who[c], size, b);
		return;
	}
	if (t->measure == measure_threads) { /* each CPU's own buffers */
		unsigned cpus = all_cpus_count(b->cpus);

		for (unsigned i = 0; i < cpus; i++)
			memset(all_cpus_buffer(b->cpus, i, 1), 0, size + (size + 64 <= t->buffer ? 64 : 0));
		t->measure(&who[c], size, b);
		for (unsigned i = 0; i < cpus; i++) {
			at = first_wrong(all_cpus_buffer(b->cpus, i, 1), all_cpus_buffer(b->cpus, i, 0),
					 size, size + 64 <= t->buffer ? 64 : 0);
			if (at != (size_t)-1) {
				char what[64];

				snprintf(what, sizeof(what), "at %zu B on CPU %u of %u", size, i + 1, cpus);
				wrong_copy(who[c].name, what, at);
			}
		}
		return;
	}
	if (!t->mixes) {
		n = written(t, size);
		memset(b->dst, 0, n + (n + 64 <= t->buffer ? 64 : t->buffer - n));
		t->measure(&who[c], size, b);
		at = first_wrong(b->dst, b->src + source_skew(t), n, n + 64 <= t->buffer ? 64 : t->buffer - n);
		if (at != (size_t)-1) {
			char what[48];

			snprintf(what, sizeof(what), "at %zu B", size);
			wrong_copy(who[c].name, what, at);
		}
		return;
	}
	/* a pass over the calls from the same arena for each: the same bytes after it */
	fill_source(b->arena, b->calls->arena);
	t->measure(&who[c], size, b);
	if (!*reference) {
		*reference = malloc(b->calls->arena);
		if (!*reference) {
			fprintf(stderr, "copybench: out of memory for a reference arena\n");
			exit(1);
		}
		memcpy(*reference, b->arena, b->calls->arena);
		return;
	}
	at = first_wrong(b->arena, *reference, b->calls->arena, 0);
	if (at != (size_t)-1)
		wrong_copy(who[c].name, "on a call mix (its arena against the first contender's)", at);
}


static struct result measure_size(const struct table *t, const struct contender *who,
				  const struct buffers *b, size_t size)
{
	double samples[MAX_CONTENDERS][MAX_ROUNDS];
	unsigned n = t->bound ? MAX_CONTENDERS : N_CONTENDERS;
	struct result r = { 0 };
	unsigned char *reference = NULL;

	for (unsigned c = 0; c < n; c++)
		warm_up(t, who, c, b, size, &reference);
	free(reference);
	for (unsigned i = 0; i < rounds_of(t); i++)
		for (unsigned k = 0; k < n; k++) {
			unsigned c = bench_round_order(n, i, k);

			samples[c][i] = t->measure(&who[c], size, b);
		}
	for (unsigned c = 0; c < n; c++)
		r.s[c] = stats_of(samples[c], rounds_of(t));
	return r;
}

/* Measures every row of table t in this process. */
void measure_table(unsigned t, struct result *out)
{
	const struct table *tb = &tables[t];
	struct buffers b = { 0 };
	struct lane lane;
	struct measure_params lane_params;

	if (tb->mixes) {
		for (unsigned r = 0; r < n_rows(t); r++) {
			struct call_list l;

			load_row(t, r, &l, &b);
			out[r] = measure_size(tb, contenders_of(t), &b, r);
			munmap(b.arena, l.arena);
			call_list_free(&l);
		}
		return;
	}
	if (tb->measure == measure_lane) { /* copyperf's own buffers: as -c flush or -c cold makes them */
		char err[400];

		lane_params = (struct measure_params){ .total = tb->bytes, .buffer = tb->buffer,
						       .cache = tb->cache, .repeat = 1 };
		if (tb->cache == CACHE_COLD)
			lane_params.buffer = cache_cold_bytes();
		if (lane_open(&lane, &lane_params, err, sizeof(err))) {
			fprintf(stderr, "copybench: %s\n", err);
			exit(1);
		}
		b.lane = &lane;
		for (unsigned i = 0; i < tb->n_sizes; i++)
			out[i] = measure_size(tb, contenders_of(t), &b, tb->sizes[i]);
		lane_close(&lane);
		return;
	}
	if (tb->measure == measure_threads) {
		b.cpus = all_cpus_start(tb->buffer);
		if (b.cpus == NULL)
			exit(1);
		for (unsigned i = 0; i < all_cpus_count(b.cpus); i++) /* after each worker's first touch */
			fill_source(all_cpus_buffer(b.cpus, i, 0), tb->buffer);
	} else {
		b.src = map_prefaulted(tb->buffer);
		b.dst = map_prefaulted(tb->buffer);
		fill_source(b.src, tb->buffer);
	}
	b.junk = tb->junk ? map_prefaulted(tb->junk) : NULL;
	for (unsigned i = 0; i < tb->n_sizes; i++) /* placed: its rows by number */
		out[i] = measure_size(tb, contenders_of(t), &b, tb->placed ? i : tb->sizes[i]);
	if (b.cpus) {
		all_cpus_stop(b.cpus);
	} else {
		munmap(b.src, tb->buffer);
		munmap(b.dst, tb->buffer);
	}
	if (b.junk)
		munmap(b.junk, tb->junk);
}

/* A child's report, one line per size: table, size index, then med/min/max of each contender. */
void print_raw(unsigned t, const struct result *r, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		printf("%u %u", t, i);
		for (unsigned c = 0; c < MAX_CONTENDERS; c++)
			printf(" %a %a %a", r[i].s[c].median, r[i].s[c].min, r[i].s[c].max);
		printf("\n");
	}
}

/*
 * That ratio for table t, in this process (0: not measured: no L2 known, or
 * no memory). Twice the L2 is read once a process, for both tables.
 */
static double set_reads_ratio(unsigned t)
{
	static double ref;
	uint64_t l2 = cache_data_size(2);
	double set = llc_chase_ns(mixes[t].ws[0], NULL);

	if (!ref)
		ref = l2 ? llc_chase_ns(2 * l2, NULL) : -1;
	return ref > 0 && set > 0 ? set / ref : 0;
}

/* A line of its own beside print_raw's rows: "set TABLE RATIO". */
void print_set_reads(unsigned t)
{
	printf("set %u %a\n", t, set_reads_ratio(t));
}

/* Reads one line of print_raw's ('r') or print_set_reads' ('s'); 0 at the end. */
static int scan_raw(FILE *in, unsigned *t, unsigned *i, struct result *r, double *set)
{
	char line[1024];
	const char *at;
	int used;

	memset(r, 0, sizeof(*r));
	if (!fgets(line, sizeof(line), in))
		return 0;
	if (sscanf(line, "set %u %la", t, set) == 2)
		return 's';
	if (sscanf(line, "%u %u%n", t, i, &used) != 2)
		return 0;
	at = line + used;
	for (unsigned c = 0; c < MAX_CONTENDERS; c++) {
		if (sscanf(at, " %la %la %la%n", &r->s[c].median, &r->s[c].min, &r->s[c].max, &used) != 3)
			return 0;
		at += used;
	}
	return 'r';
}

/* results[table][size][process] */
struct result results[MAX_TABLES][MAX_SIZES][MAX_PROCS];
/* set_reads[table][process]: set_reads_ratio's, 0 where not measured */
double set_reads[MAX_TABLES][MAX_PROCS];

/* Runs one child (this program, exec'd afresh) and files its report as process p. */
void run_child(char *const *child_argv, unsigned p, const int *want)
{
	int got[MAX_TABLES][MAX_SIZES] = { { 0 } };
	pid_t pid;
	FILE *in = fresh_process_start("copybench", child_argv, &pid);
	unsigned t, i;
	struct result r;
	double set;
	int kind;

	while ((kind = scan_raw(in, &t, &i, &r, &set)))
		if (kind == 's' && t < n_tables)
			set_reads[t][p] = set;
		else if (kind == 'r' && t < n_tables && i < n_rows(t)) {
			results[t][i][p] = r;
			got[t][i] = 1;
		}
	if (!fresh_process_end(in, pid)) {
		fprintf(stderr, "copybench: measuring process %u failed\n", p + 1);
		exit(1);
	}
	for (t = 0; t < n_tables; t++)
		for (i = 0; want[t] && i < n_rows(t); i++)
			if (!got[t][i]) {
				fprintf(stderr, "copybench: process %u did not report %s row %u\n", p + 1,
					tables[t].cases, i + 1);
				exit(1);
			}
}
