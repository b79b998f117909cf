/* SPDX-License-Identifier: MIT */
/*
 * make bench-walk: copies of one size walking a 64 KiB buffer, as copyperf's
 * sweep does, with the destination at each page offset from the source's in
 * turn, in the two loop shapes a caller has (the call after the wrap test,
 * as copyperf's walk; the call before it, as copybench's), the routines side
 * by side in one process, in several processes (each a fresh exec: code,
 * stack and buffers land elsewhere). One placement and one loop can hide a
 * mode that another shows (docs/experiments.md, "The measuring harness").
 * Each cell is checked once after it is timed.
 * Ratios: the first routine's time over each other's, median [min-max] over
 * the processes and offsets.
 * Usage: walk_grid [-p PROCS] [-s SIZES] [-o STEP] ROUTINE ROUTINE... (exit 2
 * on bad input, 1 on a wrong copy); a ROUTINE is a registry name (memcpy,
 * copyperf_memcpy ...) or FILE:SYMBOL from a shared object.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "copyperf.h"
#include "fresh_process.h"
#include "measure/backends/shared_routine.h"
#include "measure/engine/timing.h"
#include "stats/stats.h"

#define BUFFER (64u * 1024)        /* the walk's span, copyperf's default --buffer */
#define CANARY 64                  /* bytes after the walk that no copy may write */
#define BYTES (32u << 20)          /* copied per measurement */
#define REPEATS 5                  /* measurements per cell: their median */
#define MAX_ROUTINES 8
#define MAX_SIZES 16
#define MAX_PROCS 51
#define LOOPS 2

typedef double (*walk_fn)(copyperf_copy_fn fn, unsigned char *d, const unsigned char *s, size_t size);

/* copyperf's shape: the wrap test, then the call. ns per call. */
static __attribute__((noinline, aligned(64))) double walk_test_first(copyperf_copy_fn fn, unsigned char *d,
								    const unsigned char *s, size_t size)
{
	size_t count = BYTES / size, pos = 0;
	uint64_t t0;

	__asm__ volatile("" : "+r"(fn)); /* not a known function: a real call */
	t0 = now_ns();
	for (size_t i = 0; i < count; i++) {
		if (pos + size > BUFFER)
			pos = 0;
		fn(d + pos, s + pos, size);
		pos += size;
	}
	return (double)(now_ns() - t0) / (double)count;
}

/* copybench's shape: the call, then the wrap test. */
static __attribute__((noinline, aligned(64))) double walk_call_first(copyperf_copy_fn fn, unsigned char *d,
								    const unsigned char *s, size_t size)
{
	size_t count = BYTES / size, pos = 0;
	uint64_t t0;

	__asm__ volatile("" : "+r"(fn));
	t0 = now_ns();
	for (size_t i = 0; i < count; i++) {
		fn(d + pos, s + pos, size);
		pos += size;
		if (pos + size > BUFFER)
			pos = 0;
	}
	return (double)(now_ns() - t0) / (double)count;
}

static const walk_fn walks[LOOPS] = { walk_test_first, walk_call_first };
static const char *const loop_names[LOOPS] = { "test, call", "call, test" };

struct setup {
	unsigned procs, step, n_sizes, n_routines;
	size_t sizes[MAX_SIZES];
	const char *names[MAX_ROUTINES];
};

static void usage_error(const char *input, const char *why)
{
	fprintf(stderr, "walk_grid: %s: %s\n", input, why);
	exit(2);
}

/* A number from lo to hi at arg, up to *end (which must be the end or stop). */
static unsigned long number(const char *opt, const char *arg, unsigned long lo, unsigned long hi, char stop)
{
	unsigned long v;
	char *end, input[64];

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || (*end && *end != stop) || v < lo || v > hi || *arg == '-') {
		char why[80];

		snprintf(input, sizeof(input), "%s '%.*s'", opt, (int)strcspn(arg, ","), arg);
		snprintf(why, sizeof(why), "not a number from %lu to %lu", lo, hi);
		usage_error(input, why);
	}
	return v;
}

static void parse(int argc, char **argv, struct setup *s)
{
	int opt;

	s->procs = 4;
	s->step = 512;
	s->n_sizes = 0;
	while ((opt = getopt(argc, argv, "p:s:o:")) != -1) {
		switch (opt) {
		case 'p':
			s->procs = (unsigned)number("-p", optarg, 1, MAX_PROCS, '\0');
			break;
		case 'o':
			s->step = (unsigned)number("-o", optarg, 1, 4096, '\0');
			break;
		case 's':
			s->n_sizes = 0;
			for (const char *p = optarg; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
				if (s->n_sizes == MAX_SIZES)
					usage_error("-s", "more than 16 sizes");
				s->sizes[s->n_sizes++] = number("-s", p, 1, BUFFER, ',');
			}
			break;
		default:
			exit(2); /* getopt said why, in one line */
		}
	}
	if (s->n_sizes == 0) {
		static const size_t defaults[] = { 64, 100, 256, 520, 600, 768, 1024, 3000 };

		s->n_sizes = sizeof(defaults) / sizeof(defaults[0]);
		memcpy(s->sizes, defaults, sizeof(defaults));
	}
	if (argc - optind < 2)
		usage_error("routines", "name at least two: the first is the yardstick");
	if (argc - optind > MAX_ROUTINES)
		usage_error("routines", "at most 8");
	s->n_routines = (unsigned)(argc - optind);
	for (unsigned r = 0; r < s->n_routines; r++)
		s->names[r] = argv[optind + (int)r];
}

static const struct copyperf_routine *load(const char *name)
{
	char why[400];
	const struct copyperf_routine *r = shared_routine_named(name, why, sizeof(why));

	if (r == NULL) {
		fprintf(stderr, "walk_grid: %s\n", why);
		exit(2);
	}
	return r;
}

/* One pass with the destination reset: wrong bytes, or a write past the walk, exit 1. */
static void check(const struct copyperf_routine *r, unsigned char *d, const unsigned char *s, size_t size,
		  unsigned offset)
{
	size_t walk = BUFFER / size * size;

	for (size_t i = 0; i < walk + CANARY; i++)
		d[i] = (unsigned char)~s[i];
	for (size_t pos = 0; pos + size <= walk; pos += size)
		if (r->fn(d + pos, s + pos, size) != d + pos) {
			fprintf(stderr, "walk_grid: %s returned another pointer than dst (%zu B)\n", r->name, size);
			exit(1);
		}
	for (size_t i = 0; i < walk + CANARY; i++)
		if (d[i] != (i < walk ? s[i] : (unsigned char)~s[i])) {
			fprintf(stderr, "walk_grid: %s copied %zu B chunks wrongly: byte %zu, offset %u\n", r->name,
				size, i, offset);
			exit(1);
		}
}

/*
 * The measuring process: the routines loaded and timed in an order rotated
 * by its number, each cell reported as "size loop offset ns..." in the
 * command line's order.
 */
static int child(const struct setup *st, unsigned rotation)
{
	const struct copyperf_routine *r[MAX_ROUTINES];
	unsigned n = st->n_routines;
	size_t map = BUFFER + 2 * 4096 + CANARY;
	unsigned char *s = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char *d0 = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (s == MAP_FAILED || d0 == MAP_FAILED) {
		fprintf(stderr, "walk_grid: cannot map two buffers of %zu bytes\n", map);
		return 1;
	}
	for (size_t i = 0; i < map; i++)
		s[i] = (unsigned char)(i * 7 + 1);
	for (unsigned k = 0; k < n; k++)
		r[(k + rotation) % n] = load(st->names[(k + rotation) % n]);
	/* Every branch of each routine taken before timing, as in a program's use. */
	for (unsigned k = 0; k < n; k++)
		for (int i = 0; i < 2000; i++) {
			static const size_t w[] = { 0, 5, 40, 64, 100, 300, 1000, 5000 };

			for (size_t j = 0; j < sizeof(w) / sizeof(w[0]); j++) {
				r[k]->fn(d0 + 4090, s + 100, w[j]);
				r[k]->fn(d0 + 100, s + 4090, w[j]);
			}
		}
	for (unsigned offset = 0; offset < 4096; offset += st->step)
		for (unsigned z = 0; z < st->n_sizes; z++)
			for (unsigned l = 0; l < LOOPS; l++) {
				double t[MAX_ROUTINES][REPEATS];

				for (unsigned rep = 0; rep < REPEATS; rep++)
					for (unsigned k = 0; k < n; k++) {
						unsigned c = (k + rotation) % n;

						t[c][rep] = walks[l](r[c]->fn, d0 + offset, s, st->sizes[z]);
					}
				for (unsigned c = 0; c < n; c++)
					check(r[c], d0 + offset, s, st->sizes[z], offset);
				printf("%zu %u %u", st->sizes[z], l, offset);
				for (unsigned c = 0; c < n; c++)
					printf(" %.17g", median_of(t[c], REPEATS));
				printf("\n");
			}
	return fflush(stdout) ? 1 : 0;
}

/* cells[size][loop]: ratios and the yardstick's ns, one per process and offset */
struct cell {
	double *ns, *ratio[MAX_ROUTINES]; /* ratio[0] unused: the yardstick's own */
	size_t n;
};

static void run_process(int argc, char **argv, unsigned p, const struct setup *st, struct cell cells[][LOOPS])
{
	pid_t pid;
	char rot[16], *cargv[64];
	FILE *in;
	size_t got = 0;

	snprintf(rot, sizeof(rot), "%u", p);
	cargv[0] = argv[0];
	cargv[1] = "--child";
	cargv[2] = rot;
	for (int i = 1; i < argc; i++) /* argc < 60: main saw to it */
		cargv[i + 2] = argv[i];
	cargv[argc + 2] = NULL;
	in = fresh_process_start("walk_grid", cargv, &pid);
	for (;;) {
		size_t size;
		unsigned loop, offset, z;
		double ns[MAX_ROUTINES];
		int ok = fscanf(in, "%zu %u %u", &size, &loop, &offset) == 3;
		struct cell *c;

		for (unsigned k = 0; ok && k < st->n_routines; k++)
			ok = fscanf(in, "%lf", &ns[k]) == 1 && ns[k] > 0;
		if (!ok)
			break;
		for (z = 0; z < st->n_sizes && st->sizes[z] != size; z++)
			;
		if (z == st->n_sizes || loop >= LOOPS)
			break;
		c = &cells[z][loop];
		c->ns[c->n] = ns[0];
		for (unsigned k = 1; k < st->n_routines; k++)
			c->ratio[k][c->n] = ns[0] / ns[k];
		c->n++;
		got++;
	}
	if (!fresh_process_end(in, pid)) {
		fprintf(stderr, "walk_grid: measuring process %u failed\n", p + 1);
		exit(1);
	}
	if (got != (size_t)st->n_sizes * LOOPS * ((4095 / st->step) + 1)) {
		fprintf(stderr, "walk_grid: process %u reported %zu cells, not all\n", p + 1, got);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	struct setup st;
	int child_of = argc > 2 && strcmp(argv[1], "--child") == 0;
	unsigned rotation = 0;
	static struct cell cells[MAX_SIZES][LOOPS];
	size_t per_cell;

	if (child_of) {
		char *end;

		rotation = (unsigned)strtoul(argv[2], &end, 10);
		argv[2] = argv[0];
		argc -= 2;
		argv += 2;
	}
	parse(argc, argv, &st);
	if (child_of)
		return child(&st, rotation);
	if (argc >= 60)
		usage_error("arguments", "more than 58");
	per_cell = (size_t)st.procs * ((4095 / st.step) + 1);
	for (unsigned z = 0; z < st.n_sizes; z++)
		for (unsigned l = 0; l < LOOPS; l++)
			for (unsigned k = 0; k < st.n_routines; k++) {
				double **v = k ? &cells[z][l].ratio[k] : &cells[z][l].ns;

				if (!(*v = calloc(per_cell, sizeof(double)))) {
					fprintf(stderr, "walk_grid: out of memory\n");
					return 1;
				}
			}
	for (unsigned r = 0; r < st.n_routines; r++)
		load(st.names[r]); /* refused here, before any process starts */
	for (unsigned p = 0; p < st.procs; p++)
		run_process(argc, argv, p, &st, cells);
	printf("walk_grid: chunks walking %u KiB buffers (hot), the destination at page offsets 0-%u "
	       "step %u from the source's; %u processes, %u B a measurement, median of %u\n",
	       BUFFER / 1024, 4095 / st.step * st.step, st.step, st.procs, BYTES, REPEATS);
	printf("(ratio: %s's time over the routine's, median [min-max] over processes and offsets)\n",
	       st.names[0]);
	for (unsigned k = 1; k < st.n_routines; k++)
		printf("  [%u] %s\n", k, st.names[k]);
	printf("%7s  %-10s  %10s", "size", "loop", "ns a call");
	for (unsigned k = 1; k < st.n_routines; k++)
		printf("  %19s[%u]", "", k);
	printf("\n");
	for (unsigned z = 0; z < st.n_sizes; z++)
		for (unsigned l = 0; l < LOOPS; l++) {
			struct cell *c = &cells[z][l];

			printf("%7zu  %-10s  %10.2f", st.sizes[z], loop_names[l], median_of(c->ns, c->n));
			for (unsigned k = 1; k < st.n_routines; k++) {
				struct summary sm;

				summarize(c->ratio[k], c->n, &sm);
				printf("  %6.3fx [%5.3f-%5.3f]", sm.median, sm.min, sm.max);
			}
			printf("\n");
		}
	return fflush(stdout) ? 1 : 0;
}
