/* SPDX-License-Identifier: MIT */
/*
 * A program linked against libcopyperf.so, for test-preload to run with and
 * without the shim: it must load (the shim once bound the library's own
 * names to its copies and crashed it), copy through libcopyperf, and, on
 * x86-64, get memmove from memcpy@GLIBC_2.2.5 as a program linked before
 * glibc 2.14 does.
 */
#include <stdio.h>
#include <string.h>
#include "copyperf.h"

#if defined(__x86_64__)
__asm__(".symver memcpy, memcpy@GLIBC_2.2.5");
#endif

#define N 100000
#define MOVED 50000

int main(void)
{
	static unsigned char buf[N], want[N], a[4096], b[4096];
	void *(*volatile copy)(void *, const void *, size_t) = memcpy;

	for (size_t i = 0; i < N; i++)
		buf[i] = want[i] = (unsigned char)(i * 7 + (i >> 8));
	for (size_t i = MOVED; i > 0; i--) /* a byte further on, as memmove would */
		want[i] = want[i - 1];
	for (size_t i = 0; i < sizeof(b); i++)
		b[i] = (unsigned char)i;
	printf("libcopyperf %s: %s\n", copyperf_version(),
	       copyperf_memcpy(a, b, sizeof(a)) == a && !memcmp(a, b, sizeof(a)) ? "copies" : "wrong");
#if defined(__x86_64__)
	copy(buf + 1, buf, MOVED);
	printf("memcpy@GLIBC_2.2.5 onto an overlap: %s\n", memcmp(buf, want, N) ? "wrong" : "as memmove");
#else
	(void)copy;
#endif
	return 0;
}
