/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: a distribution file (-d FILE) read as the command reads
 * it, through distribution_load with the file's name as the -d word.
 */
#include <stdint.h>
#include "input_file.h"
#include "measure/call_mixes/distribution_files.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *words[] = { (char *)input_file(data, size) };
	struct distribution *d;
	size_t n;
	char err[512];

	if (distribution_load(words, 1, &d, &n, err, sizeof(err)) == 0)
		distributions_free(d, n);
	return 0;
}
