/* SPDX-License-Identifier: MIT */
/* copyperf: parse, measure, verify, report. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "copyperf.h"
#include "interrupt.h"
#include "measure/backends/kernel_backend.h"
#include "measure/backends/user_backend.h"
#include "measure/call_mixes/distribution_files.h"
#include "measure/call_mixes/workloads.h"
#include "measure/engine/sweep.h"
#include "measure/engine/timing.h"
#include "measure/hardware/cache.h"
#include "measure/placement/cpu_order.h"
#include "measure/placement/numa.h"
#include "measure/placement/thread_plan.h"
#include "measure/placement/thread_pool.h"
#include "options.h"
#include "progress.h"
#include "report/atomic_file.h"
#include "report/machine.h"
#include "report/output.h"
#include "report/plot.h"

static void list_routines(FILE *f)
{
	for (size_t i = 0; i < copyperf_routine_count(); i++) {
		const struct copyperf_routine *r = copyperf_routine_at(i);

		fprintf(f, "%-20s %s%s\n", r->name, r->description,
			copyperf_routine_available(r) ? "" : " (not on this CPU)");
	}
	fprintf(f, "# copyperf_memcpy/copyperf_memmove: %s\n", copyperf_describe());
	fprintf(f, "# call mixes (-d): %s\n",
		distribution_dir() ? distribution_dir() : "not found (set COPYPERF_DATADIR)");
}

static int pin_cpu(int cpu, char *err, size_t errlen)
{
	int e = cpu_pin_self(cpu);

	if (e == 0)
		return 0;
	snprintf(err, errlen, "--cpu: cannot run on CPU %d: %s", cpu, strerror(e));
	return -1;
}

/*
 * The engine's parameters, from the options: the one place where the command
 * line becomes what measure/ is asked to do.  The lists stay o's.
 */
static struct measure_params measure_params_of(const struct options *o)
{
	return (struct measure_params){
		.routines = o->routines,
		.n_routines = o->n_routines,
		.total = o->total,
		.repeat = o->repeat,
		.counters = o->counters,
		.sizes = o->sizes,
		.n_sizes = o->n_sizes,
		.buffer = o->buffer,
		.cache = o->cache,
		.align_src = o->align_src,
		.align_dst = o->align_dst,
		.distributions = o->distributions,
		.n_distributions = o->n_distributions,
		.working_sets = o->working_sets,
		.n_working_sets = o->n_working_sets,
		.seed = o->seed,
		.chained = o->chained,
		.tested = o->tested,
		.threads = o->threads,
		.n_threads = o->n_threads,
		.pages = o->pages,
		.numa = o->numa,
		.numa_node = o->numa_node,
	};
}

/* Checks what the options ask of this machine, before anything is measured. */
static int check_machine(const struct options *o, const struct measure_params *params,
			 struct thread_plan *tp, char *err, size_t errlen)
{
	if (o->cpu >= 0 && pin_cpu(o->cpu, err, errlen))
		return -1;
	if (thread_plan_make(tp, params, err, errlen) || numa_check(params, err, errlen))
		return -1;
	if (!o->kernel && (o->cache == CACHE_FLUSH || o->cache == CACHE_FLUSH_TIMED) &&
	    !cache_flush_supported()) {
		snprintf(err, errlen,
			 "--cache %s: flushing the cache is not supported on this architecture "
			 "(use hot or cold)",
			 cache_mode_name(o->cache));
		return -1;
	}
	return 0;
}

static int usage_error(const char *msg)
{
	fprintf(stderr, "copyperf: %s\n", msg);
	return EXIT_USAGE;
}

/* err is atomic_file's "cannot write ...": the option comes first, as in every usage error. */
static int usage_error_in(const char *option, const char *err)
{
	fprintf(stderr, "copyperf: %s: %s\n", option, err);
	return EXIT_USAGE;
}

static int draw_plot(const struct report *r, char *err, size_t errlen)
{
	struct result_set set;
	int failed;

	if (result_set_from_report(&set, r)) {
		snprintf(err, errlen, "plot: out of memory");
		return -1;
	}
	failed = plot_write(&set, 1, r->o->plot, err, errlen);
	result_set_free(&set);
	return failed;
}

/*
 * Says once which routines sit out the memmove mixes (they are wrong on
 * overlapping buffers); false when no point is left to measure at all.
 */
static bool note_skipped(const struct backend *b, const struct workloads *ws)
{
	char names[512] = "";
	size_t points = 0;

	for (size_t r = 0; r < b->n_routines; r++) {
		bool skipped = false;

		for (size_t i = 0; i < ws->n; i++) {
			bool runs = sweep_runs(b, r, &ws->w[i]);

			points += runs;
			skipped |= !runs;
		}
		if (skipped && strlen(names) + strlen(b->routine_names[r]) + 3 < sizeof(names))
			strcat(strcat(names, *names ? ", " : ""), b->routine_names[r]);
	}
	if (*names && points)
		fprintf(stderr, "copyperf: not measured on the memmove mixes (they overlap buffers): "
				"%s\n", names);
	return points > 0;
}

/*
 * Says when some measurements were so short that reading the clock is a
 * visible part of them (over 1%): their speeds are partly the clock's.
 */
static void note_clock_bound(const struct point_result *results, size_t n)
{
	enum { CLOCK_SHARE = 100 };
	double floor = (double)(CLOCK_SHARE * clock_cost_ns()) / 1e9;
	size_t short_ones = 0;

	for (size_t i = 0; i < n; i++)
		short_ones += results[i].verified && results[i].seconds.median < floor;
	if (short_ones)
		fprintf(stderr, "copyperf: note: %zu of %zu results took under %.0f ns a measurement, "
				"less than %d times what reading the clock costs here: their speeds are "
				"partly the clock's; raise --total\n",
			short_ones, n, floor * 1e9, CLOCK_SHARE);
}

static int run(const struct options *o)
{
	char err[1536];
	struct backend b;
	struct machine_info m;
	struct point_result *results = NULL;
	size_t n = 0;
	struct atomic_file out = { 0 }; /* -o's; standard output without it */
	int status = 0, opened, failed;
	struct progress progress;
	struct workloads ws;
	struct thread_plan tp;
	struct page_usage pages;
	const struct measure_params params = measure_params_of(o);

	memset(&b, 0, sizeof(b));
	memset(&ws, 0, sizeof(ws));
	memset(&pages, 0, sizeof(pages));
	memset(&tp, 0, sizeof(tp));
	if (check_machine(o, &params, &tp, err, sizeof(err)) ||
	    (!o->kernel && user_backend_check_routines(&params, err, sizeof(err)))) {
		status = usage_error(err);
		goto out;
	}
	if (workloads_build(&ws, &params, err, sizeof(err)) ||
	    workloads_by_threads(&ws, tp.counts, tp.n_counts, err, sizeof(err))) {
		status = usage_error(err);
		goto out;
	}
	if (o->plot && plot_check(o->plot, err, sizeof(err))) {
		status = usage_error(err);
		goto out;
	}
	interrupt_catch();
	if (o->output && atomic_file_open(&out, o->output, err, sizeof(err))) {
		status = usage_error_in("--output", err);
		goto out;
	}
	opened = o->kernel ? kernel_backend_open(&b, &params, err, sizeof(err))
			   : user_backend_open(&b, &params, &tp, &ws, err, sizeof(err));
	if (opened) {
		status = usage_error(err);
		goto out;
	}
	if (!note_skipped(&b, &ws)) {
		status = usage_error("--distribution: none of the routines allows overlapping buffers, "
				     "which memmove mixes need");
		goto out;
	}
	machine_read(&m);
	progress_start(&progress, stderr, !o->quiet);
	status = sweep_run(&params, &b, ws.w, ws.n, progress_update, &progress, &results, &n, err,
			   sizeof(err));
	progress_end(&progress);
	if (status) {
		fprintf(stderr, "copyperf: %s%s\n", err,
			status == SWEEP_INTERRUPTED ? "; nothing written" : "");
		status = status == SWEEP_INTERRUPTED ? interrupt_exit_status()
			 : status == SWEEP_NO_MEMORY ? EXIT_USAGE : 1;
		goto out;
	}
	note_clock_bound(results, n);
	if (b.starts_apart && *b.starts_apart)
		fprintf(stderr, "copyperf: note: in %lu measurements the threads' starts still lay "
				"more than a tenth of the time apart after %d tries: their aggregates "
				"count a time when not every thread copied\n",
			*b.starts_apart, THREAD_POOL_TRIES);
	if (!o->kernel)
		user_backend_pages(&b, &pages);
	struct report report = { o, &m, results, n, tp.cpus, tp.most, o->kernel ? NULL : &pages };

	failed = output_write(o->output ? out.f : stdout, &report);
	if (interrupt_signal()) {
		fprintf(stderr, "copyperf: stopped by %s while writing the results; nothing written\n",
			interrupt_name());
		status = interrupt_exit_status();
		goto out;
	}
	/* A failed write is sticky in the stream: the commit then fails and replaces nothing. */
	if (o->output)
		failed = atomic_file_commit(&out, err, sizeof(err));
	else if (failed)
		snprintf(err, sizeof(err), "cannot write the results: %s", strerror(errno));
	if (failed) {
		fprintf(stderr, "copyperf: %s\n", err);
		status = 1;
	}
	if (o->plot && (failed = draw_plot(&report, err, sizeof(err)))) {
		fprintf(stderr, "copyperf %s\n", err);
		status = failed == PLOT_INTERRUPTED ? interrupt_exit_status() : 1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct point_result *p = &results[i];

		if (p->verified)
			continue;
		if (p->distribution)
			fprintf(stderr, "copyperf: %s FAILED on %s, working set %s: %s\n", p->routine,
				p->distribution, p->working_set_name, p->error);
		else
			fprintf(stderr, "copyperf: %s FAILED at chunk %llu: %s\n", p->routine,
				(unsigned long long)p->chunk, p->error);
		status = 1;
	}
out:
	sweep_free(results, n);
	if (b.ctx && o->kernel)
		kernel_backend_close(&b);
	else if (b.ctx)
		user_backend_close(&b);
	workloads_free(&ws);
	thread_plan_free(&tp);
	atomic_file_discard(&out); /* nothing left to do after a commit */
	return status;
}

/*
 * A closed standard stream hands its number to the next file opened: -o's
 * would then take the notes meant for standard error.  Each closed one gets
 * /dev/null opened the wrong way round, so that writing to it still fails.
 */
static void hold_standard_streams(void)
{
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF)
			open("/dev/null", fd ? O_RDONLY : O_WRONLY); /* the lowest free number: fd */
}

int main(int argc, char **argv)
{
	struct options o;
	char err[512];
	int status = 0;

	hold_standard_streams();
	/* The subcommands take their own options. */
	if (argc > 1 && !strcmp(argv[1], "plot"))
		return cmd_plot(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return cmd_compare(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "program"))
		return cmd_program(argc - 1, argv + 1);
	if (options_parse(argc, argv, &o, err, sizeof(err))) {
		options_free(&o);
		return usage_error(err);
	}
	switch (o.action) {
	case ACTION_HELP:
		fputs(options_usage, stdout);
		break;
	case ACTION_VERSION:
		printf("copyperf %s\n", copyperf_version());
		break;
	case ACTION_LIST:
		if (!o.kernel)
			list_routines(stdout);
		else if (kernel_backend_list(stdout, err, sizeof(err)))
			status = usage_error(err);
		break;
	case ACTION_RUN:
		status = run(&o);
		break;
	}
	if (o.action != ACTION_RUN && (fflush(stdout) || ferror(stdout))) {
		fprintf(stderr, "copyperf: cannot write to standard output: %s\n",
			strerror(errno ? errno : EIO));
		status = 1;
	}
	options_free(&o);
	return status;
}
