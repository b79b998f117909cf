/* SPDX-License-Identifier: MIT */
/*
 * The AVX-512 copy's page test (lib/x86_64/copy_avx512_ladder.S: the
 * instructions the copy runs, in a function of its own), against the rule it
 * stands for and what the rule is for, at every page offset of both
 * pointers. A wrong "fits" lets the window's plain load read a page the copy
 * does not use, which may fault, and its masked store cost a suppressed
 * fault, tens of nanoseconds; a wrong "does not fit" sends a call to the
 * slower plain moves. A copy test sees the first only where a page beside
 * the copy is unmapped, and never the second: this one sees both. Copies of
 * 0 bytes take neither pointer to the test (the copy moves both elsewhere
 * first): libcheck's guard pages and NULL see those.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "../lib/x86_64/x86_copy.h"

#define PAGE 4096u
#define WINDOW ((uintptr_t)32) /* the bytes from each pointer the masked moves span */

/* Page number of an address. */
static uintptr_t page_of(uintptr_t a)
{
	return a / PAGE;
}

/*
 * The rule in words: the window's first and last bytes lie in one page (the
 * pointer is 0 to 4064 bytes into its page).
 */
static int rule(uintptr_t p)
{
	return page_of(p) == page_of(p + WINDOW - 1);
}

/*
 * What the rule is for: each byte of the window [p, p + WINDOW) lies in a page
 * that holds a byte of the copy [p, p + n), n >= 1. Those pages are in use; no
 * other page may be.
 */
static int window_safe(uintptr_t p, size_t n)
{
	return page_of(p + WINDOW - 1) <= page_of(p + n - 1);
}

/* Pages where the pointers may lie: the first, an everyday one, the last of user space. */
static const uintptr_t pages[] = { 0, 0x55d4c0e3f000, 0x7ffffffff000 };
#define N_PAGES (sizeof(pages) / sizeof(pages[0]))
/* The sizes that matter: the smallest, around the window's width, the largest under 64. */
static const size_t sizes[] = { 1, 8, 31, 32, 33, 63 };

/*
 * Every offset pair, in three pairs of pages: "fits" exactly where the rule
 * holds for both pointers, and never where a window would reach a page that a
 * copy of any of the sizes does not use.
 */
static void test_every_offset_pair(void **state)
{
	(void)state;
	for (size_t ps = 0; ps < N_PAGES; ps++)
		for (uintptr_t so = 0; so < PAGE; so++) {
			uintptr_t s = pages[ps] + so;

			for (uintptr_t dof = 0; dof < PAGE; dof++) {
				uintptr_t d = pages[(ps + 1) % N_PAGES] + dof;
				int fits = copyperf_x86_page_test((const void *)d, (const void *)s);

				if (fits != (rule(s) && rule(d)))
					fail_msg("copyperf_x86_page_test(dst at %#lx, src at %#lx): %d against the rule",
						 (unsigned long)d, (unsigned long)s, fits);
				for (size_t k = 0; fits && k < sizeof(sizes) / sizeof(sizes[0]); k++)
					if (!window_safe(s, sizes[k]) || !window_safe(d, sizes[k]))
						fail_msg("copyperf_x86_page_test(dst at %#lx, src at %#lx): fits, but a "
							 "window of a %zu-byte copy reaches a page it does not use",
							 (unsigned long)d, (unsigned long)s, sizes[k]);
			}
		}
}

/* The edges by name, should the rule above ever be wrong in the same way as the code. */
static void test_edges(void **state)
{
	const unsigned char *const base = (const unsigned char *)(uintptr_t)0x55d4c0e3f000;
	const unsigned char *const mid = base + 100;

	(void)state;
	assert_true(copyperf_x86_page_test(mid, mid));
	assert_true(copyperf_x86_page_test(mid, base)); /* a page's first byte: the copy's own page */
	assert_true(copyperf_x86_page_test(base, mid));
	assert_false(copyperf_x86_page_test(mid, base - 1)); /* a page's last byte */
	assert_false(copyperf_x86_page_test(base - 1, mid));
	assert_true(copyperf_x86_page_test(mid, base + PAGE - WINDOW)); /* the window ends at the page's end */
	assert_false(copyperf_x86_page_test(mid, base + PAGE - WINDOW + 1));
	assert_false(copyperf_x86_page_test(base + PAGE - 1, mid));
	assert_true(copyperf_x86_page_test(base + PAGE + 1, mid));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_offset_pair),
		cmocka_unit_test(test_edges),
	};

	return cmocka_run_group_tests_name("copyperf_masked_fits", tests, NULL, NULL);
}
