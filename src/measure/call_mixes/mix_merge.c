/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "distribution.h"
#include "mix_merge.h"

int mix_calls(const char *path, unsigned long long *n)
{
	static const char key[] = "# calls ";
	FILE *f = fopen(path, "r");
	char line[256];
	int status = -1;

	if (!f)
		return -1;
	while (status && fgets(line, sizeof(line), f)) {
		const char *digits = line + sizeof(key) - 1;
		char *end;

		if (strncmp(line, key, sizeof(key) - 1))
			continue;
		errno = 0;
		*n = strtoull(digits, &end, 10);
		if (*digits < '0' || *digits > '9' || errno || (*end != '\n' && *end != '\0'))
			break;
		status = 0;
	}
	fclose(f);
	return status;
}

/* One line's values, each with the calls it stands for (a probability times a file's calls). */
struct weights {
	struct { uint64_t value; double calls; } *v;
	size_t n, cap;
};

static int add(struct weights *w, uint64_t value, double calls)
{
	if (w->n == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 64;
		void *grown = realloc(w->v, cap * sizeof(*w->v));

		if (!grown)
			return -1;
		w->v = grown;
		w->cap = cap;
	}
	w->v[w->n].value = value;
	w->v[w->n++].calls = calls;
	return 0;
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Writes w's values as one line "value:probability,...", equal values summed, ascending. */
static void write_line(FILE *f, struct weights *w, double total)
{
	qsort(w->v, w->n, sizeof(*w->v), by_value);
	for (size_t i = 0; i < w->n;) {
		uint64_t value = w->v[i].value;
		double calls = 0;

		while (i < w->n && w->v[i].value == value)
			calls += w->v[i++].calls;
		fprintf(f, "%s%llu:%.9g", value == w->v[0].value ? "" : ",", (unsigned long long)value,
			calls / total);
	}
	fputc('\n', f);
}

/*
 * Adds the recording at path to lines and its calls to *total.  0, or -1
 * with the reason in err.
 */
static int add_file(struct weights *lines, const char *path, unsigned long long *total,
		    char *err, size_t errlen)
{
	struct distribution d;
	unsigned long long c;
	int status = 0;

	if (mix_calls(path, &c)) {
		snprintf(err, errlen, "%s: no \"# calls N\" line with a whole number: its weight is "
			 "not known", path);
		return -1;
	}
	if (c == 0)
		return 0;
	if (c > ULLONG_MAX - *total) {
		snprintf(err, errlen, "%s: more calls in all than a count holds", path);
		return -1;
	}
	if (distribution_read(&d, path, NULL, err, errlen))
		return -1;
	for (size_t k = 0; !status && k < d.n_sizes; k++)
		status = add(&lines[0], d.sizes[k].value, d.sizes[k].p * (double)c);
	if (!status)
		status = add(&lines[1], 0, (1 - d.overlap) * (double)c) ||
			 add(&lines[1], 1, d.overlap * (double)c) ? -1 : 0;
	for (size_t k = 0; !status && k < d.n_aligns; k++)
		status = add(&lines[2], d.aligns[k].value, d.aligns[k].p * (double)c);
	distribution_free(&d);
	if (status)
		snprintf(err, errlen, "out of memory merging the recordings");
	else
		*total += c;
	return status;
}

int mix_merge(const char *const *paths, size_t n, const char *out, unsigned long long *calls,
	      char *err, size_t errlen)
{
	struct weights lines[3] = { { 0 } };
	unsigned long long total = 0;
	int status = 0;
	FILE *f = NULL;

	for (size_t i = 0; i < n && !status; i++)
		status = add_file(lines, paths[i], &total, err, errlen);
	if (!status && total == 0) {
		snprintf(err, errlen, "no calls in the %zu recording%s", n, n == 1 ? "" : "s");
		status = -1;
	}
	if (!status && !(f = fopen(out, "w"))) {
		snprintf(err, errlen, "%s: cannot be written (%s)", out, strerror(errno));
		status = -1;
	}
	if (!status) {
		for (int k = 0; k < 3; k++)
			write_line(f, &lines[k], (double)total);
		fprintf(f, "# calls %llu\n", total);
		if (fclose(f)) {
			snprintf(err, errlen, "%s: cannot be written (%s)", out, strerror(errno));
			status = -1;
		}
	}
	for (int k = 0; k < 3; k++)
		free(lines[k].v);
	*calls = status ? 0 : total;
	return status;
}
