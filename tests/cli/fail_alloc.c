/* SPDX-License-Identifier: MIT */
/*
 * LD_PRELOAD shim for the allocation-failure tests (tests/cli/alloc_failures.sh):
 * with FAIL_ALLOC_AT=N in the environment the Nth call of malloc, calloc or
 * realloc in the process returns NULL (ENOMEM), every other one succeeds; with
 * FAIL_ALLOC_COUNT=FILE the number of calls made is written there at exit.
 * Calls made before the constructor runs (the dynamic loader's) count too.
 * glibc's own allocations go through these too: every one can fail.
 * With FAIL_THREAD_AT=N the Nth pthread_create fails (EAGAIN), and every
 * thread created starts 50 ms late, after its creator has gone on.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t n);

static unsigned long calls, fail_at, threads, thread_fail_at;
static char count_path[4096];

/*
 * Before the program's first allocation; the variables leave the environment,
 * so that a program it runs (gnuplot) allocates as it would.
 */
__attribute__((constructor)) static void setup(void)
{
	const char *at = getenv("FAIL_ALLOC_AT"), *path = getenv("FAIL_ALLOC_COUNT");
	const char *thread_at = getenv("FAIL_THREAD_AT");

	fail_at = at ? strtoul(at, NULL, 10) : 0;
	thread_fail_at = thread_at ? strtoul(thread_at, NULL, 10) : 0;
	unsetenv("FAIL_THREAD_AT");
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

struct late_start {
	void *(*start)(void *);
	void *arg;
};

static void *start_late(void *p)
{
	struct late_start s = *(struct late_start *)p;

	free(p);
	usleep(50000);
	return s.start(s.arg);
}

int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*start)(void *), void *arg)
{
	static int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
	struct late_start *s;
	int e;

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "pthread_create");
	if (!thread_fail_at)
		return real(t, attr, start, arg);
	if (++threads == thread_fail_at)
		return EAGAIN;
	s = __libc_malloc(sizeof(*s));
	if (!s)
		return EAGAIN;
	*s = (struct late_start){ start, arg };
	e = real(t, attr, start_late, s);
	if (e)
		free(s);
	return e;
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
