/* SPDX-License-Identifier: MIT */
/*
 * The AVX-512 copy's page test (lib/x86_64/avx512_blocks.h), against what it
 * stands for, at every page offset of both pointers. A wrong "fits" stays a
 * correct copy (a masked-off byte does not fault) that costs a suppressed
 * fault, hundreds of nanoseconds; a wrong "does not fit" sends a call to the
 * slower plain moves. No copy test can see either: this one can.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "../lib/x86_64/avx512_blocks.h"

#define PAGE 4096u
#define WINDOW 32u /* copy_under_64's masked move: one 32-byte window from each pointer */

/*
 * The rule in words: the window [p, p + WINDOW) and the byte before p lie in
 * p's page. (p's page is in use for n >= 1; for n = 0, a pointer one past an
 * object has the object's last byte at p - 1.)
 */
static int window_in_page(uintptr_t p)
{
	uintptr_t page = p & ~(uintptr_t)(PAGE - 1);

	return p - 1 >= page && p - 1 < page + PAGE && p + WINDOW - 1 < page + PAGE;
}

/* Pages where the pointers may lie: the first, an everyday one, the last of user space. */
static const uintptr_t pages[] = { 0, 0x55d4c0e3f000, 0x7ffffffff000 };

static void test_every_offset_pair(void **state)
{
	unsigned refused = 0;

	(void)state;
	for (size_t ps = 0; ps < sizeof(pages) / sizeof(pages[0]); ps++)
		for (uintptr_t so = 0; so < PAGE; so++) {
			uintptr_t s = pages[ps] + so;
			int s_ok = window_in_page(s);

			for (uintptr_t dof = 0; dof < PAGE; dof++) {
				uintptr_t d = pages[(ps + 1) % 3] + dof;
				int want = s_ok && window_in_page(d);

				if (masked_move_fits((const void *)d, (const void *)s) != want)
					fail_msg("masked_move_fits(dst at %#lx, src at %#lx): %d, want %d",
						 (unsigned long)d, (unsigned long)s, !want, want);
				refused += !want;
			}
		}
	/* What the header says it gives up: about 0.8% of random pointers each, 1.6% of pairs. */
	assert_true(refused < 3 * PAGE * PAGE * 17 / 1000);
}

/* The edges by name, should the rule above ever be wrong in the same way as the code. */
static void test_edges(void **state)
{
	const unsigned char *const base = (const unsigned char *)(uintptr_t)0x55d4c0e3f000;
	const unsigned char *const mid = base + 100;

	(void)state;
	assert_false(masked_move_fits(mid, NULL));
	assert_false(masked_move_fits(NULL, mid));
	assert_false(masked_move_fits(mid, base));               /* 0 bytes in: p - 1 is the last page's */
	assert_true(masked_move_fits(mid, base + 1));
	assert_true(masked_move_fits(mid, base + PAGE - WINDOW)); /* the window ends at the page's end */
	assert_false(masked_move_fits(mid, base + PAGE - WINDOW + 1));
	assert_false(masked_move_fits(base + PAGE - 1, mid));
	assert_true(masked_move_fits(base + PAGE + 1, mid));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_offset_pair),
		cmocka_unit_test(test_edges),
	};

	return cmocka_run_group_tests_name("copyperf_masked_fits", tests, NULL, NULL);
}
