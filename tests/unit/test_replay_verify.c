/* SPDX-License-Identifier: MIT */
/*
 * A replay's verification makes every call again on its own and checks it:
 * a right copy passes, memmove's overlapping calls in both directions
 * included (their sources change where their destinations cover them); a
 * copy that writes its source beyond the destination's reach, writes a byte
 * past the destination, copies nothing or misses one byte is named, at sizes
 * the check's 8-byte words cut differently.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "measure/engine/replay.h"

#define PAGE 4096

/* memcpy: from one side to the other, sizes around the check's 8-byte words. */
static struct call disjoint_calls[] = {
	{ PAGE + 600, 3 * PAGE + 600, 0 },     { PAGE + 1200, 3 * PAGE + 1300, 7 },
	{ PAGE + 1800, 3 * PAGE + 1900, 8 },   { PAGE + 2400, 3 * PAGE + 2500, 13 },
	{ PAGE + 3000, 3 * PAGE + 2700, 1000 },
};
static const struct call_list disjoint = {
	.calls = disjoint_calls, .n = 5, .kind = DIST_MEMCPY, .layout = CALLS_SPREAD,
	.span = PAGE, .side = PAGE, .src_side = PAGE, .dst_side = 3 * PAGE, .arena = 5 * PAGE,
	.bytes = 1028, .largest = 1000,
};

/*
 * memmove: one side, a canary page each side of it; the destination a few
 * bytes above its source, below it, and near it without overlapping.
 */
static struct call overlapping_calls[] = {
	{ PAGE + 1000, PAGE + 1003, 100 },
	{ PAGE + 3000, PAGE + 2990, 77 },
	{ PAGE + 5000, PAGE + 5200, 64 },
};
static const struct call_list overlapping = {
	.calls = overlapping_calls, .n = 3, .kind = DIST_MEMMOVE, .layout = CALLS_SPREAD,
	.span = 2 * PAGE, .side = 2 * PAGE, .src_side = PAGE, .dst_side = PAGE, .arena = 4 * PAGE,
	.bytes = 241, .largest = 100,
};

static void *right(void *dst, const void *src, size_t n)
{
	return memmove(dst, src, n);
}

/*
 * A byte of the source's window (512 bytes each side) flipped where the
 * destination's window does not reach: the window's second byte, or its
 * second last. For the overlapping calls the first is outside only when the
 * destination lies above the source, the second only when it lies below.
 */
static void *flip_outside(void *dst, const void *src, size_t n, unsigned char *at)
{
	unsigned char *d = dst;

	memmove(dst, src, n);
	if (at < d - 512 || at >= d + n + 512)
		*at ^= 0x5a;
	return dst;
}

static void *writes_before_source(void *dst, const void *src, size_t n)
{
	return flip_outside(dst, src, n, (unsigned char *)src - 511);
}

static void *writes_after_source(void *dst, const void *src, size_t n)
{
	return flip_outside(dst, src, n, (unsigned char *)src + n + 510);
}

static void *writes_past(void *dst, const void *src, size_t n)
{
	memmove(dst, src, n);
	((unsigned char *)dst)[n] ^= 0xff;
	return dst;
}

/* Every byte but the ninth: the one past the check's first word. */
static void *misses_ninth_byte(void *dst, const void *src, size_t n)
{
	if (n <= 9)
		return memmove(dst, src, n);
	memmove(dst, src, 8);
	memmove((unsigned char *)dst + 9, (const unsigned char *)src + 9, n - 9);
	return dst;
}

static void *copies_nothing(void *dst, const void *src, size_t n)
{
	(void)src;
	(void)n;
	return dst;
}

/*
 * Opens a replay of l, makes two right passes, then verifies with fn:
 * the status, and why in why.
 */
static enum measure_status verify_with(const struct call_list *l, copyperf_copy_fn fn, char *why,
				       size_t whylen)
{
	struct measure_params params = { 0 };
	struct page_usage usage = { 0 };
	struct replay rp;
	char err[256] = "";
	enum measure_status st;

	if (replay_open(&rp, l, &params, &usage, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(replay_timed(&rp, right, 2));
	why[0] = '\0';
	st = replay_verify(&rp, "routine", fn, why, whylen);
	replay_close(&rp);
	return st;
}

static void expect_wrong(const struct call_list *l, copyperf_copy_fn fn, const char *what)
{
	char why[512];

	assert_int_equal(verify_with(l, fn, why, sizeof(why)), MEASURE_WRONG);
	if (!strstr(why, what))
		fail_msg("'%s' does not say '%s'", why, what);
}

static void test_right_copies_pass(void **state)
{
	char why[512];

	(void)state;
	if (verify_with(&disjoint, right, why, sizeof(why)) != MEASURE_OK)
		fail_msg("memcpy list: %s", why);
	if (verify_with(&overlapping, right, why, sizeof(why)) != MEASURE_OK)
		fail_msg("memmove list: %s", why);
}

static void test_source_written(void **state)
{
	(void)state;
	expect_wrong(&disjoint, writes_before_source, "call 0 of 5 (size 0");
	expect_wrong(&disjoint, writes_after_source, "changed the byte at +510 from the source");
	/* the destination above the source: call 0; below it: call 1 */
	expect_wrong(&overlapping, writes_before_source,
		     "call 0 of 3 (size 100, source +1000, destination +1003) changed the byte at -511");
	expect_wrong(&overlapping, writes_after_source,
		     "call 1 of 3 (size 77, source +3000, destination +2990) changed the byte at +587");
}

static void test_byte_past_destination(void **state)
{
	(void)state;
	expect_wrong(&disjoint, writes_past, "wrote past the destination");
	expect_wrong(&overlapping, writes_past, "wrote past the destination");
}

static void test_nothing_copied(void **state)
{
	(void)state;
	/* the first call that copies a byte: size 7, named with its place in the list */
	expect_wrong(&disjoint, copies_nothing, "call 1 of 5 (size 7");
	expect_wrong(&overlapping, copies_nothing, "wrong byte");
	expect_wrong(&disjoint, misses_ninth_byte, "call 3 of 5 (size 13");
	expect_wrong(&disjoint, misses_ninth_byte, "wrong byte at +8");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_right_copies_pass),
		cmocka_unit_test(test_source_written),
		cmocka_unit_test(test_byte_past_destination),
		cmocka_unit_test(test_nothing_copied),
	};

	return cmocka_run_group_tests_name("replay verification", tests, NULL, NULL);
}
