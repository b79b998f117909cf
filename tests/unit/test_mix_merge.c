/* SPDX-License-Identifier: MIT */
/*
 * Recordings merged into one mix: each line the union of the recordings'
 * values, each weighted by its file's calls, equal values summed, ascending;
 * a recording of 0 calls adds nothing; a count that is missing, not a whole
 * number or too large for the total, an unreadable file, an unwritable
 * output and no calls at all are refused with the file named.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "measure/call_mixes/mix_merge.h"

static char dir[] = "/tmp/copyperf-merge-XXXXXX";
static char paths[4][64], out[64];

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	for (int i = 0; i < 4; i++)
		snprintf(paths[i], sizeof(paths[i]), "%s/mix.%d.memcpy", dir, i);
	snprintf(out, sizeof(out), "%s/all.memcpy", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (int i = 0; i < 4; i++)
		unlink(paths[i]);
	unlink(out);
	return rmdir(dir);
}

static void put(int i, const char *text)
{
	FILE *f = fopen(paths[i], "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static char *slurp(const char *path)
{
	static char text[512];
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

/* Merges the first n of paths; returns mix_merge's status, the reason in why. */
static int merge(size_t n, unsigned long long *calls, char *why, size_t len)
{
	const char *list[4] = { paths[0], paths[1], paths[2], paths[3] };

	*why = '\0';
	return mix_merge(list, n, out, calls, why, len);
}

static void test_weighted_union(void **state)
{
	unsigned long long calls = 0, one = 0;
	char why[512];

	(void)state;
	put(0, "8:0.5,16:0.5\n0:1,1:0\n1:0.5,8:0.5\n# calls 100\n");
	put(1, "# a comment first\n16:0.25,32:0.75\n0:0.5,1:0.5\n8:1\n# calls 300\n");
	put(2, "# calls 0\n"); /* a process that made no such call: not read further */
	if (merge(3, &calls, why, sizeof(why)))
		fail_msg("%s", why);
	assert_int_equal(calls, 400);
	assert_string_equal(slurp(out), "8:0.125,16:0.3125,32:0.5625\n"
					"0:0.625,1:0.375\n"
					"1:0.125,8:0.875\n"
					"# calls 400\n");
	assert_int_equal(mix_calls(out, &one), 0);
	assert_int_equal(one, 400);
	/* one recording alone comes back as it was */
	if (merge(1, &calls, why, sizeof(why)))
		fail_msg("%s", why);
	assert_string_equal(slurp(out), "8:0.5,16:0.5\n0:1,1:0\n1:0.5,8:0.5\n# calls 100\n");
}

static void refused(const char *text, const char *reason)
{
	unsigned long long calls = 7;
	char why[512];

	put(0, "8:1\n0:1\n8:1\n# calls 10\n");
	put(1, text);
	assert_int_equal(merge(2, &calls, why, sizeof(why)), -1);
	if (!strstr(why, reason))
		fail_msg("'%s' lacks '%s'", why, reason);
	assert_null(strchr(why, '\n'));
	assert_int_equal(calls, 0);
}

static void test_refused(void **state)
{
	unsigned long long calls;
	char why[512], name[128];

	(void)state;
	snprintf(name, sizeof(name), "%s: no \"# calls N\" line", paths[1]);
	refused("8:1\n0:1\n8:1\n", name);
	refused("8:1\n0:1\n8:1\n# calls -1\n", name);
	refused("8:1\n0:1\n8:1\n# calls 12x\n", name);
	refused("8:1\n0:1\n8:1\n# calls 99999999999999999999\n", name);
	snprintf(name, sizeof(name), "%s: more calls in all than a count holds", paths[1]);
	refused("8:1\n0:1\n8:1\n# calls 18446744073709551615\n", name);
	refused("8:1\n0:1\n# calls 5\n", paths[1]); /* two lines: not a mix */
	unlink(paths[1]); /* and a recording that is not there */
	{
		const char *list[2] = { paths[0], paths[1] };

		assert_int_equal(mix_merge(list, 2, out, &calls, why, sizeof(why)), -1);
		assert_non_null(strstr(why, paths[1]));
	}
	/* no recording at all, or only empty ones */
	assert_int_equal(merge(0, &calls, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no calls in the 0 recordings"));
	put(2, "# calls 0\n");
	{
		const char *list[1] = { paths[2] };

		assert_int_equal(mix_merge(list, 1, out, &calls, why, sizeof(why)), -1);
		assert_non_null(strstr(why, "no calls in the 1 recording"));
	}
	/* an output that cannot be written */
	{
		const char *list[1] = { paths[0] };
		char nowhere[128];

		snprintf(nowhere, sizeof(nowhere), "%s/no/such/dir", dir);
		assert_int_equal(mix_merge(list, 1, nowhere, &calls, why, sizeof(why)), -1);
		assert_non_null(strstr(why, "no/such/dir: cannot be written"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_weighted_union),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests_name("mix merge", tests, setup, teardown);
}
