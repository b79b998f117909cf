/* SPDX-License-Identifier: MIT */
/* The pinned threads under -j and make bench's threads table: where they run, and their failures. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "measure/placement/cpu_order.h"
#include "measure/placement/pinned_pool.h"

struct record {
	int opened_on[CPU_SETSIZE], ran_on[CPU_SETSIZE];
	unsigned jobs[CPU_SETSIZE], closed[CPU_SETSIZE];
	int refuse;  /* the worker whose open fails, -1: none */
};

static int open_here(void *ctx, unsigned i, char *why, size_t whylen)
{
	struct record *r = ctx;

	r->opened_on[i] = sched_getcpu();
	if ((int)i == r->refuse) {
		snprintf(why, whylen, "worker %u refuses", i);
		return -1;
	}
	return 0;
}

static void job_here(void *ctx, unsigned i)
{
	struct record *r = ctx;

	r->ran_on[i] = sched_getcpu();
	r->jobs[i]++;
}

static void close_here(void *ctx, unsigned i)
{
	struct record *r = ctx;

	r->closed[i]++;
}

static const struct pinned_pool_ops ops = { open_here, job_here, close_here };

static int cpus[CPU_SETSIZE];
static struct record r;

/* A pool on every CPU this process may use, worker `refuse` failing its open; its start's result. */
static int start_everywhere(struct pinned_pool *p, long *n, int refuse, char *err, size_t errlen)
{
	*n = cpu_order_read(cpus, CPU_SETSIZE);
	memset(&r, 0, sizeof(r));
	r.refuse = refuse < 0 ? -1 : (int)*n - 1;
	assert_true(*n >= 1);
	return pinned_pool_start(p, "test", cpus, (unsigned)*n, &ops, &r, err, errlen);
}

static void test_each_worker_on_its_cpu(void **state)
{
	struct pinned_pool p;
	long n;
	char err[400] = "";

	(void)state;
	assert_int_equal(start_everywhere(&p, &n, -1, err, sizeof(err)), 0);
	for (unsigned run = 0; run < 3; run++)
		pinned_pool_run(&p);
	pinned_pool_stop(&p);
	for (long i = 0; i < n; i++) {
		assert_int_equal(r.opened_on[i], cpus[i]);
		assert_int_equal(r.ran_on[i], cpus[i]);
		assert_int_equal(r.jobs[i], 3);
		assert_int_equal(r.closed[i], 1);
	}
}

/* The last worker refuses: its reason is the start's, and every worker still closes. */
static void test_a_failed_open_is_reported(void **state)
{
	struct pinned_pool p;
	long n;
	char err[400] = "";

	(void)state;
	assert_int_equal(start_everywhere(&p, &n, 1, err, sizeof(err)), -1);
	{
		char want[64];

		snprintf(want, sizeof(want), "worker %ld refuses", n - 1);
		assert_string_equal(err, want);
	}
	pinned_pool_stop(&p);
	for (long i = 0; i < n; i++) {
		assert_int_equal(r.jobs[i], 0);
		assert_int_equal(r.closed[i], 1); /* every worker closes, the refusing one too */
	}
}

static void test_a_cpu_it_may_not_use(void **state)
{
	int far[1] = { CPU_SETSIZE - 1 }; /* no machine here has it */
	struct pinned_pool p;
	char err[400] = "";

	(void)state;
	memset(&r, 0, sizeof(r));
	r.refuse = -1;
	assert_int_equal(pinned_pool_start(&p, "--threads", far, 1, &ops, &r, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--threads: cannot run thread 1 on CPU 1023: "));
	pinned_pool_stop(&p);
	assert_int_equal(r.jobs[0], 0);
	assert_int_equal(r.opened_on[0], 0); /* open is not called on a thread that is not pinned */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_worker_on_its_cpu),
		cmocka_unit_test(test_a_failed_open_is_reported),
		cmocka_unit_test(test_a_cpu_it_may_not_use),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
