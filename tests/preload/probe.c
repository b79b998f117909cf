/* SPDX-License-Identifier: MIT */
/*
 * The program test-preload runs with and without libcopyperf-preload.so:
 * memcpy, memmove and mempcpy over many sizes, offsets and overlaps, printing
 * a checksum of each result, so any difference shows.  With --where it prints
 * which object the three symbols resolve to instead; with --bytes OFFSET...
 * the 8 bytes at each OFFSET (hexadecimal, as nm prints a symbol's value)
 * into the object memcpy resolves to, after its constructors have run; with
 * --writable-code the lines of /proc/self/maps both writable and executable.
 * With
 * --refuse-exec-gain PROGRAM ARGS... it runs PROGRAM where no mapping may
 * become both writable and executable (PR_SET_MDWE), or exits with status 3
 * where the kernel has no such setting.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

/* Linux 6.3's, which older headers lack. */
#ifndef PR_SET_MDWE
#define PR_SET_MDWE 65
#endif
#ifndef PR_MDWE_REFUSE_EXEC_GAIN
#define PR_MDWE_REFUSE_EXEC_GAIN 1
#endif

#define BUF (1u << 20)

static unsigned char a[BUF + 4096], b[BUF + 4096];

/* Calls through these, so the compiler cannot expand the copies inline. */
static void *(*volatile cpy)(void *, const void *, size_t) = memcpy;
static void *(*volatile mov)(void *, const void *, size_t) = memmove;
static void *(*volatile pcpy)(void *, const void *, size_t) = mempcpy;

static uint64_t checksum(const unsigned char *p, size_t n)
{
	uint64_t h = 1469598103934665603u; /* FNV-1a */

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211u;
	return h;
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)((i * 131 + seed * 7 + (i >> 8)) ^ (i >> 3));
}

static int where(void)
{
	static const char *const names[] = { "memcpy", "memmove", "mempcpy" };

	for (size_t i = 0; i < 3; i++) {
		Dl_info info;
		void *sym = dlsym(RTLD_DEFAULT, names[i]);

		if (sym == NULL || !dladdr(sym, &info) || info.dli_fname == NULL)
			printf("%s: unresolved\n", names[i]);
		else
			printf("%s: %s\n", names[i], info.dli_fname);
	}
	return 0;
}

/* The 8 bytes at each offset (hexadecimal) into the object memcpy resolves to, in hexadecimal. */
static int bytes_at(char **offsets)
{
	Dl_info info;
	void *sym = dlsym(RTLD_DEFAULT, "memcpy");

	if (sym == NULL || !dladdr(sym, &info) || info.dli_fbase == NULL) {
		fprintf(stderr, "probe: memcpy's object not found\n");
		return 2;
	}
	for (; *offsets != NULL; offsets++) {
		char *end;
		unsigned long off = strtoul(*offsets, &end, 16);
		const unsigned char *p = (const unsigned char *)info.dli_fbase + off;

		if (**offsets == '\0' || *end) {
			fprintf(stderr, "probe: %s: not an offset into memcpy's object\n", *offsets);
			return 2;
		}
		for (int i = 0; i < 8; i++)
			printf("%02x", p[i]);
		putchar('\n');
	}
	return 0;
}

/* The mappings of this process that are both writable and executable, as /proc/self/maps has them. */
static int writable_code(void)
{
	char line[4096];
	FILE *maps = fopen("/proc/self/maps", "r");

	if (maps == NULL) {
		perror("probe: /proc/self/maps");
		return 2;
	}
	while (fgets(line, sizeof(line), maps) != NULL) {
		const char *perms = strchr(line, ' ');

		if (perms != NULL && perms[2] == 'w' && perms[3] == 'x')
			fputs(line, stdout);
	}
	fclose(maps);
	return 0;
}

/* Runs argv[0] with its arguments, no mapping of it allowed to be writable and executable. */
static int refusing_exec_gain(char **argv)
{
	if (prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0L, 0L, 0L) != 0) {
		fprintf(stderr, "probe: PR_SET_MDWE: %s\n", strerror(errno));
		return 3;
	}
	execvp(argv[0], argv);
	fprintf(stderr, "probe: %s: %s\n", argv[0], strerror(errno));
	return 2;
}

int main(int argc, char **argv)
{
	if (argc > 2 && strcmp(argv[1], "--refuse-exec-gain") == 0)
		return refusing_exec_gain(argv + 2);
	if (argc > 1 && strcmp(argv[1], "--where") == 0)
		return where();
	if (argc > 2 && strcmp(argv[1], "--bytes") == 0)
		return bytes_at(argv + 2);
	if (argc == 2 && strcmp(argv[1], "--writable-code") == 0)
		return writable_code();
	for (size_t n = 1; n <= BUF; n = n < 300 ? n + 1 : n * 3 / 2 + 1) {
		unsigned off = (unsigned)(n * 7 % 64), off2 = (unsigned)(n * 13 % 64);
		unsigned char *end;

		fill(a, sizeof(a), (unsigned)n);
		memset(b, 0, sizeof(b));
		cpy(b + off, a + off2, n);
		end = pcpy(b + off2 + 2048, a + off, n > 2048 ? 2048 : n);
		mov(a + off, a + off2 + 1, n); /* overlapping, either direction */
		mov(b + off2 + 3, b + off, n);
		printf("%zu %016llx %016llx %td\n", n, (unsigned long long)checksum(a, sizeof(a)),
		       (unsigned long long)checksum(b, sizeof(b)), end - b);
	}
	return 0;
}
