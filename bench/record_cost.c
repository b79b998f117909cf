/* SPDX-License-Identifier: MIT */
/*
 * make bench-record: what COPYPERF_RECORD costs a call.  Fresh processes of
 * this program, preloaded with the shim, time memcpy calls through the
 * program's own PLT, as any program's calls go:
 *   64 B    the same 64-byte copy again and again
 *   mix     4096 (size, offsets) drawn once from a fixed seed: sizes spread
 *           evenly over log2 1..4095, both offsets 0..63, so every small-size
 *           counter and every alignment is used
 * Each process runs a warm-up batch, then BATCHES batches of CALLS calls, and
 * reports its median batch in ns per call.  The modes (each shim given,
 * without and with COPYPERF_RECORD; the C library alone with -l) run
 * PROCESSES times each, interleaved, the order turned every round, so drift
 * hits them alike; the table shows the median process and the spread.  A
 * second or third shim (another build: an older one, a variant) is compared
 * with the first.
 * Usage: record_cost [-p PROCESSES] [-n CALLS] [-l] SHIM [SHIM2 [SHIM3]]
 */
#include <errno.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "measure/engine/timing.h"
#include "stats/stats.h"

#define BATCHES 7
#define MIX 4096
#define MAX_SHIMS 3
#define MAX_MODES (2 * MAX_SHIMS + 1)
#define MAX_PROCS 101

extern char **environ;

struct call {
	uint16_t size, dst, src;
};

typedef void *(*copy_fn)(void *, const void *, size_t);

/* Called through this, so every call goes to whatever memcpy the program binds to. */
static copy_fn volatile copy = memcpy;

static unsigned char src_buf[8192] __attribute__((aligned(64)));
static unsigned char dst_buf[8192] __attribute__((aligned(64)));

static double batch(const struct call *mix, unsigned mask, unsigned long calls)
{
	copy_fn f = copy;
	uint64_t t0 = now_ns();

	for (unsigned long i = 0; i < calls; i++) {
		const struct call *c = &mix[i & mask];

		f(dst_buf + c->dst, src_buf + c->src, c->size);
	}
	return (double)(now_ns() - t0) / (double)calls;
}

static double median_batch(const struct call *mix, unsigned mask, unsigned long calls)
{
	double ns[BATCHES];

	batch(mix, mask, calls);
	for (unsigned b = 0; b < BATCHES; b++)
		ns[b] = batch(mix, mask, calls);
	return median_of(ns, BATCHES);
}

/* The measuring process: one line, "ns-per-call-64B ns-per-call-mix". */
static int measure(unsigned long calls)
{
	static struct call mix[MIX];
	const struct call one = { 64, 0, 0 };
	uint64_t x = 0x9e3779b97f4a7c15u; /* xorshift64, a fixed seed */

	for (unsigned i = 0; i < MIX; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* 2^(12 u) for u uniform in [0, 1): as many sizes in 1..2 as in 2048..4096. */
		mix[i].size = (uint16_t)(1u << (x % 12)) + (uint16_t)((x >> 8) % (1u << (x % 12)));
		mix[i].dst = (uint16_t)((x >> 32) % 64);
		mix[i].src = (uint16_t)((x >> 40) % 64);
	}
	printf("%.4f %.4f\n", median_batch(&one, 0, calls), median_batch(mix, MIX - 1, calls));
	return 0;
}

struct mode {
	const char *name;
	const char *preload; /* NULL: the C library's memcpy */
	const char *record;  /* COPYPERF_RECORD, or NULL */
	double ns[2][MAX_PROCS];
};

/* One fresh process of this program in mode m; false if it failed. */
static bool run(struct mode *m, unsigned p, const char *self, const char *calls)
{
	char preload[4200], record[4200];
	char *env[] = { preload, record, NULL };
	char *argv[] = { (char *)self, (char *)"--measure", (char *)calls, NULL };
	posix_spawn_file_actions_t fa;
	int fd[2], status, got = 0;
	pid_t pid;
	FILE *in;

	snprintf(preload, sizeof(preload), "LD_PRELOAD=%s", m->preload ? m->preload : "");
	snprintf(record, sizeof(record), "COPYPERF_RECORD=%s", m->record ? m->record : "");
	if (pipe(fd) != 0)
		return false;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, fd[0]);
	errno = posix_spawn(&pid, self, &fa, NULL, argv, env);
	posix_spawn_file_actions_destroy(&fa);
	close(fd[1]);
	if (errno == 0 && (in = fdopen(fd[0], "r")) != NULL) {
		got = fscanf(in, "%lf %lf", &m->ns[0][p], &m->ns[1][p]);
		fclose(in);
	} else {
		close(fd[0]);
	}
	if (errno != 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0 || got != 2)
		return false;
	if (m->record) { /* FILE.memcpy (and FILE.memmove); FILE itself from an older shim */
		static const char *const suffix[] = { "", ".memcpy", ".memmove" };

		for (unsigned i = 0; i < 3; i++) {
			snprintf(record, sizeof(record), "%s%s", m->record, suffix[i]);
			unlink(record);
		}
	}
	return true;
}

static void row(const char *name, const struct mode *m, unsigned procs)
{
	printf("%-22s", name);
	for (int w = 0; w < 2; w++) {
		struct summary s;

		summarize(m->ns[w], procs, &s);
		printf("%s  %8.2f %7.2f %7.2f", w ? "    " : "", s.median, s.min, s.max);
	}
	putchar('\n');
}

/* The difference of the medians, in ns per call and of the base's. */
static void cost(const char *name, const struct mode *with, const struct mode *base, unsigned procs)
{
	printf("%-22s", name);
	for (int w = 0; w < 2; w++) {
		double a = median_of(with->ns[w], procs), b = median_of(base->ns[w], procs);

		printf("%s  %+8.2f (%+5.1f%%)", w ? "              " : "", a - b, 100 * (a - b) / b);
	}
	putchar('\n');
}

static int usage(const char *why)
{
	fprintf(stderr, "record_cost: %s\nusage: record_cost [-p PROCESSES] [-n CALLS] [-l] SHIM "
		"[SHIM2 [SHIM3]]\n", why);
	return 2;
}

int main(int argc, char **argv)
{
	static struct mode modes[MAX_MODES];
	static char self[4096], file[64], calls_arg[24], names[MAX_MODES][32];
	unsigned procs = 15, n = 0, shims;
	unsigned long calls = 1000000;
	bool libc = false;
	int opt;
	ssize_t len;

	if (argc == 3 && strcmp(argv[1], "--measure") == 0)
		return measure(strtoul(argv[2], NULL, 10));
	while ((opt = getopt(argc, argv, "p:n:l")) != -1) {
		if (opt == 'p' && (procs = (unsigned)atoi(optarg)) >= 1 && procs <= MAX_PROCS)
			continue;
		if (opt == 'n' && (calls = strtoul(optarg, NULL, 10)) >= 1)
			continue;
		if (opt == 'l') {
			libc = true;
			continue;
		}
		return usage("-p takes 1 to 101, -n a positive count");
	}
	shims = (unsigned)(argc - optind);
	if (shims < 1 || shims > MAX_SHIMS)
		return usage("name one to three shims");
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0)
		return usage("cannot find this program in /proc/self/exe");
	self[len] = '\0';
	snprintf(file, sizeof(file), "/tmp/record_cost.%ld.mix", (long)getpid());
	snprintf(calls_arg, sizeof(calls_arg), "%lu", calls);

	/* Per shim: without, then with COPYPERF_RECORD; the shims are A, B, C. */
	for (unsigned i = 0; i < shims; i++) {
		for (unsigned rec = 0; rec < 2; rec++, n++) {
			snprintf(names[n], sizeof(names[n]), "%c%s", 'A' + i, rec ? " recording" : "");
			modes[n] = (struct mode){ names[n], argv[optind + (int)i], rec ? file : NULL, { { 0 } } };
		}
	}
	if (libc)
		modes[n++] = (struct mode){ .name = "C library" };

	for (unsigned p = 0; p < procs; p++) {
		for (unsigned i = 0; i < n; i++) {
			struct mode *m = &modes[p % 2 ? n - 1 - i : i];

			if (!run(m, p, self, calls_arg)) {
				fprintf(stderr, "record_cost: the %s process %u failed\n", m->name, p + 1);
				return 1;
			}
		}
	}
	for (unsigned i = 0; i < shims; i++)
		printf("%c = %s\n", 'A' + i, argv[optind + (int)i]);
	printf("ns per call through memcpy's PLT entry; %u processes per mode, interleaved; each the "
	       "median of %d batches of %lu calls\n", procs, BATCHES, calls);
	printf("%-22s  %-30s  %s\n", "", "64 B, same buffers", "mix: 1..4095 B, offsets 0..63");
	printf("%-22s  %8s %7s %7s      %8s %7s %7s\n", "mode", "median", "min", "max", "median",
	       "min", "max");
	for (unsigned i = 0; i < n; i++)
		row(modes[i].name, &modes[i], procs);
	for (unsigned i = 0; i < shims; i++) {
		char name[32];

		snprintf(name, sizeof(name), "%c: recording costs", 'A' + i);
		cost(name, &modes[2 * i + 1], &modes[2 * i], procs);
	}
	for (unsigned i = 1; i < shims; i++) {
		char name[32];

		snprintf(name, sizeof(name), "%c - A", 'A' + i);
		cost(name, &modes[2 * i], &modes[0], procs);
		snprintf(name, sizeof(name), "%c - A, recording", 'A' + i);
		cost(name, &modes[2 * i + 1], &modes[1], procs);
	}
	return 0;
}
