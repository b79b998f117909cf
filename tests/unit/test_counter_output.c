/* SPDX-License-Identifier: MIT */
/*
 * Hardware counters in every output format: cycles per byte and bytes per
 * cycle next to MB/s when a point carries them, and no trace of them when
 * none does (so the seed format stays byte for byte).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "assert_near.h"
#include "report/json_read.h"
#include "report/output.h"
#include "render_report.h"

/* 1 MiB copied per measurement, 2 measurements: 3 Mi cycles in all, 1.5 cycles/byte. */
static double samples[2] = { 0.001, 0.002 };

static char *render(void (*writer)(FILE *, const struct report *), int with_counters)
{
	static struct options o;
	static struct machine_info m;
	struct point_result p;
	struct report r = { .o = &o, .m = &m, .results = &p, .n = 1 };

	memset(&o, 0, sizeof(o));
	o.repeat = 2;
	o.total = o.buffer = 1 << 20;
	snprintf(m.cpu, sizeof(m.cpu), "test CPU");
	memset(&p, 0, sizeof(p));
	p.routine = "memcpy";
	p.space = "user";
	p.chunk = 4096;
	p.total = 1 << 20;
	p.repeats = 2;
	p.samples = samples;
	summarize(samples, 2, &p.seconds);
	p.verified = true;
	if (with_counters) {
		p.counters.measurements = 2;
		p.counters.present = 1u << COUNTER_CYCLES | 1u << COUNTER_INSTRUCTIONS;
		p.counters.count[COUNTER_CYCLES] = 3u << 20;
		p.counters.count[COUNTER_INSTRUCTIONS] = 1u << 20;
	}
	return render_report(writer, &r);
}

static void test_table(void **state)
{
	char *with = render(output_table, 1), *without = render(output_table, 0);

	(void)state;
	assert_non_null(strstr(with, "cyc/B    B/cyc"));
	assert_non_null(strstr(with, "  yes       1.500     0.67\n"));
	assert_null(strstr(without, "cyc/B"));
	free(with);
	free(without);
}

static void test_seed(void **state)
{
	char *with = render(output_seed, 1), *without = render(output_seed, 0);

	(void)state;
	assert_non_null(strstr(with, "[MB] | cycles: 1.500 [cycles/B] 0.67 [B/cycle]\n"));
	assert_null(strstr(without, "cycles"));
	free(with);
	free(without);
}

static void test_csv(void **state)
{
	char *with = render(output_csv, 1), *without = render(output_csv, 0);

	(void)state;
	assert_non_null(strstr(with, ",error,cycles,instructions,l1d_read_misses,llc_misses,"
				     "cycles_per_byte,bytes_per_cycle\n"));
	/* means per measurement; the uncounted events are empty fields */
	assert_non_null(strstr(with, "0.001;0.002,,1572864,524288,,,1.5,0.666667\n"));
	assert_non_null(strstr(without, "0.001;0.002,\n"));
	assert_null(strstr(without, "cycles"));
	free(with);
	free(without);
}

static void test_json(void **state)
{
	char *with = render(output_json, 1), *without = render(output_json, 0), why[200];
	struct json *doc = json_parse(with, strlen(with), why, sizeof(why));
	const struct json *results, *c;

	(void)state;
	if (!doc)
		fail_msg("the JSON output does not parse: %s", why);
	results = json_get_type(doc, "results", JSON_ARRAY);
	assert_non_null(results);
	c = json_get_type(&results->items[0], "counters", JSON_OBJECT);
	assert_non_null(c);
	assert_near(json_get(c, "cycles")->number, 1572864, 0);
	assert_near(json_get(c, "instructions")->number, 524288, 0);
	assert_int_equal(json_get(c, "llc_misses")->type, JSON_NULL);
	assert_near(json_get(c, "cycles_per_byte")->number, 1.5, 1e-9);
	assert_near(json_get(c, "bytes_per_cycle")->number, 2.0 / 3, 1e-9);
	assert_null(strstr(without, "counters"));
	json_free(doc);
	free(with);
	free(without);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_seed),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
