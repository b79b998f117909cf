/* SPDX-License-Identifier: MIT */
/*
 * Replay results as `plot` and `compare` see them: written by -f json and read
 * back, taken from the run just made, found and pooled by (routine, space,
 * chunk, distribution, working set and its layout), and never mixed with
 * chunk results.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "assert_near.h"
#include "report/output.h"
#include "report/results_file.h"
#include "replay_fixture.h"

static char *distributions[] = { "memcpy_fleet", "memcpy_fleet", "memcpy_fleet" };
static char *working_sets[] = { "l1", "48K", "l2" };
static const uint64_t bytes[] = { 32768, 49152, 1 << 20 };

/* memcpy_fleet at l1 (32 KiB), at 48K, and at l2, FAILED. */
static void replay(struct replay_fixture *x)
{
	replay_fixture(x, 3, distributions, working_sets, bytes);
	replay_fail(x, 2, "wrong");
}

/* The report x as a JSON results file, read back into s; returns result_set_read's status. */
static int write_and_read(struct replay_fixture *x, struct result_set *s, char *why, size_t len)
{
	char path[] = "/tmp/copyperf-replay-XXXXXX";
	int fd = mkstemp(path), status;
	FILE *f;

	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	assert_int_equal(output_write(f, &x->r), 0);
	fclose(f);
	status = result_set_read(s, path, why, len);
	unlink(path);
	return status;
}

/* A chunk row and a replay row of the same routine. */
static struct result_row chunk_row = { .routine = "memcpy", .space = "user", .chunk = 4096,
				       .total = 1 };
static struct result_row replay_row = { .routine = "memcpy", .space = "user", .distribution = "d",
					.working_set_name = "l1", .working_set = 4096, .calls = 1,
					.total = 1 };

static void test_round_trip(void **state)
{
	struct replay_fixture x;
	char why[512];
	struct result_set s;

	(void)state;
	replay(&x);
	if (write_and_read(&x, &s, why, sizeof(why)))
		fail_msg("%s", why);
	assert_true(s.seed == REPLAY_SEED);
	assert_int_equal(s.n, 3);
	assert_true(row_is_replay(&s.rows[0]));
	assert_string_equal(s.rows[0].distribution, "memcpy_fleet");
	assert_string_equal(s.rows[1].working_set_name, "48K");
	assert_true(s.rows[2].working_set == 1 << 20);
	assert_true(s.rows[0].calls == 1000 && s.rows[0].total == 150000);
	assert_true(s.rows[0].chunk == 0);
	assert_int_equal(s.rows[0].n_samples, 3);
	assert_false(s.rows[2].verified);
	result_set_free(&s);
}

static void test_from_report(void **state)
{
	struct replay_fixture x;
	struct result_set s;
	char where[64];
	double speeds[3];

	(void)state;
	replay(&x);
	assert_int_equal(result_set_from_report(&s, &x.r), 0);
	assert_true(s.seed == REPLAY_SEED);
	assert_string_equal(s.rows[0].distribution, "memcpy_fleet");
	assert_string_equal(s.rows[0].working_set_name, "l1");
	assert_true(s.rows[0].working_set == 32768 && s.rows[0].calls == 1000);
	row_where(&s.rows[0], where, sizeof(where));
	assert_string_equal(where, "memcpy_fleet l1");
	/* a replay row's speed is calls per second: 1000 calls in 10 us */
	row_speeds(&s.rows[0], speeds);
	assert_near(speeds[0], 1e8, 1e-3);
	for (size_t i = 0; i < 3; i++)
		assert_ptr_equal(result_set_find(&s, &s.rows[i]), &s.rows[i]);
	result_set_free(&s);
}

/*
 * The key is the working set's bytes: l1 and 32K of 32 KiB are one point, and
 * a file that holds a point twice is refused, naming both.
 */
static void test_point_twice(void **state)
{
	static char *names[] = { "l1", "32K" };
	static const uint64_t same[] = { 32768, 32768 };
	struct replay_fixture x;
	struct result_set s;
	char why[512];

	(void)state;
	replay_fixture(&x, 2, distributions, names, same);
	assert_int_equal(write_and_read(&x, &s, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "result 2 repeats result 1 (memcpy, memcpy_fleet 32K)"));
	result_set_free(&s);
}

/*
 * x's two points, of the same bytes but told apart (a stream and a spread
 * list, chained calls and independent ones), written and read back into s:
 * two points, each found as itself, point `labelled` named label; and the
 * run just made (from_run) keeps them apart too, each found in the file read.
 */
static void read_two_apart(struct replay_fixture *x, struct result_set *s,
			   struct result_set *from_run, size_t labelled, const char *label)
{
	char why[512], where[64];

	if (write_and_read(x, s, why, sizeof(why)))
		fail_msg("%s", why);
	assert_int_equal(s->n, 2);
	assert_false(row_same_place(&s->rows[0], &s->rows[1]));
	row_where(&s->rows[labelled], where, sizeof(where));
	assert_string_equal(where, label);
	assert_int_equal(result_set_from_report(from_run, &x->r), 0);
	for (size_t i = 0; i < 2; i++) {
		assert_ptr_equal(result_set_find(s, &s->rows[i]), &s->rows[i]);
		assert_ptr_equal(result_set_find(from_run, &from_run->rows[i]), &from_run->rows[i]);
		assert_ptr_equal(result_set_find(s, &from_run->rows[i]), &s->rows[i]);
	}
}

/* A stream and a spread working set of the same bytes are two points, with their own labels. */
static void test_stream_and_spread_of_equal_bytes(void **state)
{
	static char *names[] = { "stream", "4M" };
	static const uint64_t same[] = { 4 << 20, 4 << 20 };
	struct replay_fixture x;
	struct result_set s, from_run;

	(void)state;
	replay_fixture(&x, 2, distributions, names, same);
	x.p[0].layout = CALLS_STREAM;
	read_two_apart(&x, &s, &from_run, 0, "memcpy_fleet stream");
	assert_int_equal(s.rows[0].layout, CALLS_STREAM);
	assert_int_equal(s.rows[1].layout, CALLS_SPREAD);
	assert_int_equal(from_run.rows[0].layout, CALLS_STREAM);
	result_set_free(&from_run);
	result_set_free(&s);
}

/* The JSON text as a results file, read back into s; returns result_set_read's status. */
static int read_text(const char *text, struct result_set *s, char *why, size_t len)
{
	char path[] = "/tmp/copyperf-replay-XXXXXX";
	int fd = mkstemp(path), status;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	status = result_set_read(s, path, why, len);
	unlink(path);
	return status;
}

#define LAYOUT_FILE(first, second)                                                          \
	"{\"tool\":\"copyperf\",\"results\":["                                               \
	"{\"routine\":\"memcpy\",\"distribution\":\"d\",\"working_set\":4096,"                \
	"\"working_set_name\":\"4K\",\"calls\":1,\"total\":1,\"verified\":false" first "},"  \
	"{\"routine\":\"memcpy\",\"distribution\":\"d\",\"working_set\":4096,"                \
	"\"working_set_name\":\"4K\",\"calls\":1,\"total\":1,\"verified\":false" second "}]}"

/*
 * A file from before streams has no "layout": its points are spread, and one
 * given twice is still refused; one marked stream beside it is another point,
 * and a layout this reader does not know is refused, named.
 */
static void test_layout_read(void **state)
{
	struct result_set s;
	char why[512];

	(void)state;
	assert_int_equal(read_text(LAYOUT_FILE("", ""), &s, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "result 2 repeats result 1 (memcpy, d 4K)"));
	result_set_free(&s);
	if (read_text(LAYOUT_FILE("", ",\"layout\":\"stream\""), &s, why, sizeof(why)))
		fail_msg("%s", why);
	assert_int_equal(s.rows[0].layout, CALLS_SPREAD);
	assert_int_equal(s.rows[1].layout, CALLS_STREAM);
	result_set_free(&s);
	if (read_text(LAYOUT_FILE(",\"layout\":\"spread\"", ",\"layout\":\"stream\""), &s, why,
		      sizeof(why)))
		fail_msg("%s", why);
	assert_int_equal(s.rows[0].layout, CALLS_SPREAD);
	result_set_free(&s);
	assert_int_equal(read_text(LAYOUT_FILE("", ",\"layout\":\"zigzag\""), &s, why, sizeof(why)),
			 -1);
	assert_non_null(strstr(why, "result 2 has \"layout\" 'zigzag', not \"spread\" or \"stream\""));
	result_set_free(&s);
}

/* Two points at the same working set, l1. */
static char *at_l1[] = { "l1", "l1" };
static const uint64_t l1_bytes[] = { 32768, 32768 };

/*
 * A replay row's flag in files (key: "chained", "tested"; offset: its bool in
 * struct result_row): absent in a file from before it, false; beside the same
 * point with it true, another point; false beside it absent, the same point,
 * given twice and refused; neither true nor false, refused, named.
 */
static void flag_in_files(const char *key, size_t offset)
{
	char text[1024], with[64], why[512];
	struct result_set s;
	const struct result_row *r;

	snprintf(with, sizeof(with), ",\"%s\":true", key);
	snprintf(text, sizeof(text), LAYOUT_FILE("%s", "%s"), "", with);
	if (read_text(text, &s, why, sizeof(why)))
		fail_msg("%s", why);
	r = s.rows;
	assert_false(*(const bool *)((const char *)&r[0] + offset));
	assert_true(*(const bool *)((const char *)&r[1] + offset));
	assert_false(row_same_place(&r[0], &r[1]));
	result_set_free(&s);
	snprintf(with, sizeof(with), ",\"%s\":false", key);
	snprintf(text, sizeof(text), LAYOUT_FILE("%s", "%s"), with, "");
	if (read_text(text, &s, why, sizeof(why)) == 0)
		fail_msg("a point given twice, %s false and absent, was read", key);
	result_set_free(&s);
	snprintf(with, sizeof(with), ",\"%s\":1", key);
	snprintf(text, sizeof(text), LAYOUT_FILE("%s", "%s"), "", with);
	assert_int_equal(read_text(text, &s, why, sizeof(why)), -1);
	snprintf(text, sizeof(text), "result 2 has a \"%s\" that is not true or false", key);
	assert_non_null(strstr(why, text));
	result_set_free(&s);
}

/*
 * Chained calls (--chain) and independent ones at the same working set are
 * two points: written, read back and found apart, the chained one labelled
 * so; a file from before --chain has none chained, and a "chained" that is
 * not true or false is refused, named.
 */
static void test_chained_read(void **state)
{
	struct replay_fixture x;
	struct result_set s, from_run;

	(void)state;
	replay_fixture(&x, 2, distributions, at_l1, l1_bytes);
	x.p[1].chained = true;
	read_two_apart(&x, &s, &from_run, 1, "memcpy_fleet l1 chained");
	assert_false(s.rows[0].chained);
	assert_true(s.rows[1].chained);
	assert_string_equal(result_set_calling(&s), "some calls chained");
	assert_true(from_run.rows[1].chained);
	result_set_free(&from_run);
	result_set_free(&s);
	flag_in_files("chained", offsetof(struct result_row, chained));
}

/*
 * Calls after the caller's tests of their sizes (--tested) are another point
 * again, whether chained or not: written, read back and found apart, labelled
 * so, the set described by both ways; a file from before --tested has none
 * tested, and a "tested" that is not true or false is refused, named.
 */
static void test_tested_read(void **state)
{
	struct replay_fixture x;
	struct result_set s, from_run;

	(void)state;
	replay_fixture(&x, 2, distributions, at_l1, l1_bytes);
	x.p[0].chained = x.p[1].chained = true;
	x.p[1].tested = true;
	read_two_apart(&x, &s, &from_run, 1, "memcpy_fleet l1 chained tested");
	assert_false(s.rows[0].tested);
	assert_true(s.rows[1].tested);
	assert_string_equal(result_set_calling(&s), "calls chained, some tested");
	assert_true(from_run.rows[1].tested);
	result_set_free(&from_run);
	result_set_free(&s);
	x.p[0].tested = true;
	x.p[0].chained = false;
	read_two_apart(&x, &s, &from_run, 0, "memcpy_fleet l1 tested");
	assert_string_equal(result_set_calling(&s), "some calls chained, calls tested");
	result_set_free(&from_run);
	result_set_free(&s);
	flag_in_files("tested", offsetof(struct result_row, tested));
}

/*
 * What a line that describes a set says of its calls, for every mix of
 * chained and tested rows: none, some or all of each.
 */
static void test_calling_says(void **state)
{
	static const char *const says[3][3] = {
		{ NULL, "some calls tested", "calls tested" },
		{ "some calls chained", "some calls chained, some tested",
		  "some calls chained, calls tested" },
		{ "calls chained", "calls chained, some tested", "calls chained and tested" },
	};
	struct result_row rows[2] = { replay_row, replay_row };
	struct result_set s = { .rows = rows, .n = 2 };

	(void)state;
	for (int chained = 0; chained < 3; chained++)
		for (int tested = 0; tested < 3; tested++) {
			/* none: neither row; some: the second only; all: both */
			rows[0].chained = chained == 2;
			rows[1].chained = chained >= 1;
			rows[0].tested = tested == 2;
			rows[1].tested = tested >= 1;
			if (!says[chained][tested])
				assert_null(result_set_calling(&s));
			else
				assert_string_equal(result_set_calling(&s), says[chained][tested]);
		}
	/* a chunk row beside them is neither, and no replay row is called anyhow */
	rows[0] = chunk_row;
	rows[1].chained = rows[1].tested = false;
	assert_null(result_set_calling(&s));
}

/* A chunk row never matches a replay row, even with its chunk 0. */
static void test_kinds_never_match(void **state)
{
	struct result_row zero = chunk_row;
	char where[64];

	(void)state;
	zero.chunk = 0;
	assert_false(row_same_point(&chunk_row, &replay_row));
	assert_false(row_same_point(&zero, &replay_row));
	assert_false(row_same_point(&replay_row, &zero));
	assert_true(row_same_routine(&chunk_row, &replay_row));
	row_where(&chunk_row, where, sizeof(where));
	assert_string_equal(where, "chunk 4096");
}

/*
 * Two runs of one point drawn with other seeds: 1000 calls copying 150000
 * bytes, then 2000 calls.  The second run's seconds are scaled to 1000 calls
 * when pooled, so that every sample is a time for the same work.
 */
static void test_pool_scales_to_the_calls(void **state)
{
	static double twice[2] = { 40e-6, 60e-6 };
	struct result_row a = replay_row, b;
	struct result_set sets[2] = { { .source = "a", .rows = &a, .n = 1, .runs = 1, .seed = 1 },
				      { .source = "b", .rows = &b, .n = 1, .runs = 1, .seed = 2 } };
	struct result_set pooled;
	double speeds[5];

	(void)state;
	a.calls = 1000;
	a.total = 150000;
	a.n_samples = 3;
	a.samples = replay_samples;
	a.verified = true;
	b = a;
	b.calls = 2000;
	b.total = 310000;
	b.n_samples = 2;
	b.samples = twice;
	assert_int_equal(result_set_pool(&pooled, sets, 2, "a,b"), 0);
	assert_int_equal(pooled.n, 1);
	assert_true(pooled.seeds_vary);
	assert_true(pooled.seed == 1);
	assert_int_equal(pooled.rows[0].n_samples, 5);
	assert_near(pooled.rows[0].samples[3], 20e-6, 1e-18);
	assert_near(pooled.rows[0].samples[4], 30e-6, 1e-18);
	row_speeds(&pooled.rows[0], speeds);
	assert_near(speeds[3], 5e7, 1e-6);
	/* each run's median speed, in calls per second */
	assert_int_equal(pooled.rows[0].n_runs, 2);
	assert_near(pooled.rows[0].run_speeds[0], 1000 / 15e-6, 1e-3);
	assert_near(pooled.rows[0].run_speeds[1], 2000 / 50e-6, 1e-3);
	result_set_free(&pooled);
}

static void test_kinds_do_not_mix(void **state)
{
	struct result_row both[2] = { chunk_row, replay_row };
	struct result_set c = { .source = "c.json", .rows = &chunk_row, .n = 1 };
	struct result_set r = { .source = "r.json", .rows = &replay_row, .n = 1 };
	struct result_set m = { .source = "m.json", .rows = both, .n = 2 };
	struct result_set none = { .source = "empty.json" };
	struct result_kinds k;
	char why[200];

	(void)state;
	memset(&k, 0, sizeof(k));
	assert_int_equal(result_kinds_add(&k, &none, why, sizeof(why)), 0);
	assert_int_equal(result_kinds_add(&k, &c, why, sizeof(why)), 0);
	assert_int_equal(result_kinds_add(&k, &c, why, sizeof(why)), 0);
	assert_int_equal(result_kinds_add(&k, &r, why, sizeof(why)), -1);
	assert_string_equal(why, "'c.json' holds chunk results and 'r.json' replayed call mixes");
	memset(&k, 0, sizeof(k));
	assert_int_equal(result_kinds_add(&k, &r, why, sizeof(why)), 0);
	assert_int_equal(result_kinds_add(&k, &c, why, sizeof(why)), -1);
	assert_string_equal(why, "'c.json' holds chunk results and 'r.json' replayed call mixes");
	memset(&k, 0, sizeof(k));
	assert_int_equal(result_kinds_add(&k, &m, why, sizeof(why)), -1);
	assert_string_equal(why, "'m.json' holds both chunk results and replayed call mixes");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_point_twice),
		cmocka_unit_test(test_stream_and_spread_of_equal_bytes),
		cmocka_unit_test(test_layout_read),
		cmocka_unit_test(test_chained_read),
		cmocka_unit_test(test_tested_read),
		cmocka_unit_test(test_calling_says),
		cmocka_unit_test(test_from_report),
		cmocka_unit_test(test_kinds_never_match),
		cmocka_unit_test(test_pool_scales_to_the_calls),
		cmocka_unit_test(test_kinds_do_not_mix),
	};

	return cmocka_run_group_tests_name("replay results", tests, NULL, NULL);
}
