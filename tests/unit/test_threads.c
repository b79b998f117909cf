/* SPDX-License-Identifier: MIT */
/* -j's pure parts: the CPU order, CPU lists, the thread counts; --pages' smaps reading; where the buffers are. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "measure/placement/cpu_order.h"
#include "measure/placement/pages.h"
#include "measure/placement/thread_plan.h"
#include "options.h"

/* Two packages of two cores with two SMT siblings each, numbered as Linux often does. */
static void test_order_takes_every_core_before_any_sibling(void **state)
{
	/* cpu, package, core: 0-3 the cores' first threads, 4-7 their siblings */
	const struct cpu_place cpus[] = {
		{ 5, 0, 1 }, { 0, 0, 0 }, { 4, 0, 0 }, { 1, 0, 1 },
		{ 2, 1, 0 }, { 6, 1, 0 }, { 3, 1, 1 }, { 7, 1, 1 },
	};
	const int want[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	int out[8];

	(void)state;
	cpu_order(cpus, 8, out);
	assert_memory_equal(out, want, sizeof(want));
}

/* Siblings numbered next to each other (0,1 one core): the even CPUs first. */
static void test_order_with_adjacent_siblings(void **state)
{
	const struct cpu_place cpus[] = {
		{ 0, 0, 0 }, { 1, 0, 0 }, { 2, 0, 1 }, { 3, 0, 1 }, { 4, 0, 2 }, { 5, 0, 2 },
	};
	const int want[] = { 0, 2, 4, 1, 3, 5 };
	int out[6];

	(void)state;
	cpu_order(cpus, 6, out);
	assert_memory_equal(out, want, sizeof(want));
}

/* Core ids repeat across packages; an unknown core (-1) is a core of its own. */
static void test_order_packages_and_unknown_cores(void **state)
{
	const struct cpu_place cpus[] = {
		{ 0, 0, 0 }, { 1, 1, 0 }, { 2, 0, 0 }, { 3, -1, -1 }, { 4, -1, -1 },
	};
	const int want[] = { 0, 1, 3, 4, 2 };
	int out[5];

	(void)state;
	cpu_order(cpus, 5, out);
	assert_memory_equal(out, want, sizeof(want));
}

static void test_cpu_lists(void **state)
{
	int out[16];
	const int want[] = { 0, 1, 2, 3, 8, 10, 11 };
	char buf[16];

	(void)state;
	assert_int_equal(cpu_list_parse("0-3,8,10-11\n", out, 16), 7);
	assert_memory_equal(out, want, sizeof(want));
	assert_int_equal(cpu_list_parse("5", out, 16), 1);
	assert_int_equal(out[0], 5);
	assert_int_equal(cpu_list_parse("", out, 16), 0);
	assert_int_equal(cpu_list_parse("3-1", out, 16), -1);
	assert_int_equal(cpu_list_parse("1,x", out, 16), -1);
	assert_int_equal(cpu_list_parse("0-20", out, 16), -1); /* more than out holds */
	cpu_list_format(want, 7, buf, sizeof(buf));
	assert_string_equal(buf, "0,1,2,3,8,10,11");
	/* cut short after whole numbers, the "..." and its NUL within len */
	cpu_list_format(want, 7, buf, 12);
	assert_string_equal(buf, "0,1,2,3...");
	cpu_list_format(want, 7, buf, 10);
	assert_string_equal(buf, "0,1,2...");
}

static void test_thread_counts(void **state)
{
	const unsigned asked[] = { 1, 0, 4, 2, 4 };
	const unsigned want[] = { 1, 4, 2 };
	const unsigned too_many[] = { 2, 5 };
	unsigned out[5], bad = 0;

	(void)state;
	/* "all" (0) is every CPU; repeats once */
	assert_int_equal(thread_counts_resolve(asked, 5, 4, out, &bad), 3);
	assert_memory_equal(out, want, sizeof(want));
	assert_int_equal(thread_counts_resolve(too_many, 2, 4, out, &bad), -1);
	assert_int_equal(bad, 5);
}

static int parse(struct options *o, char *err, size_t errlen, int argc, const char **args)
{
	char *argv[8] = { "copyperf" };

	for (int i = 0; i < argc; i++)
		argv[i + 1] = (char *)args[i];
	return options_parse(argc + 1, argv, o, err, errlen);
}

static void test_threads_option(void **state)
{
	struct options o;
	char err[256];
	const char *list[] = { "-j", "1,2,all" }, *zero[] = { "--threads", "2,0" },
		   *kernel[] = { "--kernel", "-j", "all" }, *one[] = { "--kernel", "-j", "1" },
		   *pages[] = { "--pages", "1g", "--numa", "3" };

	(void)state;
	assert_int_equal(parse(&o, err, sizeof(err), 2, list), 0);
	assert_int_equal(o.n_threads, 3);
	assert_int_equal(o.threads[0], 1);
	assert_int_equal(o.threads[1], 2);
	assert_int_equal(o.threads[2], 0);
	options_free(&o);
	assert_int_equal(parse(&o, err, sizeof(err), 2, zero), -1);
	assert_string_equal(err, "--threads: 0 threads copy nothing (give 1 or more, or all)");
	options_free(&o);
	assert_int_equal(parse(&o, err, sizeof(err), 3, kernel), -1);
	assert_string_equal(err, "--kernel: not with --threads (the module measures one copy at a "
				 "time)");
	options_free(&o);
	assert_int_equal(parse(&o, err, sizeof(err), 3, one), -1);
	options_free(&o);
	assert_int_equal(parse(&o, err, sizeof(err), 4, pages), 0);
	assert_int_equal(o.pages, PAGES_1G);
	assert_int_equal(o.numa, NUMA_NODE);
	assert_int_equal(o.numa_node, 3);
	options_free(&o);
}

static const char smaps[] =
	"55d0c0000000-55d0c0021000 rw-p 00000000 00:00 0                          [heap]\n"
	"Size:                132 kB\n"
	"KernelPageSize:        4 kB\n"
	"AnonHugePages:         0 kB\n"
	"7f0000000000-7f0000400000 rw-p 00000000 00:00 0 \n"
	"Size:               4096 kB\n"
	"KernelPageSize:        4 kB\n"
	"AnonHugePages:      2048 kB\n"
	"Shared_Hugetlb:        0 kB\n"
	"Private_Hugetlb:       0 kB\n"
	"7f0000400000-7f0000800000 rw-p 00000000 00:0f 1234                       /anon_hugepage (deleted)\n"
	"Size:               4096 kB\n"
	"KernelPageSize:     2048 kB\n"
	"AnonHugePages:         0 kB\n"
	"Shared_Hugetlb:        0 kB\n"
	"Private_Hugetlb:    4096 kB\n";

static void test_smaps(void **state)
{
	struct page_usage u, sum = { 0 };
	char line[160];

	(void)state;
	/* transparent: half the mapping on huge pages, the kernel page size still 4 KiB */
	assert_int_equal(page_usage_parse(smaps, 0x7f0000001000, &u), 0);
	assert_int_equal(u.bytes, 4u << 20);
	assert_int_equal(u.page_size, 4096);
	assert_int_equal(u.thp_bytes, 2u << 20);
	assert_int_equal(u.hugetlb_bytes, 0);
	page_usage_add(&sum, &u);
	/* explicit: every byte on 2 MiB pages */
	assert_int_equal(page_usage_parse(smaps, 0x7f0000400000, &u), 0);
	assert_int_equal(u.page_size, 2u << 20);
	assert_int_equal(u.hugetlb_bytes, 4u << 20);
	page_usage_describe(&u, line, sizeof(line));
	assert_string_equal(line, "2 MiB pages (hugetlb), 4 MiB of 4 MiB");
	page_usage_add(&sum, &u);
	assert_int_equal(sum.page_size, 4096); /* the smallest */
	assert_int_equal(sum.bytes, 8u << 20);
	/* the end of a mapping is not in it; nothing maps there */
	assert_int_equal(page_usage_parse(smaps, 0x7f0000800000, &u), -1);
	assert_int_equal(page_usage_parse(smaps, 0x55d0c0021000, &u), -1);
}

/* Where the buffers are, as numa_where counts it: summed over mappings, named in the line. */
static void test_nodes_described(void **state)
{
	struct page_usage a = { .bytes = 2u << 20, .page_size = 4096 }, b = a, sum = { 0 };
	char line[200];

	(void)state;
	a.node_bytes[1] = 2u << 20;
	page_usage_add(&sum, &a);
	page_usage_describe(&sum, line, sizeof(line));
	assert_string_equal(line, "4 KiB pages, none of 2 MiB on transparent huge pages; all on node 1");
	b.node_bytes[0] = 1u << 20;
	b.node_bytes[3] = 1u << 20;
	page_usage_add(&sum, &b);
	assert_int_equal(sum.node_bytes[1], 2u << 20);
	page_usage_describe(&sum, line, sizeof(line));
	assert_string_equal(line, "4 KiB pages, none of 4 MiB on transparent huge pages; "
				  "on nodes 0 (1 MiB), 1 (2 MiB), 3 (1 MiB)");
	/* this process's own memory, on a node the machine has */
	{
		struct numa_node nodes[MAX_NUMA_NODES];
		size_t n = numa_nodes_read(nodes, MAX_NUMA_NODES), total = 0;
		uint64_t where[MAX_NUMA_NODES] = { 0 };
		static char mine[64 << 10];

		memset(mine, 1, sizeof(mine));
		assert_true(n > 0);
		assert_int_equal(numa_where(mine, sizeof(mine), where), 0);
		for (size_t i = 0; i < MAX_NUMA_NODES; i++) {
			int listed = 0;

			for (size_t k = 0; k < n; k++)
				listed |= nodes[k].id == (int)i;
			assert_true(where[i] == 0 || listed);
			total += where[i];
		}
		assert_int_equal(total, sizeof(mine));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order_takes_every_core_before_any_sibling),
		cmocka_unit_test(test_order_with_adjacent_siblings),
		cmocka_unit_test(test_order_packages_and_unknown_cores),
		cmocka_unit_test(test_cpu_lists),
		cmocka_unit_test(test_thread_counts),
		cmocka_unit_test(test_threads_option),
		cmocka_unit_test(test_smaps),
		cmocka_unit_test(test_nodes_described),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
