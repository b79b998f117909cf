/* SPDX-License-Identifier: MIT */
/* The command line: defaults, every option, and every bad input named in one line. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "options.h"

#define MAX_ARGS 32

/* Parses the arguments (after "copyperf"); returns options_parse's result. */
static int parse(struct options *o, char *err, size_t errlen, const char *const *args)
{
	char *argv[MAX_ARGS + 2] = { "copyperf" };
	int argc = 1;

	while (args[argc - 1] && argc <= MAX_ARGS)
		argv[argc] = (char *)args[argc - 1], argc++;
	return options_parse(argc, argv, o, err, errlen);
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

static void test_defaults_are_the_seeds(void **state)
{
	struct options o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, err, sizeof(err), ((const char *const[]){ NULL })), 0);
	assert_int_equal(o.action, ACTION_RUN);
	assert_null(o.routines);
	assert_int_equal(o.n_sizes, 14);
	assert_int_equal(o.sizes[0], 65536);
	assert_int_equal(o.sizes[13], 8);
	assert_int_equal(o.total, 32u << 20);
	assert_int_equal(o.buffer, 65536);
	assert_int_equal(o.cache, CACHE_FLUSH);
	assert_int_equal(o.align_src, 0);
	assert_int_equal(o.align_dst, 0);
	assert_int_equal(o.repeat, 5);
	assert_int_equal(o.format, FORMAT_TABLE);
	assert_null(o.output);
	assert_int_equal(o.cpu, -1);
	assert_false(o.kernel);
	options_free(&o);
}

static void test_every_option(void **state)
{
	struct options o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, err, sizeof(err),
			       ARGS("-r", "memcpy,bytes", "--sizes", "4K,8-32", "-t", "1M", "-b", "8K",
				    "--cache=hot", "-a", "3:61", "-n", "7", "-f", "json", "-o",
				    "out.json", "--cpu", "1", "--kernel", "-q")),
			 0);
	assert_int_equal(o.n_routines, 2);
	assert_string_equal(o.routines[0], "memcpy");
	assert_string_equal(o.routines[1], "bytes");
	assert_int_equal(o.n_sizes, 4);
	assert_int_equal(o.sizes[0], 4096);
	assert_int_equal(o.sizes[3], 32);
	assert_int_equal(o.total, 1u << 20);
	assert_int_equal(o.buffer, 8192);
	assert_int_equal(o.cache, CACHE_HOT);
	assert_int_equal(o.align_src, 3);
	assert_int_equal(o.align_dst, 61);
	assert_int_equal(o.repeat, 7);
	assert_int_equal(o.format, FORMAT_JSON);
	assert_string_equal(o.output, "out.json");
	assert_int_equal(o.cpu, 1);
	assert_true(o.kernel);
	assert_true(o.quiet);
	options_free(&o);
}

static void test_actions(void **state)
{
	struct options o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, err, sizeof(err), ARGS("--list")), 0);
	assert_int_equal(o.action, ACTION_LIST);
	options_free(&o);
	assert_int_equal(parse(&o, err, sizeof(err), ARGS("-h")), 0);
	assert_int_equal(o.action, ACTION_HELP);
	options_free(&o);
	assert_int_equal(parse(&o, err, sizeof(err), ARGS("--version")), 0);
	assert_int_equal(o.action, ACTION_VERSION);
	options_free(&o);
}

/* Each bad input: the parse fails, and the one-line reason names the option and why. */
static void test_bad_inputs(void **state)
{
	static const struct {
		const char *args[4];
		const char *option, *reason;
	} cases[] = {
		{ { "--frobnicate" }, "--frobnicate", "unknown option" },
		{ { "-x" }, "-x", "unknown option" },
		{ { "--sizes" }, "--sizes", "needs a value" },
		{ { "stray" }, "stray", "unexpected argument" },
		{ { "-s", "0" }, "--sizes", "0 bytes" },
		{ { "-s", "8,0,16" }, "--sizes", "0 bytes" },
		{ { "-s", "12Q" }, "--sizes", "unknown unit" },
		{ { "-s", "8-100" }, "--sizes", "powers of two" },
		{ { "-s", "128K" }, "--sizes", "larger than the buffer" },
		{ { "-b", "4K", "-s", "8K" }, "--sizes", "larger than the buffer" },
		{ { "-t", "0" }, "--total", "greater than 0" },
		{ { "-t", "4K" }, "--total", "smaller than the chunk" },
		{ { "-t", "99999999999999999999" }, "--total", "too large" },
		{ { "-t", "16777216T" }, "--total", "too large" },
		{ { "-t", "2T" }, "--total", "too large" },
		{ { "-b", "0" }, "--buffer", "greater than 0" },
		{ { "-b", "8G" }, "--buffer", "too large" },
		{ { "-c", "lukewarm" }, "--cache", "flush, flush-timed, hot, cold" },
		{ { "-f", "xml" }, "--format", "table, seed, csv, json" },
		{ { "-a", "3" }, "--align", "S:D" },
		{ { "-a", "3:x" }, "--align", "S:D" },
		{ { "-a", "4096:0" }, "--align", "0 to 4095" },
		{ { "-n", "0" }, "--repeat", "out of range" },
		{ { "-n", "five" }, "--repeat", "not a whole number" },
		{ { "--cpu", "-1" }, "--cpu", "out of range" },
		{ { "-r", "memcpy,,bytes" }, "--routines", "empty name" },
		{ { "-o", "" }, "--output", "empty file name" },
		{ { "-dfleet", "-w", "l4" }, "--working-set", "not l1, l2, llc, cold, stream or a size" },
		{ { "-dfleet", "-w", "stream,stream" }, "--working-set", "'stream' is given twice" },
		{ { "-dfleet", "-wstream", "--kernel" }, "--working-set stream", "not with --kernel" },
		{ { "-w", "stream" }, "--working-set", "only with --distribution" },
		{ { "--chain" }, "--chain", "only with --distribution" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct options o;
		char err[256] = "";

		if (parse(&o, err, sizeof(err), cases[i].args) != -1)
			fail_msg("case %zu (%s) was accepted", i, cases[i].args[0]);
		if (!strstr(err, cases[i].option) || !strstr(err, cases[i].reason))
			fail_msg("case %zu: '%s' lacks '%s' or '%s'", i, err, cases[i].option,
				 cases[i].reason);
		assert_null(strchr(err, '\n'));
		options_free(&o);
	}
}

static void test_last_value_wins(void **state)
{
	struct options o;
	char err[256];

	(void)state;
	assert_int_equal(parse(&o, err, sizeof(err), ARGS("-s", "8", "-s", "16,32", "-r", "a", "-r", "b")),
			 0);
	assert_int_equal(o.n_sizes, 2);
	assert_int_equal(o.sizes[0], 16);
	assert_int_equal(o.n_routines, 1);
	assert_string_equal(o.routines[0], "b");
	options_free(&o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_are_the_seeds),
		cmocka_unit_test(test_every_option),
		cmocka_unit_test(test_actions),
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_last_value_wins),
	};

	return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
