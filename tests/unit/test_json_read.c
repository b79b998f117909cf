/* SPDX-License-Identifier: MIT */
/* The JSON reader that `plot` and `compare` read results files with. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "assert_near.h"
#include "report/json_read.h"

static struct json *parse(const char *text, char *why)
{
	return json_parse(text, strlen(text), why, 200);
}

static void test_document(void **state)
{
	char why[200] = "";
	struct json *v = parse(" {\"tool\":\"copyperf\", \"n\": -12.5e1, \"ok\": true,\n"
			       "  \"list\": [1, [], {}, null, false], \"empty\": \"\"}\n",
			       why);
	const struct json *list;

	(void)state;
	assert_non_null(v);
	assert_int_equal(v->type, JSON_OBJECT);
	assert_int_equal(v->n, 5);
	assert_string_equal(json_get_type(v, "tool", JSON_STRING)->string, "copyperf");
	assert_near(json_get_type(v, "n", JSON_NUMBER)->number, -125, 0);
	assert_int_equal(json_get(v, "ok")->type, JSON_TRUE);
	assert_null(json_get(v, "missing"));
	assert_null(json_get_type(v, "ok", JSON_STRING));
	list = json_get_type(v, "list", JSON_ARRAY);
	assert_non_null(list);
	assert_int_equal(list->n, 5);
	assert_near(list->items[0].number, 1, 0);
	assert_int_equal(list->items[1].type, JSON_ARRAY);
	assert_int_equal(list->items[1].n, 0);
	assert_int_equal(list->items[2].type, JSON_OBJECT);
	assert_int_equal(list->items[3].type, JSON_NULL);
	assert_int_equal(list->items[4].type, JSON_FALSE);
	assert_string_equal(json_get(v, "empty")->string, "");
	json_free(v);
}

static void test_string_escapes(void **state)
{
	char why[200] = "";
	/* \u00e9 is 2 UTF-8 bytes, \u20ac 3, the surrogate pair of U+1F600 4 */
	struct json *v = parse("\"a\\\"b\\\\c\\/d\\n\\t\\u00e9\\u20ac\\ud83d\\ude00\"", why);

	(void)state;
	assert_non_null(v);
	assert_string_equal(v->string, "a\"b\\c/d\n\t\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	json_free(v);
}

static void test_numbers(void **state)
{
	static const char *const good[] = { "0", "-0", "1.5", "2e3", "2E+3", "25e-1", "123456789" };
	static const double value[] = { 0, 0, 1.5, 2000, 2000, 2.5, 123456789 };
	static const char *const bad[] = { "01", "1.", ".5", "-", "+1", "1e", "0x10", "NaN" };
	char why[200];

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct json *v = parse(good[i], why);

		assert_non_null(v);
		assert_near(v->number, value[i], 0);
		json_free(v);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (parse(bad[i], why))
			fail_msg("'%s' was accepted as a number", bad[i]);
}

/* Seeds are 64-bit: a whole number reads exactly, where a double would round it. */
static void test_whole_numbers_are_exact(void **state)
{
	static const struct {
		const char *text;
		int is_whole;
		uint64_t whole;
	} cases[] = {
		{ "0", 1, 0 },
		{ "18446744073709551615", 1, UINT64_MAX },
		{ "9007199254740993", 1, 9007199254740993u }, /* 2^53 + 1: no double holds it */
		{ "18446744073709551616", 0, 0 },             /* 2^64 */
		{ "-0", 0, 0 },
		{ "-1", 0, 0 },
		{ "4096.0", 0, 0 },
		{ "1e3", 0, 0 },
	};
	char why[200];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct json *v = parse(cases[i].text, why);

		assert_non_null(v);
		if (v->is_whole != cases[i].is_whole)
			fail_msg("'%s': is_whole %d", cases[i].text, v->is_whole);
		if (cases[i].is_whole)
			assert_true(v->whole == cases[i].whole);
		json_free(v);
	}
}

static void test_errors_name_the_place(void **state)
{
	static const struct {
		const char *text, *why;
	} cases[] = {
		{ "{\"a\":1,\n \"b\" 2}", "line 2, column 6: expected ':'" },
		{ "[1, 2", "expected ',' or ']', found the end" },
		{ "[1,]", "line 1, column 4: unexpected character ']'" },
		{ "{\"a\":1,}", "expected a member name in quotes" },
		{ "{\"a\":1} x", "unexpected text after the value" },
		{ "\"abc", "unterminated string" },
		{ "\"a\tb\"", "control character in a string" },
		{ "\"\\x\"", "bad escape '\\x'" },
		{ "\"\\ud800\"", "high surrogate without its low half" },
		{ "\"\\u0000\"", "\\u0000 in a string is not supported" },
		{ "tru", "unexpected character 't'" },
		{ "", "expected a value, found the end" },
	};
	char why[200];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		why[0] = '\0';
		assert_null(parse(cases[i].text, why));
		if (!strstr(why, cases[i].why))
			fail_msg("'%s': reason '%s' lacks '%s'", cases[i].text, why, cases[i].why);
	}
}

static void test_depth_is_bounded(void **state)
{
	char text[300], why[200] = "";
	struct json *v;

	(void)state;
	memset(text, '[', 200);
	memset(text + 200, ']', 1);
	text[201] = '\0';
	assert_null(parse(text, why));
	assert_non_null(strstr(why, "nested deeper than"));
	/* 60 levels are fine */
	memset(text, '[', 60);
	memset(text + 60, ']', 60);
	text[120] = '\0';
	v = parse(text, why);
	assert_non_null(v);
	json_free(v);
}

static void test_repeated_key_takes_the_last(void **state)
{
	char why[200];
	struct json *v = parse("{\"k\":1,\"k\":2}", why);

	(void)state;
	assert_near(json_get(v, "k")->number, 2, 0);
	json_free(v);
}

static void test_length_not_nul(void **state)
{
	char why[200];
	struct json *v = json_parse("[1]garbage", 3, why, sizeof(why));

	(void)state;
	assert_non_null(v);
	assert_int_equal(v->n, 1);
	json_free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_document),
		cmocka_unit_test(test_string_escapes),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_whole_numbers_are_exact),
		cmocka_unit_test(test_errors_name_the_place),
		cmocka_unit_test(test_depth_is_bounded),
		cmocka_unit_test(test_repeated_key_takes_the_last),
		cmocka_unit_test(test_length_not_nul),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
