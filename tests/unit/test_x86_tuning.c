/* SPDX-License-Identifier: MIT */
/*
 * The x86-64 thresholds each processor family gets (lib/x86_64/tuning.c), from
 * made-up CPU features: the choices BENCHMARKS.md measured per family, and the
 * order of the windows whatever the caches of the machine running the test;
 * and, from its own features, the caches it reads against sysfs's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>
#include <sched.h>
#include "../lib/cache_info.h"
#include "../lib/x86_64/x86_copy.h"

static const char *const overrides[] = {
	"COPYPERF_REP_MOVSB_MIN", "COPYPERF_REP_MOVSB_MAX", "COPYPERF_REP_MOVSB_STEP",
	"COPYPERF_REP_MOVSB_ALIGNED", "COPYPERF_REP_MOVSB_NEAR",
	"COPYPERF_NT_THRESHOLD", "COPYPERF_NT_STREAMS", "COPYPERF_LOOP_VEC",
};

static int no_overrides(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(overrides) / sizeof(overrides[0]); i++)
		unsetenv(overrides[i]);
	return 0;
}

/*
 * A processor of this AMD family (0: not AMD), a model of it that has AVX-512
 * (Zen 4's, in family 0x19), with or without the fast string copy.
 */
static struct x86_features cpu(unsigned amd_family, bool erms)
{
	return (struct x86_features){ .avx2 = true, .avx512 = true, .erms = erms, .fsrm = erms,
				      .amd_family = amd_family,
				      .amd_model = amd_family == 0x19 ? 0x11 : 0x02 };
}

static struct x86_tuning_report computed_for(const struct x86_features *f)
{
	struct x86_tuning_report r;

	copyperf_x86_tuning_compute(f, &r);
	/* Whatever the family: the string copy's window, if any, ends where the non-temporal one starts. */
	assert_true(r.t.rep_movsb_min <= r.t.rep_movsb_max);
	assert_true(r.t.rep_movsb_aligned <= r.t.rep_movsb_min);
	assert_true(r.t.rep_movsb_max <= r.t.nt_threshold);
	assert_true(r.t.nt_threshold > 0);
	assert_int_equal(r.loop_vec_from, FROM_MACHINE);
	/* what the ladders read follows from the rest */
	assert_int_equal(r.t.blocks_max, r.t.loop_vec == 32 ? 512 : 1024);
	assert_int_equal(r.t.loop_max, x86_loop_only_below(&r.t));
	return r;
}

static struct x86_tuning_report computed(unsigned amd_family, bool erms)
{
	struct x86_features f = cpu(amd_family, erms);

	return computed_for(&f);
}

static void test_intel(void **state)
{
	struct x86_tuning_report r = computed(0, true);

	(void)state;
	assert_int_equal(r.t.loop_vec, 64);
	assert_int_equal(r.t.nt_streams, 4);
	assert_int_equal(r.t.rep_movsb_step, 0);
	assert_int_equal(r.t.rep_movsb_near, 64);
	assert_int_equal(r.t.rep_movsb_min, (size_t)sysconf(_SC_PAGESIZE));
	assert_int_equal(r.t.rep_movsb_aligned, r.t.rep_movsb_min);
}

/*
 * 512-bit operations through 256-bit units: the 32-byte loop; 'rep movsb' from
 * 64 KiB to the L2, and from a page where source and destination share their
 * offset in a line.
 */
static void test_zen4(void **state)
{
	struct x86_tuning_report r = computed(0x19, true);

	(void)state;
	assert_int_equal(r.t.loop_vec, 32);
	assert_int_equal(r.t.nt_streams, 1);
	assert_int_equal(r.t.rep_movsb_step, 0);
	assert_int_equal(r.t.rep_movsb_near, 64);
	assert_int_equal(r.t.rep_movsb_min, (size_t)64 << 10);
	assert_int_equal(r.t.rep_movsb_aligned, (size_t)sysconf(_SC_PAGESIZE));
	if (r.l2 && r.l2 < r.t.nt_threshold)
		assert_int_equal(r.t.rep_movsb_max, r.l2);
}

/*
 * Zen 3, family 0x19 without AVX-512: Zen 4's string copy window, two
 * non-temporal streams; Zen 4's models bounded on both sides.
 */
static void test_zen3(void **state)
{
	struct x86_features f = { .avx2 = true, .erms = true, .fsrm = true, .amd_family = 0x19,
				  .amd_model = 0x01 };
	struct x86_tuning_report r = computed_for(&f);
	static const unsigned zen3[] = { 0x00, 0x0f, 0x20, 0x21, 0x50, 0x5f },
			      zen4[] = { 0x10, 0x11, 0x1f, 0x60, 0x61, 0x74, 0xa0, 0xaf };

	(void)state;
	assert_int_equal(r.t.nt_streams, 2);
	assert_int_equal(r.t.rep_movsb_near, 64);
	assert_int_equal(r.t.rep_movsb_min, (size_t)64 << 10);
	assert_int_equal(r.t.rep_movsb_aligned, (size_t)sysconf(_SC_PAGESIZE));
	for (size_t i = 0; i < sizeof(zen3) / sizeof(zen3[0]); i++) {
		f.amd_model = zen3[i];
		assert_false(x86_amd_zen4(&f));
	}
	for (size_t i = 0; i < sizeof(zen4) / sizeof(zen4[0]); i++) {
		f.amd_model = zen4[i];
		assert_true(x86_amd_zen4(&f));
	}
	f.amd_family = 0x1a; /* the same models in another family */
	assert_false(x86_amd_zen4(&f));
}

/* Full-width 512-bit units: the 64-byte loop; the 16 KiB step. */
static void test_zen5(void **state)
{
	struct x86_tuning_report r = computed(0x1a, true);

	(void)state;
	assert_int_equal(r.t.loop_vec, 64);
	assert_int_equal(r.t.nt_streams, 2);
	assert_int_equal(r.t.rep_movsb_step, 16384);
	assert_int_equal(r.t.rep_movsb_near, 0);
	assert_int_equal(r.rep_near_from, FROM_MACHINE);
	assert_int_equal(r.t.rep_movsb_min, (size_t)sysconf(_SC_PAGESIZE));
	assert_int_equal(r.t.rep_movsb_aligned, r.t.rep_movsb_min);
	assert_int_equal(r.t.rep_movsb_max, r.t.nt_threshold);
}

/* Without ERMS the string copy is never taken, on any family. */
static void test_no_erms(void **state)
{
	static const unsigned families[] = { 0, 0x19, 0x1a };

	(void)state;
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		struct x86_tuning_report r = computed(families[i], false);

		assert_int_equal(r.t.rep_movsb_min, 0);
		assert_int_equal(r.t.rep_movsb_max, 0);
		assert_int_equal(r.t.rep_movsb_aligned, 0);
	}
}

/*
 * Non-temporal stores only where a copy's source and destination together
 * outgrow the share of the last-level cache this process can use, whatever
 * the family: below that its data could have stayed in the cache.
 */
static void test_nt_past_the_share(void **state)
{
	static const unsigned families[] = { 0, 0x19, 0x1a };

	(void)state;
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		struct x86_tuning_report r = computed(families[i], true);

		assert_int_equal(r.nt_from, FROM_MACHINE);
		assert_true(r.llc_counted <= r.llc_share);
		if (r.llc_counted)
			assert_int_equal(r.t.nt_threshold, r.llc_counted / 2);
		else
			assert_int_equal(r.t.nt_threshold, (size_t)8 << 20);
	}
}

/* The environment wins over the family, and only with a value it may take. */
static void test_override(void **state)
{
	struct x86_features zen4 = cpu(0x19, true);
	struct x86_tuning_report r;

	(void)state;
	setenv("COPYPERF_LOOP_VEC", "64", 1);
	copyperf_x86_tuning_compute(&zen4, &r);
	assert_int_equal(r.t.loop_vec, 64);
	assert_int_equal(r.loop_vec_from, FROM_ENV);
	assert_int_equal(r.t.blocks_max, 1024);
	setenv("COPYPERF_LOOP_VEC", "48", 1); /* warned about on stderr, then ignored */
	copyperf_x86_tuning_compute(&zen4, &r);
	assert_int_equal(r.t.loop_vec, 32);
	assert_int_equal(r.loop_vec_from, FROM_MACHINE);
	unsetenv("COPYPERF_LOOP_VEC");
	/* the rule for lines alike widens the window below, never past its start */
	setenv("COPYPERF_REP_MOVSB_ALIGNED", "8K", 1);
	copyperf_x86_tuning_compute(&zen4, &r);
	assert_int_equal(r.t.rep_movsb_aligned, (size_t)8 << 10);
	assert_int_equal(r.rep_aligned_from, FROM_ENV);
	setenv("COPYPERF_REP_MOVSB_ALIGNED", "1G", 1);
	copyperf_x86_tuning_compute(&zen4, &r);
	assert_int_equal(r.t.rep_movsb_aligned, r.t.rep_movsb_min);
	unsetenv("COPYPERF_REP_MOVSB_ALIGNED");
	/* the string copy's distance rule: 0 to 4096, the whole span */
	setenv("COPYPERF_REP_MOVSB_NEAR", "0", 1);
	copyperf_x86_tuning_compute(&zen4, &r);
	assert_int_equal(r.t.rep_movsb_near, 0);
	assert_int_equal(r.rep_near_from, FROM_ENV);
	setenv("COPYPERF_REP_MOVSB_NEAR", "4K", 1);
	copyperf_x86_tuning_compute(&zen4, &r);
	assert_int_equal(r.t.rep_movsb_near, 4096);
	assert_int_equal(r.rep_near_from, FROM_ENV);
	setenv("COPYPERF_REP_MOVSB_NEAR", "4097", 1); /* warned about on stderr, then ignored */
	copyperf_x86_tuning_compute(&zen4, &r);
	assert_int_equal(r.t.rep_movsb_near, 64);
	assert_int_equal(r.rep_near_from, FROM_MACHINE);
	unsetenv("COPYPERF_REP_MOVSB_NEAR");
}

/*
 * The size below which the ladders jump straight to the loop past their
 * blocks: where copy_large would take nothing else, and no further.
 */
static void test_loop_only_below(void **state)
{
	const size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct x86_tuning_report r;
	struct x86_tuning t;

	(void)state;
	r = computed(0x19, true); /* 'rep movsb' from a page where the lines align */
	assert_int_equal(x86_loop_only_below(&r.t), page);
	r = computed(0, true); /* 'rep movsb' from a page */
	assert_int_equal(x86_loop_only_below(&r.t), page);
	r = computed(0x19, false); /* no string copy: the loop up to the non-temporal stores */
	assert_int_equal(x86_loop_only_below(&r.t), r.t.nt_threshold);
	/* before the thresholds are read: the large copy reads them */
	assert_int_equal(x86_loop_only_below(&(struct x86_tuning){ 0 }), 0);
	/* a window that starts with the aligned rule and holds nothing: the loop up to the stores */
	t = (struct x86_tuning){ .rep_movsb_min = 1 << 16, .rep_movsb_max = 1 << 16,
				 .rep_movsb_aligned = 1 << 16, .nt_threshold = 1 << 24 };
	assert_int_equal(x86_loop_only_below(&t), 1 << 24);
	t.nt_threshold = 1 << 12; /* the stores below the window start only where it does */
	assert_int_equal(x86_loop_only_below(&t), 1 << 16);
	t.rep_movsb_max = 1 << 20;
	assert_int_equal(x86_loop_only_below(&t), 1 << 16);
	/* the string copy from the first size */
	setenv("COPYPERF_REP_MOVSB_MIN", "0", 1);
	r = computed(0x19, true);
	assert_int_equal(r.t.loop_max, 0);
	unsetenv("COPYPERF_REP_MOVSB_MIN");
}

/*
 * No 'rep movsb' to a destination 1 to 63 bytes past its source within 4 KiB,
 * wherever the two lie (just past, a page and more past, or below), with the
 * distance of the families that keep the rule; with 0 or 1, none avoided.
 */
static void test_rep_movsb_aliased(void **state)
{
	static const uintptr_t avoided[] = { 1, 2, 15, 16, 63, 4097, 4159, (uintptr_t)1 << 32 | 5,
					     (uintptr_t)-4095 };
	static const uintptr_t allowed[] = { 0, 64, 65, 4095, 4096, 4160, (uintptr_t)-1, (uintptr_t)-63,
					     (uintptr_t)-4096 };
	struct x86_tuning rule = { .rep_movsb_near = 64 }, none = { 0 }, one = { .rep_movsb_near = 1 };

	(void)state;
	for (size_t i = 0; i < sizeof(avoided) / sizeof(avoided[0]); i++) {
		assert_true(x86_rep_movsb_aliased(&rule, avoided[i]));
		assert_false(x86_rep_movsb_aliased(&none, avoided[i]));
		assert_false(x86_rep_movsb_aliased(&one, avoided[i]));
	}
	for (size_t i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++) {
		assert_false(x86_rep_movsb_aliased(&rule, allowed[i]));
		assert_false(x86_rep_movsb_aliased(&none, allowed[i]));
	}
	/* the whole span: every destination but the source's own offset */
	rule.rep_movsb_near = 4096;
	assert_true(x86_rep_movsb_aliased(&rule, 4095));
	assert_false(x86_rep_movsb_aliased(&rule, 8192));
}

/*
 * The caches the tuning reads from CPUID on this machine's own processor are
 * the ones Linux's sysfs gives for the CPU the test runs on: the same sizes,
 * and the last level's share for each of the CPUs that share it.
 */
static void test_caches_as_sysfs_says(void **state)
{
	struct cp_cache caches[16];
	struct x86_tuning_report r;
	size_t n, l1d = 0, l2 = 0, llc = 0, llc_cpus = 1;
	int cpu;

	(void)state;
	copyperf_x86_tuning_compute(copyperf_x86_features(), &r);
	cpu = sched_getcpu();
	n = copyperf_cache_read(cpu < 0 ? 0 : (unsigned long)cpu, caches, 16);
	if (n == 0)
		skip(); /* no sysfs here to hold the figures against */
	for (size_t i = 0; i < n; i++) {
		if (caches[i].type[0] == 'I' || caches[i].size == 0)
			continue;
		if (caches[i].level == 1)
			l1d = caches[i].size;
		if (caches[i].level == 2)
			l2 = caches[i].size;
		if (caches[i].level >= 2 && caches[i].size >= llc) {
			llc = caches[i].size;
			llc_cpus = caches[i].shared_cpus;
		}
	}
	assert_int_equal(r.l1d, l1d);
	assert_int_equal(r.l2, l2);
	assert_int_equal(r.llc_per_cpu, llc / llc_cpus);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_intel, no_overrides),
		cmocka_unit_test_setup(test_zen4, no_overrides),
		cmocka_unit_test_setup(test_zen3, no_overrides),
		cmocka_unit_test_setup(test_zen5, no_overrides),
		cmocka_unit_test_setup(test_no_erms, no_overrides),
		cmocka_unit_test_setup(test_nt_past_the_share, no_overrides),
		cmocka_unit_test_setup(test_override, no_overrides),
		cmocka_unit_test_setup(test_loop_only_below, no_overrides),
		cmocka_unit_test_setup(test_rep_movsb_aliased, no_overrides),
		cmocka_unit_test_setup(test_caches_as_sysfs_says, no_overrides),
	};

	return cmocka_run_group_tests_name("copyperf_x86_tuning", tests, NULL, NULL);
}
