/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: a results file read as `copyperf plot` reads each of its
 * files (result_set_read, then result_kinds_add), and compared with itself as
 * `copyperf compare A A,A` does, through cmd_compare: the reader, the JSON
 * parser under it, pooling and the statistics on whatever the file holds.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include "builtin.h"
#include "input_file.h"
#include "report/results_file.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* compare prints its tables: away with them, the fuzzer's own report is on stderr. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int null = open("/dev/null", O_WRONLY);

	(void)argc;
	(void)argv;
	if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
		abort();
	close(null);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = input_file(data, size);
	struct result_kinds kinds = { 0 };
	struct result_set set;
	char why[512], pooled[160];
	char *argv[] = { "compare", "--threshold", "5", (char *)path, pooled, NULL };

	/* plot frees a set whether it was read or not, and so must this */
	if (result_set_read(&set, path, why, sizeof(why)) == 0)
		result_kinds_add(&kinds, &set, why, sizeof(why));
	result_set_free(&set);
	snprintf(pooled, sizeof(pooled), "%s,%s", path, path);
	cmd_compare(5, argv);
	fflush(stdout);
	return 0;
}
