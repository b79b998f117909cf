/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sizes.h"

#define MAX_LIST 4096

static int shift_for_suffix(const char *suffix, unsigned *shift)
{
	static const struct {
		char letter;
		unsigned shift;
	} units[] = { { 0, 0 }, { 'K', 10 }, { 'M', 20 }, { 'G', 30 }, { 'T', 40 } };
	char c = (char)toupper((unsigned char)suffix[0]);
	size_t i;

	if (*suffix == '\0' || strcasecmp(suffix, "B") == 0) {
		*shift = 0;
		return 0;
	}
	for (i = 1; i < sizeof(units) / sizeof(units[0]); i++)
		if (c == units[i].letter)
			break;
	if (i == sizeof(units) / sizeof(units[0]))
		return -1;
	suffix++;
	if (*suffix && strcasecmp(suffix, "B") && strcasecmp(suffix, "iB"))
		return -1;
	*shift = units[i].shift;
	return 0;
}

int parse_size(const char *text, uint64_t *out, char *err, size_t errlen)
{
	unsigned long long value;
	unsigned shift;
	char *end;

	if (!isdigit((unsigned char)text[0])) {
		snprintf(err, errlen, "'%s' is not a size (a number, optionally with K, M, G or T)", text);
		return -1;
	}
	errno = 0;
	value = strtoull(text, &end, 10);
	if (errno == ERANGE) {
		snprintf(err, errlen, "'%s' is too large", text);
		return -1;
	}
	if (shift_for_suffix(end, &shift) != 0) {
		snprintf(err, errlen, "'%s' has an unknown unit '%s' (use K, M, G or T)", text, end);
		return -1;
	}
	if (shift && value > (UINT64_MAX >> shift)) {
		snprintf(err, errlen, "'%s' is too large", text);
		return -1;
	}
	*out = (uint64_t)value << shift;
	return 0;
}

static int is_power_of_two(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* Appends the powers of two from lo to hi (either order) to list. */
static int append_range(uint64_t lo, uint64_t hi, uint64_t *list, size_t *n)
{
	int down = lo > hi;
	uint64_t v = lo;

	for (;;) {
		if (*n == MAX_LIST)
			return -1;
		list[(*n)++] = v;
		if (v == hi)
			return 0;
		v = down ? v >> 1 : v << 1;
	}
}

static int parse_item(char *item, uint64_t *list, size_t *n, char *err, size_t errlen)
{
	char *dash = strchr(item, '-');
	uint64_t lo, hi;

	if (*item == '\0') {
		snprintf(err, errlen, "empty item in the list");
		return -1;
	}
	if (!dash) {
		if (parse_size(item, &lo, err, errlen))
			return -1;
		if (*n == MAX_LIST) {
			snprintf(err, errlen, "more than %d sizes", MAX_LIST);
			return -1;
		}
		list[(*n)++] = lo;
		return 0;
	}
	*dash = '\0';
	if (parse_size(item, &lo, err, errlen) || parse_size(dash + 1, &hi, err, errlen)) {
		/* the whole item: "-1" and "8-" are not one half of a range */
		snprintf(err, errlen, "'%s-%s' is not a size or a range of them (8-64K)", item,
			 dash + 1);
		return -1;
	}
	if (!is_power_of_two(lo) || !is_power_of_two(hi)) {
		snprintf(err, errlen, "range '%s-%s' must run between powers of two", item, dash + 1);
		return -1;
	}
	if (append_range(lo, hi, list, n)) {
		snprintf(err, errlen, "more than %d sizes", MAX_LIST);
		return -1;
	}
	return 0;
}

long parse_size_list(const char *text, uint64_t **out, char *err, size_t errlen)
{
	uint64_t *list = malloc(MAX_LIST * sizeof(*list));
	char *copy = strdup(text);
	char *cursor = copy, *item;
	size_t n = 0;

	if (!list || !copy) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (*text == '\0') {
		snprintf(err, errlen, "empty list");
		goto fail;
	}
	while ((item = strsep(&cursor, ",")) != NULL)
		if (parse_item(item, list, &n, err, errlen))
			goto fail;
	free(copy);
	*out = list;
	return (long)n;
fail:
	free(list);
	free(copy);
	return -1;
}

void format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned u = 0;
	double v = (double)bytes;

	while (v >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024;
		u++;
	}
	if (v == (double)(uint64_t)v)
		snprintf(buf, len, "%llu %s", (unsigned long long)v, units[u]);
	else
		snprintf(buf, len, "%.1f %s", v, units[u]);
}
