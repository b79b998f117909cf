/* SPDX-License-Identifier: MIT */
/* Summary statistics of repeated measurements. */
#ifndef COPYPERF_STATS_H
#define COPYPERF_STATS_H

#include <stddef.h>

struct summary {
	double median;
	double min;
	double max;
	double mean;
	double stddev; /* sample standard deviation; 0 for one sample */
};

/* Summarises n > 0 samples (the array is left untouched). */
void summarize(const double *samples, size_t n, struct summary *out);

/* The same, sorting in scratch (n doubles) instead of memory it would allocate. */
void summarize_in(const double *samples, size_t n, double *scratch, struct summary *out);

/* Orders doubles for qsort, ascending. */
int compare_doubles(const void *a, const void *b);

/* The median of n > 0 samples: the middle one, or the mean of the middle two. */
double median_of(const double *samples, size_t n);

/* exp(mean(log v)) of n > 0 positive ratios. */
double geometric_mean(const double *v, size_t n);

#endif
