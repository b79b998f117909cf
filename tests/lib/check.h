/* SPDX-License-Identifier: MIT */
/*
 * libcheck: the library's correctness suite.  One plain C program (no
 * cmocka), so it cross-builds statically and runs under qemu-user.
 */
#ifndef COPYPERF_LIBCHECK_H
#define COPYPERF_LIBCHECK_H

#include <stddef.h>
#include "copyperf.h"

struct subject {
	const char *name;
	copyperf_copy_fn fn;
	int overlap_ok; /* a memmove: gets the overlap checks too */
};

#define CANARY 64          /* bytes checked on each side of the destination */
#define MAX_OFFSET 64      /* source and destination offsets 0..63 */
#define SMALL_MAX 1100     /* every size 0..SMALL_MAX */
#define LARGE_MAX_LOG2 24  /* powers of two up to 16 MiB, each also -1 and +1 */

/* Pseudo-random, position-dependent bytes, so a byte copied from the wrong place shows. */
void fill_pattern(unsigned char *p, size_t n, unsigned seed);

/* The first offset where a and b differ (they do differ). */
size_t first_difference(const unsigned char *a, const unsigned char *b, size_t n);

/* Reports one wrong result (the first few are printed); returns 1 so callers can count. */
int report(const struct subject *s, const char *check, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Copies n bytes from src to dst with s and checks it: return value, content,
 * CANARY bytes either side of dst against the expected image.  dst_image is
 * what [dst - CANARY, dst + n + CANARY) held before; restores it afterwards.
 * Returns the number of defects (0 or 1).
 */
int copy_and_check(const struct subject *s, const char *check, unsigned char *dst,
		   const unsigned char *src, size_t n, const unsigned char *dst_image);

/* Each returns the number of defects found for s. */
int check_first_copies(const struct subject *s); /* before anything else: see check_first.c */
int check_sizes(const struct subject *s);
int check_guard_pages(const struct subject *s);
int check_overlaps(const struct subject *s);
int check_mixes(const struct subject *s);
int check_in_place(const struct subject *s);
int check_overlapping_no_zeroes(const struct subject *s);

/* SIGSEGV and SIGBUS turned into a return of copy_catching_faults (on), or back (off). */
void catch_faults(int on);
/* Copies with s under catch_faults(1): the signal the copy raised, or 0 with *ret set. */
int copy_catching_faults(const struct subject *s, void *dst, const void *src, size_t n,
			 void **ret);

/* Page-aligned memory from mmap, never freed before exit; exits 1 if there is none. */
unsigned char *map_or_die(size_t len);

#endif
