/* SPDX-License-Identifier: MIT */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpu_order.h"
#include "thread_plan.h"

long thread_counts_resolve(const unsigned *asked, size_t n, size_t n_cpus, unsigned *out,
			   unsigned *bad)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned c = asked[i] ? asked[i] : (unsigned)n_cpus;
		size_t k = 0;

		if (c > n_cpus) {
			*bad = c;
			return -1;
		}
		while (k < m && out[k] != c)
			k++;
		if (k == m)
			out[m++] = c;
	}
	return (long)m;
}

int thread_plan_make(struct thread_plan *tp, const struct measure_params *params, char *err,
		     size_t errlen)
{
	char list[256];
	unsigned bad = 0;
	long n;

	memset(tp, 0, sizeof(*tp));
	if (!params->threads)
		return 0;
	tp->cpus = calloc(CPU_SETSIZE, sizeof(*tp->cpus));
	tp->counts = calloc(params->n_threads, sizeof(*tp->counts));
	if (!tp->cpus || !tp->counts) {
		snprintf(err, errlen, "--threads: out of memory");
		return -1;
	}
	n = cpu_order_read(tp->cpus, CPU_SETSIZE);
	if (n <= 0) {
		snprintf(err, errlen, "--threads: cannot read the CPUs this process may use");
		return -1;
	}
	tp->n_cpus = (size_t)n;
	n = thread_counts_resolve(params->threads, params->n_threads, tp->n_cpus, tp->counts, &bad);
	if (n < 0) {
		cpu_list_format(tp->cpus, tp->n_cpus, list, sizeof(list));
		snprintf(err, errlen, "--threads: %u threads, but this process may run on %zu CPU%s "
			 "only (%s), one thread each", bad, tp->n_cpus, tp->n_cpus == 1 ? "" : "s",
			 list);
		return -1;
	}
	tp->n_counts = (size_t)n;
	for (size_t i = 0; i < tp->n_counts; i++)
		tp->most = tp->counts[i] > tp->most ? tp->counts[i] : tp->most;
	return 0;
}

void thread_plan_free(struct thread_plan *tp)
{
	free(tp->cpus);
	free(tp->counts);
	memset(tp, 0, sizeof(*tp));
}
