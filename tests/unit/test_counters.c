/* SPDX-License-Identifier: MIT */
/*
 * The counter machinery (group open, start, pause, stop, read, sums), run
 * with software events every Linux has, since this VM has no PMU: the leader
 * counts page faults, which a test can cause exactly by touching fresh pages.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>
#include "assert_near.h"
#include "measure/hardware/counters.h"

#define PAGES 64

static const struct counter_spec software[N_COUNTERS] = {
	[COUNTER_CYCLES] = { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	[COUNTER_INSTRUCTIONS] = { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	[COUNTER_L1D_READ_MISSES] = { PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY },
	/* no such software event: the member is left out, the group still works */
	[COUNTER_LLC_MISSES] = { PERF_TYPE_SOFTWARE, 0x7fff },
};

/* Touches n fresh pages: n page faults, each counted once. */
static void fault_pages(size_t n)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, n * page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(p != MAP_FAILED);
	for (size_t i = 0; i < n; i++)
		p[i * page] = 1;
	munmap((void *)p, n * page);
}

static int setup(void **state)
{
	static struct counters c;
	char why[200];

	if (counters_open(&c, software, why, sizeof(why)))
		fail_msg("software counters cannot be opened: %s", why);
	*state = &c;
	return 0;
}

static int teardown(void **state)
{
	counters_close(*state);
	return 0;
}

static void test_counts_what_runs_between_start_and_stop(void **state)
{
	struct counters *c = *state;
	struct counter_values v;

	assert_true(c->open & 1u << COUNTER_CYCLES);
	assert_false(c->open & 1u << COUNTER_LLC_MISSES);
	counters_start(c);
	fault_pages(PAGES);
	counters_stop(c, &v);
	assert_int_equal(v.measurements, 1);
	assert_true(v.present & 1u << COUNTER_CYCLES);
	assert_true(v.present & 1u << COUNTER_INSTRUCTIONS);
	assert_false(v.present & 1u << COUNTER_LLC_MISSES);
	assert_in_range(v.count[COUNTER_CYCLES], PAGES, PAGES + 16);
	assert_true(v.count[COUNTER_INSTRUCTIONS] > 0); /* task clock, ns */
}

static void test_pause_leaves_out_the_paused_part(void **state)
{
	struct counters *c = *state;
	struct counter_values v;

	counters_start(c);
	fault_pages(PAGES);
	counters_pause(c);
	fault_pages(4 * PAGES);
	counters_resume(c);
	fault_pages(PAGES);
	counters_stop(c, &v);
	assert_in_range(v.count[COUNTER_CYCLES], 2 * PAGES, 2 * PAGES + 16);
	/* and nothing after stop; start zeroes */
	fault_pages(PAGES);
	counters_start(c);
	counters_stop(c, &v);
	assert_in_range(v.count[COUNTER_CYCLES], 0, 8);
}

static void test_sums_and_means(void **state)
{
	struct counter_values one = { { 100, 300, 0, 0 }, 1u << COUNTER_CYCLES | 1u << 1, 1 };
	struct counter_values two = { { 300, 0, 0, 0 }, 1u << COUNTER_CYCLES, 1 };
	struct counter_values sum = { { 0 }, 0, 0 };

	(void)state;
	assert_near(counter_mean(&sum, COUNTER_CYCLES), -1, 0);
	counters_add(&sum, &one);
	assert_near(counter_mean(&sum, COUNTER_INSTRUCTIONS), 300, 0);
	counters_add(&sum, &two);
	assert_int_equal(sum.measurements, 2);
	assert_near(counter_mean(&sum, COUNTER_CYCLES), 200, 0);
	/* instructions were missing from one measurement: not reported at all */
	assert_near(counter_mean(&sum, COUNTER_INSTRUCTIONS), -1, 0);
	assert_string_equal(counter_name(COUNTER_L1D_READ_MISSES), "l1d_read_misses");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_counts_what_runs_between_start_and_stop, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_pause_leaves_out_the_paused_part, setup,
						teardown),
		cmocka_unit_test(test_sums_and_means),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
