/* SPDX-License-Identifier: MIT */
/*
 * Stands in for `copyperf -d` in the install test until the command has that option: built
 * from the command's own distribution.o (the same compiled-in DATADIR) and copied beside an
 * installed copyperf, it finds the shipped distributions as that copyperf does.
 * usage: find_distributions WORD...
 * Prints "dir DIRECTORY" (or "dir none"), then "NAME KIND SIZES MAX_SIZE PATH" per file; a
 * word or a file that fails is one line on standard error and exit 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include "measure/distribution.h"

int main(int argc, char **argv)
{
	char **names = NULL, **paths = NULL, err[1024];
	const char *dir = distribution_dir();
	size_t n = 0;
	int status = 0;

	printf("dir %s\n", dir ? dir : "none");
	for (int i = 1; i < argc && !status; i++)
		if (distribution_expand(argv[i], &names, &paths, &n, err, sizeof(err)))
			status = 2;
	for (size_t i = 0; i < n && !status; i++) {
		struct distribution d;

		if (distribution_read(&d, paths[i], names[i], err, sizeof(err))) {
			status = 2;
			break;
		}
		printf("%s %s %zu %llu %s\n", d.name, d.kind == DIST_MEMMOVE ? "memmove" : "memcpy",
		       d.n_sizes, (unsigned long long)d.max_size, d.path);
		distribution_free(&d);
	}
	if (status)
		fprintf(stderr, "find_distributions: %s\n", err);
	for (size_t i = 0; i < n; i++) {
		free(names[i]);
		free(paths[i]);
	}
	free(names);
	free(paths);
	return status;
}
