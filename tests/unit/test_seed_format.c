/* SPDX-License-Identifier: MIT */
/*
 * The seed format, against the 2008 post's own lines (tests/data/seed_lines.txt:
 * its 28 result lines with the mail's line wrapping undone): the chunk, time and
 * size read from each line must print back as that line, byte for byte.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "report/output.h"

static void test_seed_lines_round_trip(void **state)
{
	FILE *f = fopen("tests/data/seed_lines.txt", "r");
	char line[256], mine[256];
	int checked = 0;

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long chunk;
		double seconds, mb, transfer;

		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "chunk:", 6))
			continue;
		assert_int_equal(sscanf(line,
					"chunk: %llu [B] | transfer: %lf [MB/s] | time: %lf [s] | size: %lf [MB]",
					&chunk, &transfer, &seconds, &mb),
				 4);
		seed_line(mine, sizeof(mine), chunk, seconds, (uint64_t)(mb * BYTES_PER_MB));
		assert_string_equal(mine, line);
		checked++;
	}
	fclose(f);
	assert_int_equal(checked, 28);
}

static void test_seed_units_are_binary_megabytes(void **state)
{
	char mine[256];

	(void)state;
	/* 32 MiB in one second: 32.0 MB/s with 1 MB = 2^20 B (33.6 with 10^6). */
	seed_line(mine, sizeof(mine), 8, 1.0, 32u << 20);
	assert_string_equal(mine,
			    "chunk:      8 [B] | transfer:     32.0 [MB/s] | time: 1.000000 [s] | size:   32.000 [MB]");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_lines_round_trip),
		cmocka_unit_test(test_seed_units_are_binary_megabytes),
	};

	return cmocka_run_group_tests_name("seed format", tests, NULL, NULL);
}
