/* SPDX-License-Identifier: MIT */
/*
 * A replay's timed passes chain their calls only where asked (--chain): the
 * last byte read back is the last call's, the replay keeps it for the next
 * pass, and independent passes read nothing back, whether each call comes
 * after the caller's tests of its size (--tested) or not. Every way leaves
 * the arena as its verification expects.
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

/* Two memcpy calls from a side of a page to another, each with a canary page around it. */
static struct call calls[] = { { PAGE + 10, 3 * PAGE + 20, 5 }, { PAGE + 100, 3 * PAGE + 200, 7 } };
static const struct call_list list = {
	.calls = calls, .n = 2, .kind = DIST_MEMCPY, .layout = CALLS_SPREAD, .span = PAGE,
	.side = PAGE, .src_side = PAGE, .dst_side = 3 * PAGE, .arena = 5 * PAGE, .bytes = 12,
	.largest = 7,
};

static void *copy(void *dst, const void *src, size_t n)
{
	return memcpy(dst, src, n);
}

static void replay_passes(bool chained, bool tested, struct replay *rp)
{
	struct measure_params params = { .chained = chained, .tested = tested };
	struct page_usage usage = { 0 };
	char err[256] = "", why[512] = "";

	if (replay_open(rp, &list, &params, &usage, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(rp->chained, chained);
	assert_int_equal(rp->tested, tested);
	assert_int_equal(rp->last, 0);
	assert_true(replay_timed(rp, copy, 2));
	if (replay_verify(rp, "memcpy", copy, why, sizeof(why)) != MEASURE_OK)
		fail_msg("%s", why);
}

static void test_chained_reads_back(void **state)
{
	struct replay rp;
	const struct call *last = &calls[1];
	unsigned char want;

	(void)state;
	for (int tested = 0; tested < 2; tested++) {
		replay_passes(true, tested, &rp);
		want = rp.arena[last->dst + last->size - 1];
		assert_int_not_equal(want, 0); /* else reading nothing back would look the same */
		assert_int_equal(want, rp.arena[last->src + last->size - 1]);
		assert_int_equal(rp.last, want);
		replay_close(&rp);
	}
}

static void test_independent_reads_nothing(void **state)
{
	struct replay rp;

	(void)state;
	for (int tested = 0; tested < 2; tested++) {
		replay_passes(false, tested, &rp);
		assert_int_equal(rp.last, 0);
		replay_close(&rp);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chained_reads_back),
		cmocka_unit_test(test_independent_reads_nothing),
	};

	return cmocka_run_group_tests_name("replay timed", tests, NULL, NULL);
}
