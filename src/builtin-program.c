/* SPDX-License-Identifier: MIT */
/* `copyperf program`: its command line; the runs and their report are program/'s. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "builtin.h"
#include "copyperf.h"
#include "interrupt.h"
#include "options.h"
#include "program/program.h"
#include "report/atomic_file.h"

#ifndef COPYPERF_PRELOADDIR
#define COPYPERF_PRELOADDIR "/usr/local/lib"
#endif

static const char program_usage[] =
	"usage: copyperf program [options] -- CMD [ARGS...]\n"
	"Runs CMD without and with the preload shim (memcpy and memmove from libcopyperf),\n"
	"alternately: one untimed warm-up of each, then N pairs, the side that goes first\n"
	"swapped each pair; reports each side's wall, user and system time (median, min,\n"
	"max), the ratio of the medians (time without over time with: above 1, faster with\n"
	"the shim), each pair's ratio, and a Mann-Whitney verdict at the 5% level.\n"
	"\n"
	"  -n, --pairs N         timed runs of each side (default 7)\n"
	"      --cpu N           pin CMD (and its children) to CPU N\n"
	"      --shim FILE       the shim to preload (default: libcopyperf-preload.so beside\n"
	"                        this copyperf, else " COPYPERF_PRELOADDIR "/libcopyperf-preload.so;\n"
	"                        where the library copies with AVX2 or SSE2, that variant's shim\n"
	"                        in glibc-hwcaps/x86-64-v3/ or x86-64-v2/ beside it, if there)\n"
	"      --aa              the A/A control: both sides without the shim\n"
	"      --stdin FILE      CMD's standard input (default /dev/null)\n"
	"      --keep-output DIR keep each side's warm-up output there (default: discarded;\n"
	"                        the timed runs' output always goes to /dev/null)\n"
	"      --check           the two sides' warm-up outputs must be byte-identical, or the\n"
	"                        run is FAILED (exit 1): the shim must not change what CMD computes\n"
	"      --record          one more run recording CMD's calls (COPYPERF_RECORD, every\n"
	"                        process's), replayed with -d at the l1, l2, llc, stream and\n"
	"                        cold working sets, independent and chained (--chain), each\n"
	"                        way also after the caller's tests of each size (--tested):\n"
	"                        the prediction, from every call's data at hand to all in\n"
	"                        memory, from a caller that knows nothing of the size to one\n"
	"                        that reached it through branches\n"
	"      --counters        each side once more under perf record: the share of CMD's\n"
	"                        samples in the copy routines\n"
	"  -f, --format FMT      table (default) | csv | json\n"
	"  -o, --output FILE     write the result there instead of to standard output\n"
	"  -q, --quiet           no progress line on standard error\n"
	"  -h, --help            this text\n"
	"CMD's standard error goes to /dev/null, but a failing run's last line is reported.\n"
	"Exit status: 0; 1 when CMD exits non-zero on either side or --check finds the outputs\n"
	"differ; 2 for bad options, a command that cannot be run or a shim that does not load;\n"
	"128+N after signal N (SIGINT, SIGTERM), which ends the run at a pair's end.\n";

/*
 * The shims for other variants than the first's, as the Makefile builds them
 * (PRELOAD_LEVELS): "VARIANT:LEVEL " for each, the shim in glibc-hwcaps/LEVEL/.
 */
#ifndef COPYPERF_PRELOAD_LEVELS
#define COPYPERF_PRELOAD_LEVELS ""
#endif

/*
 * Of the shims in dir, the one whose own entries are the copy the library
 * chose here (the CPU's best, or COPYPERF_ISA's): the shim of its variant in
 * glibc-hwcaps/LEVEL/, where PRELOAD_LEVELS has one (on a CPU of that level
 * the dynamic loader takes the same for a shim preloaded by its name); the
 * first otherwise, or where that one is not there. The variant is
 * copyperf_describe()'s second word ("x86-64 avx2 variant ...").
 */
static void shim_in(const char *dir, int dirlen, char *out, size_t len)
{
	const char *d = strchr(copyperf_describe(), ' '), *levels = COPYPERF_PRELOAD_LEVELS;
	size_t n = d ? strcspn(++d, " ") : 0;

	while (n && *levels) {
		size_t item = strcspn(levels, " ");

		if (item > n + 1 && !strncmp(levels, d, n) && levels[n] == ':') {
			snprintf(out, len, "%.*s/glibc-hwcaps/%.*s/libcopyperf-preload.so", dirlen, dir,
				 (int)(item - n - 1), levels + n + 1);
			if (!access(out, R_OK))
				return;
		}
		levels += item + strspn(levels + item, " ");
	}
	snprintf(out, len, "%.*s/libcopyperf-preload.so", dirlen, dir);
}

/* The shim built or installed beside this copyperf, else the installed one. */
static void default_shim(char *out, size_t len)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n > 0) {
		char *slash;

		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			shim_in(self, (int)(slash - self), out, len);
			if (!access(out, R_OK))
				return;
		}
	}
	shim_in(COPYPERF_PRELOADDIR, (int)strlen(COPYPERF_PRELOADDIR), out, len);
}

static int usage_error(const char *fmt, const char *what, const char *reason)
{
	fputs("copyperf program: ", stderr);
	fprintf(stderr, fmt, what, reason);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

/* A directory that exists and may be written, for --keep-output. */
static int check_dir(const char *dir)
{
	struct stat st;

	if (stat(dir, &st))
		return usage_error("--keep-output %s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return usage_error("--keep-output %s: %s", dir, "not a directory");
	if (access(dir, W_OK | X_OK))
		return usage_error("--keep-output %s: %s", dir, strerror(errno));
	return 0;
}

/* Removes the scratch directory and what the runs left there (files only: nothing makes more). */
static void remove_tmp(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
	rmdir(dir);
}

int cmd_program(int argc, char **argv)
{
	enum { OPT_CPU = 256, OPT_SHIM, OPT_AA, OPT_STDIN, OPT_KEEP, OPT_CHECK, OPT_RECORD, OPT_COUNTERS };
	static const struct option longs[] = {
		{ "pairs", required_argument, NULL, 'n' },
		{ "cpu", required_argument, NULL, OPT_CPU },
		{ "shim", required_argument, NULL, OPT_SHIM },
		{ "aa", no_argument, NULL, OPT_AA },
		{ "stdin", required_argument, NULL, OPT_STDIN },
		{ "keep-output", required_argument, NULL, OPT_KEEP },
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "record", no_argument, NULL, OPT_RECORD },
		{ "counters", no_argument, NULL, OPT_COUNTERS },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct program_params p = { .pairs = 7, .cpu = -1, .format = PROGRAM_TABLE };
	struct program_result r = { 0 };
	static char shim[PATH_MAX], shim_abs[PATH_MAX], path[PATH_MAX];
	char tmp_dir[PATH_MAX], why[1024];
	const char *output = NULL, *tmp = getenv("TMPDIR");
	int c, status = 0;
	FILE *out = stdout;
	struct atomic_file af;

	optind = 0;
	opterr = 0;
	/* '+': the options end at CMD, whose own options are its own. */
	while ((c = getopt_long(argc, argv, "+:n:f:o:qh", longs, NULL)) != -1) {
		long v;
		char err[256];

		switch (c) {
		case 'h':
			fputs(program_usage, stdout);
			return 0;
		case 'n':
			if (option_count("-n", optarg, 1, 100000, &v, err, sizeof(err)))
				return usage_error("-n %s: %s", optarg,
						   "the pairs must be a number from 1 to 100000");
			p.pairs = (unsigned)v;
			break;
		case OPT_CPU:
			if (option_count("--cpu", optarg, 0, CPU_SETSIZE - 1, &v, err, sizeof(err)))
				return usage_error("--cpu %s: %s", optarg, "not a CPU number");
			{
				cpu_set_t set;

				if (sched_getaffinity(0, sizeof(set), &set) || !CPU_ISSET((int)v, &set))
					return usage_error("--cpu %s: %s", optarg,
							   "not a CPU this process may run on");
			}
			p.cpu = (int)v;
			break;
		case OPT_SHIM:
			snprintf(shim, sizeof(shim), "%s", optarg);
			break;
		case OPT_AA:
			p.control = true;
			break;
		case OPT_STDIN:
			if (access(optarg, R_OK))
				return usage_error("--stdin %s: %s", optarg, strerror(errno));
			p.stdin_path = optarg;
			break;
		case OPT_KEEP:
			if (check_dir(optarg))
				return EXIT_USAGE;
			p.keep_dir = optarg;
			break;
		case OPT_CHECK:
			p.check = true;
			break;
		case OPT_RECORD:
			p.record = true;
			break;
		case OPT_COUNTERS:
			p.counters = true;
			break;
		case 'f':
			if (!strcmp(optarg, "table"))
				p.format = PROGRAM_TABLE;
			else if (!strcmp(optarg, "csv"))
				p.format = PROGRAM_CSV;
			else if (!strcmp(optarg, "json"))
				p.format = PROGRAM_JSON;
			else
				return usage_error("-f %s: %s", optarg, "not a format (table, csv, json)");
			break;
		case 'o':
			output = optarg;
			break;
		case 'q':
			p.quiet = true;
			break;
		default:
			option_error(why, sizeof(why), c, argv, longs);
			fprintf(stderr, "copyperf program: %s\n", why);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc)
		return usage_error("%s%s", "no command given",
				   " (usage: copyperf program [options] -- CMD [ARGS...])");
	p.argv = argv + optind;
	if (program_find(p.argv[0], path, sizeof(path), why, sizeof(why)))
		return usage_error("%s%s", why, "");
	p.path = path;
	if (!*shim)
		default_shim(shim, sizeof(shim));
	if (!realpath(shim, shim_abs))
		return usage_error("--shim %s: %s", shim, strerror(errno));
	p.shim = shim_abs;
	if (program_shim_loads(p.shim, why, sizeof(why)))
		return usage_error("%s%s", why, "");
	if (output && strcmp(output, "-")) {
		if (atomic_file_open(&af, output, why, sizeof(why)))
			return usage_error("%s%s", why, "");
		out = af.f;
	}
	snprintf(tmp_dir, sizeof(tmp_dir), "%s/copyperf-program.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(tmp_dir)) {
		fprintf(stderr, "copyperf program: cannot make a directory in %s: %s\n",
			tmp && *tmp ? tmp : "/tmp", strerror(errno));
		if (out != stdout)
			atomic_file_discard(&af);
		return 1;
	}
	p.tmp_dir = tmp_dir;
	interrupt_catch();
	if (program_measure(&p, &r, why, sizeof(why))) {
		fprintf(stderr, "copyperf program: %s\n", why);
		status = EXIT_USAGE;
	} else {
		if (p.record && !r.failed && !interrupt_signal())
			program_predict(&p, &r);
		if (p.counters && !r.failed && !interrupt_signal())
			program_cycle_shares(&p, &r);
		if (program_report(out, &p, &r)) {
			fprintf(stderr, "copyperf program: cannot write the result: %s\n", strerror(errno));
			status = 1;
		}
		status = status ? status : r.failed ? 1 : r.interrupted ? interrupt_exit_status() : 0;
	}
	if (out != stdout) {
		if (status == 0 || status == 1 || r.interrupted) {
			if (atomic_file_commit(&af, why, sizeof(why))) {
				fprintf(stderr, "copyperf program: %s\n", why);
				status = 1;
			}
		} else {
			atomic_file_discard(&af);
		}
	}
	remove_tmp(tmp_dir);
	program_result_free(&r);
	return status;
}
