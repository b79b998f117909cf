/* SPDX-License-Identifier: MIT */
/* `copyperf plot`: its command line; the drawing itself is report/plot.c's. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include "builtin.h"
#include "interrupt.h"
#include "options.h"
#include "report/plot.h"
#include "xalloc.h"

static const char plot_usage[] =
	"usage: copyperf plot -o FILE.svg|FILE.png RESULTS.json...\n"
	"Draws throughput (median MB/s, min-max bars over the repeats) against chunk size,\n"
	"one line per routine, space and results file, with gnuplot.  Replayed call mixes\n"
	"(--distribution) are drawn as the time per call of each distribution and working\n"
	"set, one bar per routine, space and results file.  Results measured on several\n"
	"thread counts (-j) are drawn as aggregate throughput against threads, one line per\n"
	"routine, space, chunk and results file.\n";

int cmd_plot(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *out = NULL;
	struct result_set *sets;
	struct result_kinds kinds = { 0 };
	char why[512];
	int c, n, status = 0;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", longs, NULL)) != -1) {
		if (c == 'h') {
			fputs(plot_usage, stdout);
			return 0;
		}
		if (c == 'o') {
			out = optarg;
			continue;
		}
		option_error(why, sizeof(why), c, argv, longs);
		fprintf(stderr, "copyperf plot: %s\n", why);
		return EXIT_USAGE;
	}
	n = argc - optind;
	if (!out || n < 1) {
		fprintf(stderr, "copyperf plot: %s (usage: copyperf plot -o FILE.svg RESULTS.json...)\n",
			out ? "no results file given" : "no -o FILE.svg|FILE.png given");
		return EXIT_USAGE;
	}
	if (plot_check(out, why, sizeof(why))) {
		fprintf(stderr, "copyperf %s\n", why);
		return EXIT_USAGE;
	}
	interrupt_catch();
	sets = xcalloc((size_t)n, sizeof(*sets), "the results files");
	for (int i = 0; i < n && !status; i++)
		if (result_set_read(&sets[i], argv[optind + i], why, sizeof(why)) ||
		    result_kinds_add(&kinds, &sets[i], why, sizeof(why))) {
			fprintf(stderr, "copyperf plot: %s%s\n", why,
				kinds.chunk && kinds.replay ? ": they cannot share one plot" : "");
			status = EXIT_USAGE;
		}
	if (!status && (status = plot_write(sets, (size_t)n, out, why, sizeof(why)))) {
		fprintf(stderr, "copyperf %s\n", why);
		status = status == PLOT_NOTHING_TO_DRAW ? EXIT_USAGE
			 : status == PLOT_INTERRUPTED ? interrupt_exit_status() : 1;
	}
	for (int i = 0; i < n; i++)
		result_set_free(&sets[i]);
	free(sets);
	return status;
}
