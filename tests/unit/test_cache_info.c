/* SPDX-License-Identifier: MIT */
/* The library's sysfs cache reader, which both the thresholds and the command's report use. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "../lib/cache_info.h"

static size_t parsed(const char *s, const char *rest)
{
	size_t v = 0;
	const char *end = NULL;

	assert_true(copyperf_parse_size(s, &v, &end));
	assert_string_equal(end, rest);
	return v;
}

static void rejected(const char *s)
{
	size_t v = 7;
	const char *end;

	assert_false(copyperf_parse_size(s, &v, &end));
}

static void test_sizes(void **state)
{
	(void)state;
	assert_int_equal(parsed("0", ""), 0);
	assert_int_equal(parsed("48K", ""), 48 << 10);
	assert_int_equal(parsed("48k", ""), 48 << 10);
	assert_int_equal(parsed("1M\n", "\n"), 1 << 20);
	assert_int_equal(parsed("32m", ""), 32u << 20);
	assert_int_equal(parsed("2G", ""), (size_t)2 << 30);
	assert_int_equal(parsed("12X", "X"), 12); /* the caller decides what may follow */
	rejected("");
	rejected("K");
	rejected("-1");
	rejected(" 1");
	rejected("17179869184G");          /* 2^64 */
	rejected("18446744073709551615K"); /* shifts out */
	rejected("18446744073709551616");  /* 2^64: past strtoull */
	assert_true(parsed("18446744073709551615", "") == SIZE_MAX);
}

static void test_this_machine(void **state)
{
	struct cp_cache c[16];
	size_t n = copyperf_cache_read(0, c, 16);

	(void)state;
	if (access("/sys/devices/system/cpu/cpu0/cache/index0/level", R_OK) != 0) {
		print_message("no sysfs cache description here: the reader must find none\n");
		assert_int_equal(n, 0);
		return;
	}
	assert_true(n >= 1);
	for (size_t i = 0; i < n; i++) {
		assert_true(c[i].level >= 1 && c[i].level <= 4);
		assert_true(!strcmp(c[i].type, "Data") || !strcmp(c[i].type, "Instruction") ||
			    !strcmp(c[i].type, "Unified"));
		assert_true(c[i].size >= 1024);
		assert_true(c[i].shared_cpus >= 1);
	}
	assert_int_equal(copyperf_cache_read(0, c, 1), 1); /* max is respected */
	assert_int_equal(copyperf_cache_read(0, c, 0), 0);
	assert_int_equal(copyperf_cache_read(1u << 30, c, 16), 0); /* no such CPU */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_this_machine),
	};

	return cmocka_run_group_tests_name("cache_info", tests, NULL, NULL);
}
