/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "mann_whitney.h"
#include "stats.h"
#include "xalloc.h"

/*
 * Under the null hypothesis, without ties, every one of the C(m+n, m)
 * orderings is equally likely; the number of them with U = u is the
 * coefficient of q^u in the Gaussian binomial [m+n, m]_q
 * = prod_{k=1..m} (1 - q^(n+k)) / (1 - q^k).  Every intermediate polynomial
 * has integer coefficients below 2 C(m+n, m), exact in a double for m+n <= 50.
 */
static double *u_counts(size_t m, size_t n)
{
	size_t top = m * n;
	double *c = xcalloc(top + 1, sizeof(*c), "a rank test");

	c[0] = 1;
	for (size_t k = 1; k <= m; k++) {
		/* multiply by (1 - q^(n+k)), highest degree first so c[] is read before written */
		for (size_t u = top; u >= n + k; u--)
			c[u] -= c[u - (n + k)];
		/* divide by (1 - q^k): c[u] += c[u-k], lowest degree first */
		for (size_t u = k; u <= top; u++)
			c[u] += c[u - k];
	}
	return c;
}

static double exact_p(double u, size_t m, size_t n)
{
	double *c = u_counts(m, n), all = 0, below = 0, above = 0, p;
	size_t top = m * n;

	for (size_t v = 0; v <= top; v++) {
		all += c[v];
		if ((double)v <= u)
			below += c[v];
		if ((double)v >= u)
			above += c[v];
	}
	free(c);
	p = 2 * (below < above ? below : above) / all;
	return p < 1 ? p : 1;
}

/* Sum of t^3 - t over the groups of t tied values among all samples. */
static double tie_term(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = na + nb;
	double *all = xcalloc(n, sizeof(*all), "a rank test"), sum = 0;

	memcpy(all, a, na * sizeof(*a));
	memcpy(all + na, b, nb * sizeof(*b));
	qsort(all, n, sizeof(*all), compare_doubles);
	for (size_t i = 0, j; i < n; i = j) {
		double t;

		for (j = i + 1; j < n && all[j] == all[i]; j++)
			;
		t = (double)(j - i);
		sum += t * t * t - t;
	}
	free(all);
	return sum;
}

static double normal_p(double u, size_t na, size_t nb, double ties)
{
	double m = (double)na, n = (double)nb, N = m + n;
	double var = m * n / 12 * ((N + 1) - ties / (N * (N - 1)));
	double dev = fabs(u - m * n / 2) - 0.5;

	if (var <= 0)
		return 1; /* every sample equal: no evidence either way */
	if (dev < 0)
		dev = 0;
	return erfc(dev / sqrt(var) / sqrt(2.0));
}

/* Past this many orderings, tied samples get the normal approximation instead. */
#define TIES_EXACT_MAX_ORDERINGS 200000.0

static double orderings(size_t m, size_t n)
{
	double c = 1;

	for (size_t k = 1; k <= m; k++)
		c = c * (double)(n + k) / (double)k;
	return c;
}

double mann_whitney_min_p(size_t m, size_t n)
{
	return 2 / orderings(m, n);
}

/* Mid-ranks (ties share the mean of their ranks), doubled so they stay whole numbers. */
static void doubled_ranks(const double *all, size_t n, long *rank2)
{
	for (size_t i = 0; i < n; i++) {
		long below = 0, equal = 0;

		for (size_t j = 0; j < n; j++) {
			below += all[j] < all[i];
			equal += all[j] == all[i];
		}
		rank2[i] = 2 * below + equal + 1;
	}
}

/*
 * With ties, the exact null distribution: every choice of which m of the
 * pooled samples are a's, equally likely, and its rank sum.  Small samples
 * only (the caller checks the count); the normal approximation is poor there.
 */
static double exact_p_ties(const double *a, size_t m, const double *b, size_t n)
{
	size_t N = m + n, idx[MANN_WHITNEY_EXACT_MAX];
	double all[MANN_WHITNEY_EXACT_MAX], below = 0, above = 0, total = 0, p;
	long rank2[MANN_WHITNEY_EXACT_MAX], observed = 0;

	memcpy(all, a, m * sizeof(*a));
	memcpy(all + m, b, n * sizeof(*b));
	doubled_ranks(all, N, rank2);
	for (size_t i = 0; i < m; i++) {
		observed += rank2[i];
		idx[i] = i;
	}
	for (;;) {
		long sum = 0;
		size_t k;

		for (size_t i = 0; i < m; i++)
			sum += rank2[idx[i]];
		total++;
		below += sum <= observed;
		above += sum >= observed;
		/* the next m-combination of 0..N-1 in lexicographic order */
		for (k = m; k-- > 0 && idx[k] == N - m + k;)
			;
		if (k == (size_t)-1)
			break;
		idx[k]++;
		for (size_t i = k + 1; i < m; i++)
			idx[i] = idx[i - 1] + 1;
	}
	p = 2 * (below < above ? below : above) / total;
	return p < 1 ? p : 1;
}

struct tagged {
	double v;
	int from_a;
};

static int by_value(const void *x, const void *y)
{
	return compare_doubles(&((const struct tagged *)x)->v, &((const struct tagged *)y)->v);
}

/*
 * U of a against b, the pairs with a's sample above b's plus half the ties,
 * from a's rank sum after one sort: pair by pair, a 10^5-sample row took 30 s.
 */
static double u_statistic(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = na + nb;
	struct tagged *all = xcalloc(n, sizeof(*all), "a rank test");
	double rank_sum = 0;

	for (size_t i = 0; i < n; i++)
		all[i] = (struct tagged){ i < na ? a[i] : b[i - na], i < na };
	qsort(all, n, sizeof(*all), by_value);
	for (size_t i = 0, j; i < n; i = j) {
		size_t in_a = 0;

		for (j = i; j < n && all[j].v == all[i].v; j++)
			in_a += (size_t)all[j].from_a;
		/* positions i+1 .. j share their mean rank */
		rank_sum += (double)in_a * (double)(i + 1 + j) / 2;
	}
	free(all);
	return rank_sum - (double)na * (double)(na + 1) / 2;
}

void mann_whitney(const double *a, size_t na, const double *b, size_t nb, struct mann_whitney *out)
{
	double u = u_statistic(a, na, b, nb), ties = tie_term(a, na, b, nb);

	out->u = u;
	out->exact = na + nb <= MANN_WHITNEY_EXACT_MAX &&
		     (ties == 0 || orderings(na, nb) <= TIES_EXACT_MAX_ORDERINGS);
	if (!out->exact)
		out->p = normal_p(u, na, nb, ties);
	else if (ties == 0)
		out->p = exact_p(u, na, nb);
	else
		out->p = exact_p_ties(a, na, b, nb);
}
