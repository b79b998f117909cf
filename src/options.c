/* SPDX-License-Identifier: MIT */
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "options.h"
#include "sizes.h"

#define DEFAULT_TOTAL (32ull << 20)
#define DEFAULT_BUFFER (64ull << 10)
#define MAX_TOTAL (1ull << 40)
#define MAX_BUFFER (1ull << 32)
#define MAX_ALIGN 4095
#define MAX_REPEAT 100000

const char options_usage[] =
	"usage: copyperf [options]\n"
	"       copyperf plot -o FILE.svg|FILE.png RESULTS.json...\n"
	"       copyperf compare [--threshold PCT] A.json[,A2.json...] B.json[,B2.json...]\n"
	"Times memory-copy routines the way the 2008 MPC8313 experiment did: a fixed total\n"
	"copied through two buffers in chunks, for each chunk size and routine.\n"
	"\n"
	"  -r, --routines LIST   comma list of routine names (default: every routine available here)\n"
	"      --list            print the routines with a one-line description each, and exit\n"
	"  -s, --sizes LIST      chunk sizes, e.g. 65536,4096,8 or a range 8-64K (powers of two);\n"
	"                        default 64K-8: 64 KiB down to 8 B, halving (the seed's 14 sizes)\n"
	"  -t, --total SIZE      bytes copied per (routine, size) measurement; default 32M\n"
	"                        (suffixes K M G mean 2^10 2^20 2^30)\n"
	"  -b, --buffer SIZE     bytes in each of the two working buffers; default 64K\n"
	"  -c, --cache MODE      flush: flush both buffers from every cache level at each wrap,\n"
	"                               timer paused during the flush (default)\n"
	"                        flush-timed: the seed's method, the flush is timed too\n"
	"                        hot: never flush\n"
	"                        cold: walk a region at least 4x the last-level cache, so every\n"
	"                              chunk comes from memory\n"
	"  -a, --align S:D       byte offsets (0-4095) of source and destination from a\n"
	"                        page-aligned base; default 0:0\n"
	"  -n, --repeat N        measurements per point (default 5): median, min and max reported\n"
	"  -f, --format FMT      table (default) | seed (the 2008 post's lines) | csv | json\n"
	"  -o, --output FILE     write the results there instead of to standard output\n"
	"      --plot FILE       also draw throughput against chunk size into FILE (.svg or .png,\n"
	"                        needs gnuplot)\n"
	"      --counters        hardware counters per point (cycles, instructions, L1D read and\n"
	"                        LLC misses): cycles per byte and bytes per cycle next to MB/s\n"
	"      --cpu N           pin the process to CPU N\n"
	"      --kernel          measure the kernel's routines through /dev/copyperf\n"
	"  -q, --quiet           no progress line on standard error\n"
	"  -h, --help            this text\n"
	"      --version         the version\n"
	"\n"
	"Every copy is verified after it is timed; a routine that copies wrongly is reported\n"
	"as FAILED with the first wrong offset, and copyperf exits 1.  Bad options exit 2.\n"
	"`copyperf plot --help` and `copyperf compare --help` describe the subcommands.\n";

enum { OPT_LIST = 256, OPT_CPU, OPT_VERSION, OPT_KERNEL, OPT_QUIET, OPT_PLOT, OPT_COUNTERS };

static const struct option long_options[] = {
	{ "routines", required_argument, NULL, 'r' },
	{ "list", no_argument, NULL, OPT_LIST },
	{ "sizes", required_argument, NULL, 's' },
	{ "total", required_argument, NULL, 't' },
	{ "buffer", required_argument, NULL, 'b' },
	{ "cache", required_argument, NULL, 'c' },
	{ "align", required_argument, NULL, 'a' },
	{ "repeat", required_argument, NULL, 'n' },
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "kernel", no_argument, NULL, OPT_KERNEL },
	{ "quiet", no_argument, NULL, 'q' },
	{ "plot", required_argument, NULL, OPT_PLOT },
	{ "counters", no_argument, NULL, OPT_COUNTERS },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static const char *const cache_names[] = { "flush", "flush-timed", "hot", "cold" };
static const char *const format_names[] = { "table", "seed", "csv", "json" };

const char *cache_mode_name(enum cache_mode m)
{
	return cache_names[m];
}

const char *format_name(enum output_format f)
{
	return format_names[f];
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int pick_name(const char *opt, const char *arg, const char *const *names, size_t n,
		     int *out, char *err, size_t errlen)
{
	char valid[256] = "";

	for (size_t i = 0; i < n; i++) {
		if (strcmp(arg, names[i]) == 0) {
			*out = (int)i;
			return 0;
		}
		strcat(valid, i ? ", " : "");
		strcat(valid, names[i]);
	}
	return fail(err, errlen, "%s: unknown value '%s' (valid: %s)", opt, arg, valid);
}

static int parse_count(const char *opt, const char *arg, long lo, long hi, long *out, char *err,
		       size_t errlen)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (*arg == '\0' || *end != '\0')
		return fail(err, errlen, "%s: '%s' is not a whole number", opt, arg);
	if (v < lo || v > hi)
		return fail(err, errlen, "%s: %s is out of range (%ld to %ld)", opt, arg, lo, hi);
	*out = v;
	return 0;
}

static int parse_one_size(const char *opt, const char *arg, uint64_t max, uint64_t *out,
			  char *err, size_t errlen)
{
	char why[160];

	if (parse_size(arg, out, why, sizeof(why)))
		return fail(err, errlen, "%s: %s", opt, why);
	if (*out == 0)
		return fail(err, errlen, "%s: the size must be greater than 0", opt);
	if (*out > max)
		return fail(err, errlen, "%s: '%s' is too large (at most %llu bytes)", opt, arg,
			    (unsigned long long)max);
	return 0;
}

static int parse_routines(const char *arg, struct options *o, char *err, size_t errlen)
{
	char *copy = strdup(arg), *cursor = copy, *name;

	if (!copy)
		return fail(err, errlen, "--routines: out of memory");
	for (size_t i = 0; i < o->n_routines; i++)
		free(o->routines[i]);
	free(o->routines);
	o->routines = calloc(strlen(arg) + 1, sizeof(*o->routines));
	o->n_routines = 0;
	while ((name = strsep(&cursor, ",")) != NULL) {
		if (*name == '\0') {
			free(copy);
			return fail(err, errlen, "--routines: empty name in '%s'", arg);
		}
		o->routines[o->n_routines++] = strdup(name);
	}
	free(copy);
	return 0;
}

static int parse_align(const char *arg, struct options *o, char *err, size_t errlen)
{
	char *end;
	unsigned long s, d;

	s = strtoul(arg, &end, 10);
	if (end == arg || *end != ':')
		return fail(err, errlen, "--align: '%s' is not S:D (two byte offsets)", arg);
	arg = end + 1;
	d = strtoul(arg, &end, 10);
	if (end == arg || *end != '\0')
		return fail(err, errlen, "--align: '%s' is not S:D (two byte offsets)", arg);
	if (s > MAX_ALIGN || d > MAX_ALIGN)
		return fail(err, errlen, "--align: offsets must be 0 to %d", MAX_ALIGN);
	o->align_src = s;
	o->align_dst = d;
	return 0;
}

static int parse_sizes(const char *arg, struct options *o, char *err, size_t errlen)
{
	char why[160];
	long n = parse_size_list(arg, &o->sizes, why, sizeof(why));

	if (n < 0)
		return fail(err, errlen, "--sizes: %s", why);
	o->n_sizes = (size_t)n;
	for (size_t i = 0; i < o->n_sizes; i++)
		if (o->sizes[i] == 0)
			return fail(err, errlen, "--sizes: a chunk of 0 bytes copies nothing");
	return 0;
}

/* Checks the options against each other once all are known. */
static int check_consistency(const struct options *o, char *err, size_t errlen)
{
	for (size_t i = 0; i < o->n_sizes; i++) {
		unsigned long long c = o->sizes[i];

		if (c > o->buffer)
			return fail(err, errlen,
				    "--sizes: chunk %llu is larger than the buffer (--buffer %llu)", c,
				    (unsigned long long)o->buffer);
		if (c > o->total)
			return fail(err, errlen,
				    "--total: %llu bytes is smaller than the chunk %llu",
				    (unsigned long long)o->total, c);
	}
	return 0;
}

static void set_defaults(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->total = DEFAULT_TOTAL;
	o->buffer = DEFAULT_BUFFER;
	o->cache = CACHE_FLUSH;
	o->repeat = 5;
	o->format = FORMAT_TABLE;
	o->cpu = -1;
}

static int parse_option(int c, const char *arg, struct options *o, char *err, size_t errlen)
{
	long v;
	int i;

	switch (c) {
	case 'r':
		return parse_routines(arg, o, err, errlen);
	case 's':
		free(o->sizes);
		o->sizes = NULL;
		return parse_sizes(arg, o, err, errlen);
	case 't':
		return parse_one_size("--total", arg, MAX_TOTAL, &o->total, err, errlen);
	case 'b':
		return parse_one_size("--buffer", arg, MAX_BUFFER, &o->buffer, err, errlen);
	case 'c':
		if (pick_name("--cache", arg, cache_names, 4, &i, err, errlen))
			return -1;
		o->cache = (enum cache_mode)i;
		return 0;
	case 'a':
		return parse_align(arg, o, err, errlen);
	case 'n':
		if (parse_count("--repeat", arg, 1, MAX_REPEAT, &v, err, errlen))
			return -1;
		o->repeat = (unsigned)v;
		return 0;
	case 'f':
		if (pick_name("--format", arg, format_names, 4, &i, err, errlen))
			return -1;
		o->format = (enum output_format)i;
		return 0;
	case 'o':
		if (*arg == '\0')
			return fail(err, errlen, "--output: empty file name");
		o->output = arg;
		return 0;
	case OPT_CPU:
		if (parse_count("--cpu", arg, 0, CPU_SETSIZE - 1, &v, err, errlen))
			return -1;
		o->cpu = (int)v;
		return 0;
	case OPT_KERNEL:
		o->kernel = true;
		return 0;
	case 'q':
		o->quiet = true;
		return 0;
	case OPT_PLOT:
		if (*arg == '\0')
			return fail(err, errlen, "--plot: empty file name");
		o->plot = arg;
		return 0;
	case OPT_COUNTERS:
		o->counters = true;
		return 0;
	case OPT_LIST:
		o->action = ACTION_LIST;
		return 0;
	case 'h':
		o->action = ACTION_HELP;
		return 0;
	case OPT_VERSION:
		o->action = ACTION_VERSION;
		return 0;
	}
	return fail(err, errlen, "internal error: option %d", c);
}

void option_error(char *err, size_t errlen, int c, const char *arg)
{
	if (c == ':')
		snprintf(err, errlen, "option '%s' needs a value (see --help)", arg);
	else
		snprintf(err, errlen, "unknown option '%s' (see --help)", arg);
}

int options_parse(int argc, char **argv, struct options *o, char *err, size_t errlen)
{
	int c;

	set_defaults(o);
	optind = 0; /* GNU: start afresh, so the parser can run more than once */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":r:s:t:b:c:a:n:f:o:hq", long_options, NULL)) != -1) {
		if (c == '?' || c == ':') {
			option_error(err, errlen, c, argv[optind - 1]);
			return -1;
		}
		if (parse_option(c, optarg, o, err, errlen))
			return -1;
	}
	if (optind < argc)
		return fail(err, errlen, "unexpected argument '%s' (see --help)", argv[optind]);
	if (!o->sizes) {
		char why[160];
		long n = parse_size_list("64K-8", &o->sizes, why, sizeof(why));

		if (n < 0)
			return fail(err, errlen, "internal error: %s", why);
		o->n_sizes = (size_t)n;
	}
	return o->action == ACTION_RUN ? check_consistency(o, err, errlen) : 0;
}

void options_free(struct options *o)
{
	for (size_t i = 0; i < o->n_routines; i++)
		free(o->routines[i]);
	free(o->routines);
	free(o->sizes);
	memset(o, 0, sizeof(*o));
}
