/* SPDX-License-Identifier: MIT */
/*
 * --counters: the share of the program's samples that fall in the copy
 * routines, each side run once more under `perf record` (Debian's
 * linux-perf) and its profile read back with `perf report`.  Cycles where the
 * processor counts them for this process; where it does not (a virtual
 * machine without a PMU), the kernel's cpu-clock timer, which samples time,
 * not cycles, and is named so.  The copy routines: the C library's memcpy,
 * memmove and mempcpy variants and the library's copyperf_* ones, by symbol.
 */
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "program.h"

/* Whether this process may count its own cycles: the PMU is there and perf_event_paranoid allows. */
static bool cycles_countable(void)
{
	struct perf_event_attr a;
	long fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0)
		return false;
	close((int)fd);
	return true;
}

/* A profile line's symbol is a copy routine's. */
static bool copy_symbol(const char *sym)
{
	static const char *const names[] = { "memcpy", "memmove", "mempcpy", "copyperf_" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strstr(sym, names[i]))
			return true;
	return false;
}

/* Sums the copy routines' percentages in `perf report --stdio --sort sym` output. */
static double copy_share(const char *report)
{
	FILE *f = fopen(report, "r");
	char line[1024];
	double sum = 0;
	bool any = false;

	if (!f)
		return NAN;
	while (fgets(line, sizeof(line), f)) {
		double pct;
		char sym[900];

		if (line[0] == '#' || sscanf(line, " %lf%% [%*[^]]] %899s", &pct, sym) != 2)
			continue;
		any = true;
		if (copy_symbol(sym))
			sum += pct;
	}
	fclose(f);
	return any ? sum / 100 : NAN;
}

/* Runs argv (a perf command) as the program's side s would run, output to out.  Returns 0 on exit 0. */
static int run_perf(const struct program_params *p, enum program_side s, char **argv, const char *perf,
		    const char *out, const char *err)
{
	struct program_params q = *p;
	struct run_time t;
	char why[512];

	q.argv = argv;
	q.path = perf;
	if (program_run(&q, s, NULL, out, err, &t, why, sizeof(why)))
		return -1;
	return WIFEXITED(t.status) && WEXITSTATUS(t.status) == 0 ? 0 : -1;
}

void program_cycle_shares(const struct program_params *p, struct program_result *r)
{
	struct cycle_shares *c = &r->cycles;
	char perf[4096], why[512];
	size_t n = 0;

	while (p->argv[n])
		n++;
	if (program_find("perf", perf, sizeof(perf), why, sizeof(why))) {
		snprintf(c->why_not, sizeof(c->why_not), "no perf here (Debian's linux-perf package)");
		return;
	}
	snprintf(c->event, sizeof(c->event), "%s", cycles_countable() ? "cycles" : "cpu-clock");
	for (int s = 0; s < SIDES; s++) {
		char data[4200], report[4200], err[4200];
		char **rec = calloc(n + 9, sizeof(*rec));
		char *rep[] = { "perf", "report", "-i", data, "--stdio", "--sort", "sym", "-q", NULL };

		if (!rec) {
			snprintf(c->why_not, sizeof(c->why_not), "out of memory");
			return;
		}
		snprintf(data, sizeof(data), "%s/perf-%d.data", p->tmp_dir, s);
		snprintf(report, sizeof(report), "%s/perf-%d.txt", p->tmp_dir, s);
		snprintf(err, sizeof(err), "%s/perf-%d.err", p->tmp_dir, s);
		rec[0] = "perf";
		rec[1] = "record";
		rec[2] = "-q";
		rec[3] = "-e";
		rec[4] = c->event;
		rec[5] = "-o";
		rec[6] = data;
		rec[7] = "--";
		memcpy(rec + 8, p->argv, (n + 1) * sizeof(*rec));
		if (!p->quiet)
			fprintf(stderr, "\rcopyperf program: perf record, %s   ", program_side_name(p, s));
		if (run_perf(p, (enum program_side)s, rec, perf, NULL, err) ||
		    run_perf(p, SIDE_WITHOUT, rep, perf, report, NULL)) {
			snprintf(c->why_not, sizeof(c->why_not),
				 "perf record -e %s failed (see perf_event_paranoid, or run as root)", c->event);
			free(rec);
			unlink(data);
			unlink(err);
			return;
		}
		free(rec);
		c->share[s] = copy_share(report);
		unlink(data);
		unlink(report);
		unlink(err);
	}
	if (!p->quiet)
		fprintf(stderr, "\r%60s\r", "");
	c->measured = true;
}
