/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: the command line.  The input is argv after the command's
 * name, its words separated by NUL bytes; options_parse checks them as
 * `copyperf` does (options, size lists, working sets, their consistency).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "options.h"

#define MAX_WORDS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *argv[MAX_WORDS + 2] = { "copyperf" };
	int argc = 1;
	struct options o;
	char err[512];

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	for (size_t at = 0; at <= size && argc <= MAX_WORDS; at += strlen(text + at) + 1)
		argv[argc++] = text + at;
	argv[argc] = NULL;
	options_parse(argc, argv, &o, err, sizeof(err));
	options_free(&o);
	free(text);
	return 0;
}
