/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "measure/call_mixes/workloads.h"
#include "measure/hardware/cache.h"
#include "options.h"
#include "sizes.h"
#include "xalloc.h"

#define DEFAULT_TOTAL (32ull << 20)
#define DEFAULT_BUFFER (64ull << 10)
#define MAX_TOTAL (1ull << 40)
/* 4 GiB, or where size_t is 32 bits the most two buffers and their guards can take: 1 GiB */
#define MAX_BUFFER (SIZE_MAX >> 2 < (1ull << 32) ? (uint64_t)(SIZE_MAX >> 2) + 1 : 1ull << 32)
#define MAX_ALIGN 4095
#define MAX_REPEAT 100000
#define DEFAULT_SEED 2008
#define MIN_WORKING_SET 256
#define MAX_WORKING_SET (1ull << 30)

const char options_usage[] =
	"usage: copyperf [options]\n"
	"       copyperf plot -o FILE.svg|FILE.png RESULTS.json...\n"
	"       copyperf compare [--threshold PCT] A.json[,A2.json...] B.json[,B2.json...]\n"
	"       copyperf program [options] -- CMD [ARGS...]\n"
	"Times memory-copy routines the way the 2008 MPC8313 experiment did: a fixed total\n"
	"copied through two buffers in chunks, for each chunk size and routine.\n"
	"\n"
	"  -r, --routines LIST   comma list of routine names (default: every routine available here),\n"
	"                        or FILE:SYMBOL[:overlap] from a shared object (FILE holds a '/')\n"
	"      --list            print the routines with a one-line description each, and exit\n"
	"  -s, --sizes LIST      chunk sizes, e.g. 65536,4096,8 or a range 8-64K (powers of two);\n"
	"                        default 64K-8: 64 KiB down to 8 B, halving (the seed's 14 sizes)\n"
	"  -t, --total SIZE      bytes copied per (routine, size) measurement; default 32M\n"
	"                        (suffixes K M G T, any case, mean 2^10 2^20 2^30 2^40)\n"
	"  -b, --buffer SIZE     bytes in each of the two working buffers; default 64K\n"
	"  -c, --cache MODE      flush: flush both buffers from every cache level at each wrap,\n"
	"                               timer paused during the flush (default)\n"
	"                        flush-timed: the seed's method, the flush is timed too\n"
	"                        hot: never flush\n"
	"                        cold: buffers of at least twice the last-level cache each,\n"
	"                              so every chunk comes from memory\n"
	"  -a, --align S:D       byte offsets (0-4095) of source and destination from a\n"
	"                        page-aligned base; default 0:0\n"
	"  -n, --repeat N        measurements per point (default 5): median, min and max reported\n"
	"  -f, --format FMT      table (default) | seed (the 2008 post's lines) | csv | json\n"
	"  -o, --output FILE     write the results there instead of to standard output ('-')\n"
	"      --plot FILE       also draw throughput against chunk size into FILE (.svg or .png,\n"
	"                        needs gnuplot)\n"
	"      --counters        hardware counters per point (cycles, instructions, L1D read and\n"
	"                        LLC misses): cycles per byte and bytes per cycle next to MB/s\n"
	"      --cpu N           pin the process to CPU N\n"
	"      --kernel          measure the kernel's routines through /dev/copyperf\n"
	"  -j, --threads LIST    copy on N threads at once, each pinned to its own CPU and with\n"
	"                        its own buffers: N, all, or a list (1,2,all); aggregate MB/s\n"
	"                        and the slowest and fastest thread's\n"
	"      --pages P         the buffers' pages: 4k, 2m, 1g (explicit huge pages, reserved\n"
	"                        beforehand) or thp (transparent); the output says what the\n"
	"                        kernel gave\n"
	"      --numa WHERE      the buffers' NUMA placement: local, interleave or a node number"
	"\n"
	"  -d, --distribution LIST  replay recorded call mixes instead of the chunk sweep:\n"
	"                        shipped ones by name (fleet, memcpy_0..8, memcpy_fleet,\n"
	"                        memmove_0..8, memmove_fleet; memcpy, memmove or all for\n"
	"                        ten or twenty) or any file in their format; ns per call\n"
	"  -w, --working-set LIST   where the calls' buffers spread: l1, l2, llc, cold (sized\n"
	"                        from this machine's caches, the last level as measured or\n"
	"                        COPYPERF_LLC) or a size; or stream: calls one after another,\n"
	"                        as a serializer or a parser makes them, through two walks of\n"
	"                        twice the last level; default l1,l2\n"
	"      --seed N          draws the call lists (default 2008): the same N, the same calls\n"
	"      --chain           each call waits for the one before: its last byte is read\n"
	"                        back before the next call's source is known, as a decoder\n"
	"                        reads what it has just copied (the calls' latency, where\n"
	"                        without it they overlap: their throughput)\n"
	"      --tested          each call after the caller's tests of its size, a branch on\n"
	"                        each of its low 8 bits, as a decoder reads a length bit by\n"
	"                        bit: a branch predictor then holds the size in its history\n"
	"                        when the copy tests it (with --chain or without)\n"
	"  -q, --quiet           no progress line on standard error\n"
	"  -h, --help            this text\n"
	"      --version         the version\n"
	"\n"
	"Every copy is verified after it is timed; a routine that copies wrongly is reported\n"
	"as FAILED with the first wrong offset, and copyperf exits 1.  Bad options exit 2.\n"
	"`copyperf plot --help`, `copyperf compare --help` and `copyperf program --help` describe\n"
	"the subcommands.\n";

enum { OPT_LIST = 256, OPT_CPU, OPT_VERSION, OPT_KERNEL, OPT_QUIET, OPT_PLOT, OPT_COUNTERS,
       OPT_SEED, OPT_PAGES, OPT_NUMA, OPT_CHAIN, OPT_TESTED };

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
	{ "distribution", required_argument, NULL, 'd' },
	{ "working-set", required_argument, NULL, 'w' },
	{ "seed", required_argument, NULL, OPT_SEED },
	{ "chain", no_argument, NULL, OPT_CHAIN },
	{ "tested", no_argument, NULL, OPT_TESTED },
	{ "threads", required_argument, NULL, 'j' },
	{ "pages", required_argument, NULL, OPT_PAGES },
	{ "numa", required_argument, NULL, OPT_NUMA },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static const char *const format_names[] = { "table", "seed", "csv", "json" };
static const char *const page_names[] = { "4k", "2m", "1g", "thp" }; /* PAGES_4K on */

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

/* Digits, with a minus sign for the range's message: not the space or plus strtol takes. */
static bool number_text(const char *s)
{
	return (*s >= '0' && *s <= '9') || (*s == '-' && s[1] >= '0' && s[1] <= '9');
}

int option_count(const char *opt, const char *arg, long lo, long hi, long *out, char *err,
		 size_t errlen)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (!number_text(arg) || *end != '\0')
		return fail(err, errlen, "%s: '%s' is not a whole number", opt, arg);
	if (v < lo || v > hi)
		return fail(err, errlen, "%s: %s is out of range (%ld to %ld)", opt, arg, lo, hi);
	*out = v;
	return 0;
}

static int parse_seed(const char *arg, uint64_t *out, char *err, size_t errlen)
{
	char *end;

	errno = 0;
	*out = strtoull(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || *end != '\0' || errno)
		return fail(err, errlen, "--seed: '%s' is not a whole number from 0 to 2^64-1", arg);
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

static void free_words(char **words, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(words[i]);
	free(words);
}

/* A comma list of non-empty words, replacing *words (the option may be given again). */
static int parse_words(const char *opt, const char *arg, char ***words, size_t *n, char *err,
		       size_t errlen)
{
	char *copy = xstrdup(arg, opt), *cursor = copy, *word;

	free_words(*words, *n);
	*n = 0;
	*words = xcalloc(strlen(arg) + 1, sizeof(**words), opt);
	while ((word = strsep(&cursor, ",")) != NULL) {
		if (*word == '\0') {
			free(copy);
			return fail(err, errlen, "%s: empty name in '%s'", opt, arg);
		}
		for (size_t i = 0; i < *n; i++)
			if (!strcmp((*words)[i], word)) {
				fail(err, errlen, "%s: '%s' is given twice", opt, word);
				free(copy);
				return -1;
			}
		(*words)[(*n)++] = xstrdup(word, opt);
	}
	free(copy);
	return 0;
}

/* -j: a comma list of thread counts, each a number from 1 or "all" (stored as 0). */
static int parse_threads(const char *arg, struct options *o, char *err, size_t errlen)
{
	char *words = xstrdup(arg, "--threads"), *cursor = words, *word;
	int status = 0;

	free(o->threads);
	o->n_threads = 0;
	o->threads = xcalloc(strlen(arg) + 1, sizeof(*o->threads), "--threads");
	while (!status && (word = strsep(&cursor, ",")) != NULL) {
		long v;

		if (!strcmp(word, "all"))
			o->threads[o->n_threads++] = 0;
		else if (!strcmp(word, "0"))
			status = fail(err, errlen, "--threads: 0 threads copy nothing (give 1 or more, "
					  "or all)");
		else if (!(status = option_count("--threads", word, 1, CPU_SETSIZE, &v, err, errlen)))
			o->threads[o->n_threads++] = (unsigned)v;
	}
	free(words);
	return status;
}

static int parse_numa(const char *arg, struct options *o, char *err, size_t errlen)
{
	long v;

	if (!strcmp(arg, "local") || !strcmp(arg, "interleave")) {
		o->numa = *arg == 'l' ? NUMA_LOCAL : NUMA_INTERLEAVE;
		return 0;
	}
	if (*arg < '0' || *arg > '9')
		return fail(err, errlen, "--numa: '%s' is not local, interleave or a node number", arg);
	if (option_count("--numa", arg, 0, 4095, &v, err, errlen))
		return -1;
	o->numa = NUMA_NODE;
	o->numa_node = (int)v;
	return 0;
}

/* l1, l2, llc, cold, stream, or a size: sized from the machine when the run starts. */
static int check_working_sets(const struct options *o, char *err, size_t errlen)
{
	for (size_t i = 0; i < o->n_working_sets; i++) {
		const char *w = o->working_sets[i];
		char why[160];
		uint64_t v;

		if (working_set_is_level(w))
			continue;
		if (parse_size(w, &v, why, sizeof(why)))
			return fail(err, errlen,
				    "--working-set: '%s' is not l1, l2, llc, cold, stream or a size", w);
		if (v < MIN_WORKING_SET || v > MAX_WORKING_SET)
			return fail(err, errlen, "--working-set: %s is out of range (%u bytes to 1G)", w,
				    MIN_WORKING_SET);
	}
	return 0;
}

static int parse_align(const char *arg, struct options *o, char *err, size_t errlen)
{
	const char *second;
	char *end;
	unsigned long s, d;

	s = strtoul(arg, &end, 10);
	if (!number_text(arg) || *arg == '-' || *end != ':')
		return fail(err, errlen, "--align: '%s' is not S:D (two byte offsets)", arg);
	second = end + 1;
	d = strtoul(second, &end, 10);
	if (!number_text(second) || *second == '-' || *end != '\0')
		return fail(err, errlen, "--align: '%s' is not S:D (two byte offsets)", arg);
	if (s > MAX_ALIGN || d > MAX_ALIGN)
		return fail(err, errlen, "--align: '%s': offsets must be 0 to %d", arg, MAX_ALIGN);
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
	for (size_t i = 0; i < o->n_sizes; i++) {
		if (o->sizes[i] == 0)
			return fail(err, errlen, "--sizes: a chunk of 0 bytes copies nothing");
		for (size_t k = 0; k < i; k++)
			if (o->sizes[k] == o->sizes[i])
				return fail(err, errlen, "--sizes: %llu is given twice in '%s'",
					    (unsigned long long)o->sizes[i], arg);
	}
	return 0;
}

/* A replay takes its sizes, alignments and buffers from the distribution and working sets. */
static int check_replay(const struct options *o, char *err, size_t errlen)
{
	static const struct {
		unsigned bit;
		const char *opt, *why;
	} chunk_only[] = {
		{ GIVEN_SIZES, "--sizes", "the calls' sizes come from the distribution" },
		{ GIVEN_BUFFER, "--buffer", "--working-set sizes the buffers" },
		{ GIVEN_CACHE, "--cache", "--working-set chooses the cache level" },
		{ GIVEN_ALIGN, "--align", "the alignments come from the distribution" },
	};

	if (!o->distributions) {
		if (o->given & GIVEN_WORKING_SET)
			return fail(err, errlen, "--working-set: only with --distribution");
		if (o->given & GIVEN_SEED)
			return fail(err, errlen, "--seed: only with --distribution");
		if (o->chained)
			return fail(err, errlen, "--chain: only with --distribution (it chains a "
						 "replay's calls; the sweep's chunks are one copy each)");
		if (o->tested)
			return fail(err, errlen, "--tested: only with --distribution (it tests a "
						 "replay's sizes; the sweep's chunks are one size at a time)");
		return 0;
	}
	for (size_t i = 0; i < sizeof(chunk_only) / sizeof(chunk_only[0]); i++)
		if (o->given & chunk_only[i].bit)
			return fail(err, errlen, "%s: not with --distribution (%s)", chunk_only[i].opt,
				    chunk_only[i].why);
	/* stream reads like a way to walk any buffers: say that it is a list of calls too */
	for (size_t i = 0; o->kernel && i < o->n_working_sets; i++)
		if (working_set_is_stream(o->working_sets[i]))
			return fail(err, errlen, "--working-set stream: not with --kernel (a stream is a "
						 "list of calls replayed in user space; the module replays "
						 "none)");
	if (o->kernel)
		return fail(err, errlen, "--distribution: not with --kernel (the module replays no "
					 "call mixes; they are measured in user space)");
	if (o->format == FORMAT_SEED)
		return fail(err, errlen, "--format seed: the 2008 lines have no call mixes (use table, "
					 "csv or json)");
	return check_working_sets(o, err, errlen);
}

/* What the module, the counters, --cpu and the seed's format cannot do with threads. */
static int check_threads(const struct options *o, char *err, size_t errlen)
{
	if (o->kernel && o->threads)
		return fail(err, errlen, "--kernel: not with --threads (the module measures one copy "
					 "at a time)");
	if (o->counters && o->threads)
		return fail(err, errlen, "--counters: not with --threads (the counters count one "
					 "thread)");
	if (o->cpu >= 0 && o->threads)
		return fail(err, errlen, "--cpu: not with --threads (each thread is pinned to a CPU "
					 "of its own)");
	if (o->format == FORMAT_SEED && o->threads)
		return fail(err, errlen, "--format seed: the 2008 lines have one thread (use table, "
					 "csv or json)");
	if (o->kernel && (o->pages || o->numa))
		return fail(err, errlen, "%s: not with --kernel (the module allocates its own buffers)",
			    o->pages ? "--pages" : "--numa");
	return 0;
}

/* Checks the options against each other once all are known. */
static int check_consistency(const struct options *o, char *err, size_t errlen)
{
	struct stat a, b;

	if (check_replay(o, err, errlen) || check_threads(o, err, errlen))
		return -1;
	/* one would overwrite the other */
	if (o->output && o->plot &&
	    (!strcmp(o->output, o->plot) || (stat(o->output, &a) == 0 && stat(o->plot, &b) == 0 &&
					     a.st_dev == b.st_dev && a.st_ino == b.st_ino)))
		return fail(err, errlen, "--plot: '%s' is the --output file too", o->plot);
	if (o->distributions)
		return 0;
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

/*
 * -c cold walks buffers of twice the last-level cache each (or more, as -b
 * says), so that every chunk comes from memory: the buffers are that large,
 * for the chunks' check and for what the results say.
 */
static void cold_buffers(struct options *o)
{
	uint64_t region = cache_cold_bytes();

	if (region > MAX_BUFFER) /* what this machine's size_t can map */
		region = MAX_BUFFER;
	if (region > o->buffer)
		o->buffer = region;
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
	o->seed = DEFAULT_SEED;
}

static int parse_option(int c, const char *arg, struct options *o, char *err, size_t errlen)
{
	long v;
	int i;

	switch (c) {
	case 'r':
		return parse_words("--routines", arg, &o->routines, &o->n_routines, err, errlen);
	case 'd':
		return parse_words("--distribution", arg, &o->distributions, &o->n_distributions,
				   err, errlen);
	case 'w':
		o->given |= GIVEN_WORKING_SET;
		return parse_words("--working-set", arg, &o->working_sets, &o->n_working_sets, err,
				   errlen);
	case 'j':
		return parse_threads(arg, o, err, errlen);
	case OPT_PAGES:
		if (pick_name("--pages", arg, page_names, 4, &i, err, errlen))
			return -1;
		o->pages = (enum page_mode)(PAGES_4K + i);
		return 0;
	case OPT_NUMA:
		return parse_numa(arg, o, err, errlen);
	case OPT_CHAIN:
		o->chained = true;
		return 0;
	case OPT_TESTED:
		o->tested = true;
		return 0;
	case OPT_SEED:
		o->given |= GIVEN_SEED;
		return parse_seed(arg, &o->seed, err, errlen);
	case 's':
		o->given |= GIVEN_SIZES;
		free(o->sizes);
		o->sizes = NULL;
		return parse_sizes(arg, o, err, errlen);
	case 't':
		return parse_one_size("--total", arg, MAX_TOTAL, &o->total, err, errlen);
	case 'b':
		o->given |= GIVEN_BUFFER;
		return parse_one_size("--buffer", arg, MAX_BUFFER, &o->buffer, err, errlen);
	case 'c':
		o->given |= GIVEN_CACHE;
		if (pick_name("--cache", arg, cache_mode_names, N_CACHE_MODES, &i, err, errlen))
			return -1;
		o->cache = (enum cache_mode)i;
		return 0;
	case 'a':
		o->given |= GIVEN_ALIGN;
		return parse_align(arg, o, err, errlen);
	case 'n':
		if (option_count("--repeat", arg, 1, MAX_REPEAT, &v, err, errlen))
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
		/* '-' is standard output, as for every other tool. */
		o->output = strcmp(arg, "-") ? arg : NULL;
		return 0;
	case OPT_CPU:
		if (option_count("--cpu", arg, 0, CPU_SETSIZE - 1, &v, err, errlen))
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

void option_error(char *err, size_t errlen, int c, char *const *argv, const struct option *longs)
{
	const char *word = argv[optind - 1], *name = word + 2;
	size_t len = strcspn(name, "="), matches = 0;
	const struct option *exact = NULL, *one = NULL;

	for (const struct option *l = longs; l->name; l++)
		if (!strncmp(l->name, name, len)) {
			matches++;
			one = l;
			exact = strlen(l->name) == len ? l : exact;
		}
	/*
	 * A short option, perhaps inside a cluster (-qZ), where getopt may not have
	 * moved past the word yet: the letter is optopt's.
	 */
	if (strncmp(word, "--", 2) || !len ||
	    (optopt && (exact ? exact : one) && (exact ? exact : one)->val != optopt)) {
		snprintf(err, errlen, c == ':' ? "option '-%c' needs a value (see --help)"
					       : "unknown option '-%c' (see --help)", optopt);
		return;
	}
	if (c == ':')
		snprintf(err, errlen, "option '--%.*s' needs a value (see --help)", (int)len, name);
	else if (name[len] == '=' && (exact || matches == 1))
		snprintf(err, errlen, "option '--%s' takes no value (see --help)",
			 (exact ? exact : one)->name);
	else if (matches > 1 && !exact)
		snprintf(err, errlen, "option '--%.*s' is ambiguous (see --help)", (int)len, name);
	else
		snprintf(err, errlen, "unknown option '%s' (see --help)", word);
}

int options_parse(int argc, char **argv, struct options *o, char *err, size_t errlen)
{
	int c;

	set_defaults(o);
	optind = 0; /* GNU: start afresh, so the parser can run more than once */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":r:s:t:b:c:a:n:f:o:d:w:j:hq", long_options, NULL)) != -1) {
		if (c == '?' || c == ':') {
			option_error(err, errlen, c, argv, long_options);
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
	if (o->cache == CACHE_COLD && !o->kernel)
		cold_buffers(o);
	if (o->distributions && !o->working_sets &&
	    parse_words("--working-set", "l1,l2", &o->working_sets, &o->n_working_sets, err, errlen))
		return -1;
	return o->action == ACTION_RUN ? check_consistency(o, err, errlen) : 0;
}

void options_free(struct options *o)
{
	free_words(o->routines, o->n_routines);
	free_words(o->distributions, o->n_distributions);
	free_words(o->working_sets, o->n_working_sets);
	free(o->sizes);
	free(o->threads);
	memset(o, 0, sizeof(*o));
}
