/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stats.h"
#include "xalloc.h"

int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_sorted(const double *sorted, size_t n)
{
	return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

static double median_in(const double *samples, size_t n, double *sorted)
{
	memcpy(sorted, samples, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), compare_doubles);
	return median_sorted(sorted, n);
}

double median_of(const double *samples, size_t n)
{
	double stack[64], *sorted = n <= 64 ? stack : xcalloc(n, sizeof(*sorted), "a median");
	double m;

	m = median_in(samples, n, sorted);
	if (sorted != stack)
		free(sorted);
	return m;
}

void summarize(const double *samples, size_t n, struct summary *out)
{
	summarize_in(samples, n, NULL, out);
}

void summarize_in(const double *samples, size_t n, double *scratch, struct summary *out)
{
	double sum = 0, sq = 0;

	out->min = out->max = samples[0];
	for (size_t i = 0; i < n; i++) {
		sum += samples[i];
		if (samples[i] < out->min)
			out->min = samples[i];
		if (samples[i] > out->max)
			out->max = samples[i];
	}
	out->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		sq += (samples[i] - out->mean) * (samples[i] - out->mean);
	out->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
	out->median = scratch ? median_in(samples, n, scratch) : median_of(samples, n);
}

double geometric_mean(const double *v, size_t n)
{
	double sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += log(v[i]);
	return exp(sum / (double)n);
}
