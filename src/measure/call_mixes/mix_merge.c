/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "distribution.h"
#include "mix_merge.h"

unsigned long long mix_calls(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];
	unsigned long long n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "# calls %llu", &n) == 1)
			break;
	fclose(f);
	return n;
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

/* Adds the recording at path, of c calls, to lines.  0, or -1 with the reason in err. */
static int add_file(struct weights *lines, const char *path, unsigned long long c, char *err,
		    size_t errlen)
{
	struct distribution d;
	int status = 0;

	if (distribution_read(&d, path, NULL, err, errlen))
		return -1;
	if (c == 0) {
		snprintf(err, errlen, "%s: no \"# calls N\" line: its weight is not known", path);
		status = -1;
	}
	for (size_t k = 0; !status && k < d.n_sizes; k++)
		status = add(&lines[0], d.sizes[k].value, d.sizes[k].p * (double)c);
	if (!status)
		status = add(&lines[1], 0, (1 - d.overlap) * (double)c) ||
			 add(&lines[1], 1, d.overlap * (double)c) ? -1 : 0;
	for (size_t k = 0; !status && k < d.n_aligns; k++)
		status = add(&lines[2], d.aligns[k].value, d.aligns[k].p * (double)c);
	if (status && c)
		snprintf(err, errlen, "out of memory merging the recordings");
	distribution_free(&d);
	return status;
}

int mix_merge(const char *const *paths, size_t n, const char *out, unsigned long long *calls,
	      char *err, size_t errlen)
{
	struct weights lines[3] = { { 0 } };
	unsigned long long total = 0;
	int status = 0;
	FILE *f;

	for (size_t i = 0; i < n && !status; i++) {
		unsigned long long c = mix_calls(paths[i]);

		status = add_file(lines, paths[i], c, err, errlen);
		total += c;
	}
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
