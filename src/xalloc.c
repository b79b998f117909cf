/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xalloc.h"

void out_of_memory(const char *what)
{
	fprintf(stderr, "copyperf: out of memory for %s\n", what);
	exit(2);
}

void *xcalloc(size_t n, size_t size, const char *what)
{
	/* one more than asked: calloc(0) may return NULL and mean no failure */
	void *p = calloc(n + 1, size ? size : 1);

	if (p == NULL)
		out_of_memory(what);
	return p;
}

void *xrealloc(void *p, size_t n, size_t size, const char *what)
{
	void *q = n <= SIZE_MAX / size ? realloc(p, n * size) : NULL;

	if (q == NULL)
		out_of_memory(what);
	return q;
}

char *xstrdup(const char *s, const char *what)
{
	size_t len = strlen(s) + 1;

	return memcpy(xcalloc(len, 1, what), s, len);
}
