/* SPDX-License-Identifier: MIT */
/*
 * What `copyperf program` is tested on:
 *   copier copy N    N rounds of memcpy and memmove calls of every size 1..4096
 *                    through a buffer; prints a checksum of each call's last byte
 *   copier empty     100000 memcpy and memmove calls of 0 bytes, then one of 1 byte
 *                    each: calls too small on average to walk a stream
 *   copier none      makes no copy; prints one line
 *   copier exit N    prints a line on standard error and exits with status N
 *   copier env       prints whether LD_PRELOAD is set, so the two sides' outputs differ
 * The copies go through volatile function pointers, so the compiler cannot
 * turn them into inline moves: each is a call the preloaded shim answers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *(*volatile copy)(void *, const void *, size_t) = memcpy;
static void *(*volatile move)(void *, const void *, size_t) = memmove;

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "copy")) {
		static unsigned char a[8192], b[8192];
		unsigned long rounds = strtoul(argv[2], NULL, 10), sum = 0;

		for (size_t i = 0; i < sizeof(a); i++)
			a[i] = (unsigned char)(i * 131 + 7);
		for (unsigned long r = 0; r < rounds; r++)
			for (size_t n = 1; n <= 4096; n++) {
				copy(b + (n & 63), a + (r & 63), n);
				sum = sum * 31 + b[(n & 63) + n - 1];
				move(b + 1, b, n / 2);
				sum = sum * 31 + b[n / 2];
			}
		for (size_t i = 0; i < sizeof(b); i++)
			sum = sum * 31 + b[i];
		printf("%lu\n", sum);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "empty")) {
		static unsigned char a[64], b[64];

		for (int i = 0; i < 100000; i++) {
			copy(b, a, 0);
			move(b + 1, b, 0);
		}
		copy(b, a + 1, 1);
		move(b + 1, b, 1);
		printf("%u\n", b[1]);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "none")) {
		puts("no copies");
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "exit")) {
		fputs("copier: exiting as asked\n", stderr);
		return atoi(argv[2]);
	}
	if (argc == 2 && !strcmp(argv[1], "env")) {
		printf("LD_PRELOAD %s\n", getenv("LD_PRELOAD") ? "set" : "unset");
		return 0;
	}
	fputs("usage: copier copy N | empty | none | exit N | env\n", stderr);
	return 2;
}
