/* SPDX-License-Identifier: MIT */
/* Sizes as people write them, and the lists and ranges --sizes takes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "sizes.h"

static uint64_t size_of(const char *text)
{
	char err[160];
	uint64_t v = 0;

	assert_int_equal(parse_size(text, &v, err, sizeof(err)), 0);
	return v;
}

static void rejects(const char *text, const char *reason)
{
	char err[160] = "";
	uint64_t v;

	assert_int_equal(parse_size(text, &v, err, sizeof(err)), -1);
	assert_non_null(strstr(err, reason));
}

static void test_suffixes(void **state)
{
	(void)state;
	assert_int_equal(size_of("0"), 0);
	assert_int_equal(size_of("4096"), 4096);
	assert_int_equal(size_of("64K"), 65536);
	assert_int_equal(size_of("64k"), 65536);
	assert_int_equal(size_of("64KiB"), 65536);
	assert_int_equal(size_of("8B"), 8);
	assert_int_equal(size_of("32M"), 32u << 20);
	assert_int_equal(size_of("1G"), 1u << 30);
	assert_true(size_of("3T") == 3ull << 40);
}

static void test_bad_sizes(void **state)
{
	(void)state;
	rejects("", "not a size");
	rejects("-1", "not a size");
	rejects("K", "not a size");
	rejects("12Q", "unknown unit");
	rejects("12KX", "unknown unit");
	rejects("1.5M", "unknown unit");
	rejects("99999999999999999999", "too large");
	rejects("16777216T", "too large"); /* 2^24 * 2^40 = 2^64 */
}

static long list_of(const char *text, uint64_t **out)
{
	char err[160];
	long n = parse_size_list(text, out, err, sizeof(err));

	assert_true(n > 0);
	return n;
}

static void test_default_range_is_the_seeds(void **state)
{
	uint64_t *s;
	long n = list_of("64K-8", &s);

	(void)state;
	assert_int_equal(n, 14);
	for (long i = 0; i < n; i++)
		assert_int_equal(s[i], 65536u >> i);
	free(s);
}

static void test_ascending_range_and_mixed_list(void **state)
{
	uint64_t *s;
	long n = list_of("8-64,100,1K", &s);
	const uint64_t want[] = { 8, 16, 32, 64, 100, 1024 };

	(void)state;
	assert_int_equal(n, 6);
	assert_memory_equal(s, want, sizeof(want));
	free(s);
	n = list_of("4K-4K", &s);
	assert_int_equal(n, 1);
	assert_int_equal(s[0], 4096);
	free(s);
}

static void test_bad_lists(void **state)
{
	static const struct {
		const char *text, *reason;
	} cases[] = {
		{ "", "empty list" },
		{ "8,,16", "empty item" },
		{ "8,", "empty item" },
		{ "8-100", "powers of two" },
		{ "7-64", "powers of two" },
		{ "8-x", "not a size" },
		{ "64,abc", "not a size" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char err[160] = "";
		uint64_t *s = NULL;

		assert_int_equal(parse_size_list(cases[i].text, &s, err, sizeof(err)), -1);
		assert_non_null(strstr(err, cases[i].reason));
		assert_null(s);
	}
}

static void test_format_size(void **state)
{
	char buf[32];

	(void)state;
	format_size(8, buf, sizeof(buf));
	assert_string_equal(buf, "8 B");
	format_size(65536, buf, sizeof(buf));
	assert_string_equal(buf, "64 KiB");
	format_size(32u << 20, buf, sizeof(buf));
	assert_string_equal(buf, "32 MiB");
	format_size(1536, buf, sizeof(buf));
	assert_string_equal(buf, "1.5 KiB");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_suffixes),
		cmocka_unit_test(test_bad_sizes),
		cmocka_unit_test(test_default_range_is_the_seeds),
		cmocka_unit_test(test_ascending_range_and_mixed_list),
		cmocka_unit_test(test_bad_lists),
		cmocka_unit_test(test_format_size),
	};

	return cmocka_run_group_tests_name("sizes", tests, NULL, NULL);
}
