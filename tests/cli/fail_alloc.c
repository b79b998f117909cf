/* SPDX-License-Identifier: MIT */
/*
 * LD_PRELOAD shim for the allocation-failure tests (tests/cli/alloc_failures.sh):
 * with FAIL_ALLOC_AT=N in the environment the Nth call of malloc, calloc or
 * realloc in the process returns NULL (ENOMEM), every other one succeeds; with
 * FAIL_ALLOC_COUNT=FILE the number of calls made is written there at exit.
 * Calls made before the constructor runs (the dynamic loader's) count too.
 * glibc's own allocations go through these too: every one can fail.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);

static unsigned long calls, fail_at;
static char count_path[4096];

/*
 * Before the program's first allocation; the variables leave the environment,
 * so that a program it runs (gnuplot) allocates as it would.
 */
__attribute__((constructor)) static void setup(void)
{
	const char *at = getenv("FAIL_ALLOC_AT"), *path = getenv("FAIL_ALLOC_COUNT");

	fail_at = at ? strtoul(at, NULL, 10) : 0;
	if (path && strlen(path) < sizeof(count_path))
		strcpy(count_path, path);
	unsetenv("FAIL_ALLOC_AT");
	unsetenv("FAIL_ALLOC_COUNT");
	unsetenv("LD_PRELOAD");
}

static int fails(void)
{
	if (++calls != fail_at)
		return 0;
	errno = ENOMEM;
	return 1;
}

void *malloc(size_t n)
{
	return fails() ? NULL : __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	return fails() ? NULL : __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	return fails() ? NULL : __libc_realloc(p, n);
}

__attribute__((destructor)) static void count(void)
{
	FILE *f;

	fail_at = 0; /* fopen's own allocation must not be the one that fails */
	if (count_path[0] && (f = fopen(count_path, "w")) != NULL) {
		fprintf(f, "%lu\n", calls);
		fclose(f);
	}
}
