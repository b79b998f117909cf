/* SPDX-License-Identifier: MIT */
/*
 * Replayed call mixes (--distribution) in every output format: each point
 * named by its distribution and working set, its time per call, the seed in
 * every format; and a chunk sweep's JSON config naming no distribution.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "assert_near.h"
#include "report/json_read.h"
#include "report/output.h"
#include "render_report.h"
#include "replay_fixture.h"

static char *distributions[] = { "memcpy_fleet", "my,mix" };
static char *working_sets[] = { "l1", "stream" };
static const uint64_t bytes[] = { 32768, 1 << 20 };

/*
 * A replay of two points: one measured and tested, one streamed, chained
 * and FAILED; cycles counted when asked. (A run chains and tests all its
 * points or none; each point says so for itself.)
 */
static void replay(struct replay_fixture *x, int with_counters)
{
	replay_fixture(x, 2, distributions, working_sets, bytes);
	x->p[1].layout = CALLS_STREAM;
	x->p[1].chained = true;
	x->p[0].tested = true;
	replay_fail(x, 1, "call 7 (64 B) copied wrongly at byte 3");
	if (with_counters) {
		/* 45000 cycles a measurement: 45 a call, 0.3 a byte */
		x->p[0].counters.measurements = 3;
		x->p[0].counters.present = 1u << COUNTER_CYCLES;
		x->p[0].counters.count[COUNTER_CYCLES] = 3 * 45000;
	}
}

static struct json *parse(const char *text)
{
	char why[200];
	struct json *doc = json_parse(text, strlen(text), why, sizeof(why));

	if (!doc)
		fail_msg("the JSON output does not parse: %s", why);
	return doc;
}

static double member(const struct json *obj, const char *key)
{
	const struct json *v = json_get_type(obj, key, JSON_NUMBER);

	if (!v)
		fail_msg("no number \"%s\"", key);
	return v->number;
}

static void assert_triple(const struct json *result, const char *key, double median, double min,
			  double max)
{
	const struct json *t = json_get_type(result, key, JSON_OBJECT);

	if (!t)
		fail_msg("no \"%s\" object", key);
	assert_near(member(t, "median"), median, median * 1e-8);
	assert_near(member(t, "min"), min, min * 1e-8);
	assert_near(member(t, "max"), max, max * 1e-8);
}

static void assert_words(const struct json *config, const char *key, const char *const *words,
			 size_t n)
{
	const struct json *a = json_get_type(config, key, JSON_ARRAY);

	if (!a)
		fail_msg("no \"%s\" array", key);
	assert_int_equal(a->n, n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(a->items[i].string, words[i]);
}

static void test_json(void **state)
{
	struct replay_fixture x;
	char *text;
	struct json *doc;
	const struct json *config, *results, *ok, *failed, *seed;

	(void)state;
	replay(&x, 0);
	text = render_report(output_json, &x.r);
	doc = parse(text);
	config = json_get_type(doc, "config", JSON_OBJECT);
	seed = json_get_type(config, "seed", JSON_NUMBER);
	assert_non_null(seed);
	assert_true(seed->is_whole && seed->whole == REPLAY_SEED);
	assert_words(config, "distributions", (const char *const *)distributions, 2);
	assert_words(config, "working_sets", (const char *const *)working_sets, 2);
	results = json_get_type(doc, "results", JSON_ARRAY);
	assert_non_null(results);
	assert_int_equal(results->n, 2);

	ok = &results->items[0];
	assert_string_equal(json_get_type(ok, "routine", JSON_STRING)->string, "memcpy");
	assert_string_equal(json_get_type(ok, "space", JSON_STRING)->string, "user");
	assert_string_equal(json_get_type(ok, "distribution", JSON_STRING)->string, "memcpy_fleet");
	assert_string_equal(json_get_type(ok, "working_set_name", JSON_STRING)->string, "l1");
	assert_near(member(ok, "working_set"), 32768, 0);
	assert_string_equal(json_get_type(ok, "layout", JSON_STRING)->string, "spread");
	assert_int_equal(json_get(ok, "chained")->type, JSON_FALSE);
	assert_int_equal(json_get(ok, "tested")->type, JSON_TRUE);
	assert_near(member(ok, "calls"), 1000, 0);
	assert_near(member(ok, "mean_size"), 150, 0);
	assert_near(member(ok, "total"), 150000, 0);
	assert_near(member(ok, "repeats"), 3, 0);
	assert_null(json_get(ok, "chunk")); /* a replay point has no chunk */
	assert_triple(ok, "seconds", 15e-6, 10e-6, 20e-6);
	assert_triple(ok, "ns_per_call", 15, 10, 20);
	/* the fastest measurement gives the highest speed */
	assert_triple(ok, "bytes_per_s", 1e10, 7.5e9, 1.5e10);
	assert_int_equal(json_get_type(ok, "samples", JSON_ARRAY)->n, 3);
	assert_int_equal(json_get(ok, "verified")->type, JSON_TRUE);
	assert_null(json_get(ok, "error"));
	assert_null(json_get(ok, "counters"));

	failed = &results->items[1];
	assert_string_equal(json_get_type(failed, "distribution", JSON_STRING)->string, "my,mix");
	assert_string_equal(json_get_type(failed, "working_set_name", JSON_STRING)->string, "stream");
	assert_near(member(failed, "working_set"), 1 << 20, 0);
	assert_string_equal(json_get_type(failed, "layout", JSON_STRING)->string, "stream");
	assert_int_equal(json_get(failed, "chained")->type, JSON_TRUE);
	assert_int_equal(json_get(failed, "tested")->type, JSON_FALSE);
	assert_int_equal(json_get(failed, "verified")->type, JSON_FALSE);
	assert_string_equal(json_get_type(failed, "error", JSON_STRING)->string,
			    "call 7 (64 B) copied wrongly at byte 3");
	assert_null(json_get(failed, "ns_per_call"));
	assert_null(json_get(failed, "samples"));
	json_free(doc);
	free(text);
}

static void test_json_counters(void **state)
{
	struct replay_fixture x;
	char *text;
	struct json *doc;
	const struct json *c;

	(void)state;
	replay(&x, 1);
	text = render_report(output_json, &x.r);
	doc = parse(text);
	c = json_get_type(&json_get_type(doc, "results", JSON_ARRAY)->items[0], "counters",
			  JSON_OBJECT);
	assert_non_null(c);
	assert_near(member(c, "cycles"), 45000, 0);
	assert_near(member(c, "cycles_per_byte"), 0.3, 1e-12);
	assert_near(member(c, "bytes_per_cycle"), 1 / 0.3, 1e-8); /* 9 digits written */
	assert_near(member(c, "cycles_per_call"), 45, 1e-12);
	json_free(doc);
	free(text);
}

/* A chunk sweep's config names no distribution and no working set, even with -w's default words. */
static void test_json_chunk_config(void **state)
{
	struct replay_fixture x;
	char *text;
	struct json *doc;
	const struct json *config;

	(void)state;
	replay(&x, 0);
	x.o.distributions = NULL;
	x.o.n_distributions = 0;
	x.o.seed = 7;
	x.r.n = 0;
	text = render_report(output_json, &x.r);
	doc = parse(text);
	config = json_get_type(doc, "config", JSON_OBJECT);
	assert_near(member(config, "seed"), 7, 0);
	assert_words(config, "distributions", NULL, 0);
	assert_words(config, "working_sets", NULL, 0);
	json_free(doc);
	free(text);
}

static void test_csv(void **state)
{
	struct replay_fixture x;
	char *text;

	(void)state;
	replay(&x, 0);
	text = render_report(output_csv, &x.r);
	assert_string_equal(
		text,
		"routine,space,distribution,working_set,working_set_name,calls,mean_size,total,"
		"repeats,seconds_median,seconds_min,seconds_max,ns_per_call_median,ns_per_call_min,"
		"ns_per_call_max,bytes_per_s_median,bytes_per_s_min,bytes_per_s_max,verified,"
		"samples,error,seed,chained,tested\n"
		"memcpy,user,memcpy_fleet,32768,l1,1000,150,150000,3,1.5e-05,1e-05,2e-05,15,10,20,"
		"1e+10,7.5e+09,1.5e+10,true,1e-05;2e-05;1.5e-05,,9223372036854775813,false,true\n"
		"memcpy,user,\"my,mix\",1048576,stream,1000,150,150000,3,,,,,,,,,,false,,"
		"call 7 (64 B) copied wrongly at byte 3,9223372036854775813,true,false\n");
	free(text);
}

static void test_csv_counters(void **state)
{
	struct replay_fixture x;
	char *text;

	(void)state;
	replay(&x, 1);
	text = render_report(output_csv, &x.r);
	assert_non_null(strstr(text, ",error,seed,chained,tested,cycles,instructions,l1d_read_misses,"
				     "llc_misses,cycles_per_byte,bytes_per_cycle,cycles_per_call\n"));
	assert_non_null(strstr(text, ",9223372036854775813,false,true,45000,,,,0.3,3.33333,45\n"));
	/* the FAILED point was not counted: every counter field is there, empty */
	assert_non_null(strstr(text, "byte 3,9223372036854775813,true,false,,,,,,,\n"));
	free(text);
}

/* The table's lines that must be there, in full. */
static void assert_lines(const char *text, const char *const *lines, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strstr(text, lines[i]))
			fail_msg("the table lacks the line '%s'; it is:\n%s", lines[i], text);
}

static void test_table(void **state)
{
	static const char *const lines[] = {
		"user space, recorded call mixes replayed, seed 9223372036854775813\n",
		"ns/call: a measurement's time over its calls; median [min, max] of 3 "
		"measurements;\n",
		"routine            distribution     working set        [B]    calls mean size [B] "
		"ns/call median       min       max  MB/s median  verified\n",
		"memcpy             memcpy_fleet     l1               32768     1000         150.0 "
		"         15.00     10.00     20.00       9536.7  yes\n",
		"memcpy             my,mix           stream         1048576  "
		"FAILED: call 7 (64 B) copied wrongly at byte 3\n",
	};
	static const char *const counted[] = { "verified   cyc/call\n",
					       "9536.7  yes       45.0\n" };
	struct replay_fixture x;
	char *text;

	(void)state;
	replay(&x, 0);
	text = render_report(output_table, &x.r);
	assert_lines(text, lines, sizeof(lines) / sizeof(lines[0]));
	assert_null(strstr(text, "cyc/call"));
	free(text);
	replay(&x, 1);
	text = render_report(output_table, &x.r);
	assert_lines(text, counted, sizeof(counted) / sizeof(counted[0]));
	assert_null(strstr(text, "--chain"));
	assert_null(strstr(text, "--tested"));
	free(text);
	/* a run with --chain or --tested says so where it says what was replayed */
	x.o.chained = true;
	text = render_report(output_table, &x.r);
	assert_non_null(strstr(text, "recorded call mixes replayed, seed 9223372036854775813, each "
				     "call waiting for the one before (--chain)\n"));
	free(text);
	x.o.tested = true;
	text = render_report(output_table, &x.r);
	assert_non_null(strstr(text, "recorded call mixes replayed, seed 9223372036854775813, each "
				     "call waiting for the one before (--chain), each after the "
				     "caller's tests of its size (--tested)\n"));
	x.o.chained = false;
	free(text);
	text = render_report(output_table, &x.r);
	assert_non_null(strstr(text, "recorded call mixes replayed, seed 9223372036854775813, each "
				     "after the caller's tests of its size (--tested)\n"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_json_counters),
		cmocka_unit_test(test_json_chunk_config),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_csv_counters),
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests_name("replay output", tests, NULL, NULL);
}
