/* SPDX-License-Identifier: MIT */
/* `copyperf compare`: its command line; the comparison itself is report/compare.c's. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "options.h"
#include "report/compare.h"

static const char compare_usage[] =
	"usage: copyperf compare [--threshold PCT] A.json[,A2.json...] B.json[,B2.json...]\n"
	"For every (routine, space, chunk, threads) in both results files: the median speeds, B/A,\n"
	"and a two-sided Mann-Whitney U test of the repeats; then the geometric mean of\n"
	"B/A per routine.  With --threshold PCT, exits 1 when any B/A is significantly\n"
	"below 1 - PCT/100 (B slower than A by more than PCT percent), when a point\n"
	"FAILED verification in B, or when no point was compared.\n"
	"Replayed call mixes line up by (routine, space, distribution, working set: its bytes\n"
	"and whether spread or a stream), with the median ns per call and B/A = A's time\n"
	"over B's.\n"
	"A comma list of files pools each point's repeats over several runs: runs of one\n"
	"build differ more than the repeats inside one run, so gate CI on several runs a side.\n";

static int parse_threshold(const char *arg, double *out)
{
	char *end;
	double v = strtod(arg, &end);

	if (*arg == '\0' || *end != '\0' || !(v > 0 && v < 100)) {
		fprintf(stderr, "copyperf compare: --threshold: '%s' is not a percentage between 0 "
				"and 100\n",
			arg);
		return -1;
	}
	*out = v;
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "threshold", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	double threshold = 0;
	char why[512];
	int c, status;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":t:h", longs, NULL)) != -1) {
		if (c == 'h') {
			fputs(compare_usage, stdout);
			return 0;
		}
		if (c == 't' && parse_threshold(optarg, &threshold) == 0)
			continue;
		if (c != 't') {
			option_error(why, sizeof(why), c, argv, longs);
			fprintf(stderr, "copyperf compare: %s\n", why);
		}
		return EXIT_USAGE;
	}
	if (argc - optind != 2) {
		fprintf(stderr, "copyperf compare: needs two results files, A.json B.json (got %d)\n",
			argc - optind);
		return EXIT_USAGE;
	}
	status = compare_files(argv[optind], argv[optind + 1], threshold, why, sizeof(why));
	if (status < 0) {
		fprintf(stderr, "copyperf compare: %s\n", why);
		return EXIT_USAGE;
	}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "copyperf compare: cannot write the comparison: %s\n",
			strerror(errno ? errno : EIO));
		return 1;
	}
	return status;
}
