/* SPDX-License-Identifier: MIT */
/*
 * Runs every check on copyperf_memcpy, copyperf_memmove, the portable
 * copyperf_generic_memcpy/memmove and every other routine registered and
 * available here.  Exit 0 when all pass; the last line is "N passed, N failed".
 * COPYPERF_ISA and the threshold variables choose what copyperf_memcpy is.
 * libcheck ROUTINE...: the checks on those routines alone, each named as
 * copyperf -r names them (a registered name, or FILE:SYMBOL[:overlap] from a
 * shared object, such as the preload shim's memcpy); exit 2 on a name that
 * is neither.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "check.h"
#include "measure/backends/shared_routine.h"
#include "../../lib/generic/copy_compat.h"

#define MAX_SUBJECTS 64
#define MAX_REPORTS 10 /* per subject and check: one defect tends to show many times */

static unsigned reports_left;

void fill_pattern(unsigned char *p, size_t n, unsigned seed)
{
	uint32_t x = seed * 2654435761u + 1;

	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (unsigned char)(x >> 7);
	}
}

int report(const struct subject *s, const char *check, const char *fmt, ...)
{
	va_list ap;

	if (reports_left == 0)
		return 1;
	reports_left--;
	printf("FAIL %s: %s: ", s->name, check);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return 1;
}

size_t first_difference(const unsigned char *a, const unsigned char *b, size_t n)
{
	size_t i = 0;

	while (i < n && a[i] == b[i])
		i++;
	return i;
}

int copy_and_check(const struct subject *s, const char *check, unsigned char *dst,
		   const unsigned char *src, size_t n, const unsigned char *dst_image)
{
	void *ret = s->fn(dst, src, n);
	int bad = 0;

	if (ret != dst)
		bad = report(s, check, "n=%zu: returned %p, not dst %p", n, ret, (void *)dst);
	else if (memcmp(dst, src, n))
		bad = report(s, check, "n=%zu src%%64=%u dst%%64=%u: byte %zu wrong", n,
			     (unsigned)((uintptr_t)src % 64), (unsigned)((uintptr_t)dst % 64),
			     first_difference(dst, src, n));
	else if (memcmp(dst - CANARY, dst_image, CANARY))
		bad = report(s, check, "n=%zu dst%%64=%u: wrote %zu bytes before dst", n,
			     (unsigned)((uintptr_t)dst % 64),
			     CANARY - first_difference(dst - CANARY, dst_image, CANARY));
	else if (memcmp(dst + n, dst_image + CANARY + n, CANARY))
		bad = report(s, check, "n=%zu dst%%64=%u: wrote byte %zu after the end", n,
			     (unsigned)((uintptr_t)dst % 64),
			     first_difference(dst + n, dst_image + CANARY + n, CANARY));
	memcpy(dst - CANARY, dst_image, n + 2 * CANARY);
	return bad;
}

unsigned char *map_or_die(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		fprintf(stderr, "libcheck: cannot map %zu bytes\n", len);
		exit(1);
	}
	return p;
}

static size_t add_subject(struct subject *list, size_t n, const char *name, copyperf_copy_fn fn,
			  int overlap_ok)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i].name, name) == 0)
			return n;
	if (n < MAX_SUBJECTS)
		list[n++] = (struct subject){ name, fn, overlap_ok };
	return n;
}

/* COPYPERF_ISA, when set, must be the variant in force: else the per-ISA runs test nothing new. */
static int isa_honoured(void)
{
	const char *want = getenv("COPYPERF_ISA");
	char expect[64];

	if (want == NULL || *want == '\0')
		return 1;
	snprintf(expect, sizeof(expect), "%s variant", want);
	return strstr(copyperf_describe(), expect) != NULL;
}

/*
 * Without routines named: copyperf_memcpy's first copies and the variant in
 * force checked (counted in *passed, *failed), then every routine of the
 * library's and the registry's available here as subjects; returns how many.
 */
static size_t default_subjects(struct subject *subjects, unsigned *passed, unsigned *failed)
{
	const struct subject first = { "copyperf_memcpy", copyperf_memcpy, 0 };
	int defects = check_first_copies(&first); /* before describe reads the thresholds */
	size_t n = 0;

	printf("libcopyperf: %s\n", copyperf_describe());
	printf("%s copyperf_memcpy: first copies%s\n", defects ? "FAIL" : "ok  ",
	       defects ? " (defects)" : "");
	defects ? (*failed)++ : (*passed)++;
	if (isa_honoured()) {
		(*passed)++;
	} else {
		printf("FAIL COPYPERF_ISA=%s is not the variant in force\n", getenv("COPYPERF_ISA"));
		(*failed)++;
	}
	n = add_subject(subjects, n, "copyperf_memcpy", copyperf_memcpy, 0);
	n = add_subject(subjects, n, "copyperf_memmove", copyperf_memmove, 1);
	n = add_subject(subjects, n, "copyperf_generic_memcpy", copyperf_generic_memcpy, 0);
	n = add_subject(subjects, n, "copyperf_generic_memmove", copyperf_generic_memmove, 1);
	for (size_t i = 0; i < copyperf_routine_count(); i++) {
		const struct copyperf_routine *r = copyperf_routine_at(i);

		if (copyperf_routine_available(r))
			n = add_subject(subjects, n, r->name, r->fn, !!(r->flags & COPYPERF_OVERLAP_OK));
	}
	return n;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(const struct subject *);
		int memmove_only;
		int ours_only; /* not the C library's memcpy (ASan rightly refuses it overlapping) */
	} checks[] = {
		{ "sizes and offsets", check_sizes, 0, 0 },
		{ "guard pages", check_guard_pages, 0, 0 },
		{ "overlaps", check_overlaps, 1, 0 },
		{ "call mixes", check_mixes, 0, 0 },
		{ "in place", check_in_place, 0, 0 },
		{ "overlapping, no zeroes", check_overlapping_no_zeroes, 0, 1 },
	};
	struct subject subjects[MAX_SUBJECTS];
	size_t n = 0;
	unsigned passed = 0, failed = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1) {
		for (int i = 1; i < argc; i++) {
			char why[400];
			const struct copyperf_routine *r = shared_routine_named(argv[i], why, sizeof(why));

			if (r == NULL) {
				fprintf(stderr, "libcheck: %s\n", why);
				return 2;
			}
			n = add_subject(subjects, n, r->name, r->fn, !!(r->flags & COPYPERF_OVERLAP_OK));
		}
	} else {
		n = default_subjects(subjects, &passed, &failed);
	}
	for (size_t i = 0; i < n; i++)
		for (size_t c = 0; c < sizeof(checks) / sizeof(checks[0]); c++) {
			int defects;

			if ((checks[c].memmove_only && !subjects[i].overlap_ok) ||
			    (checks[c].ours_only && !strcmp(subjects[i].name, "memcpy")))
				continue;
			reports_left = MAX_REPORTS;
			defects = checks[c].run(&subjects[i]);
			printf("%s %s: %s", defects ? "FAIL" : "ok  ", subjects[i].name, checks[c].name);
			if (defects)
				printf(" (%d defects)", defects);
			putchar('\n');
			defects ? failed++ : passed++;
		}
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
