/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpu_order.h"
#include "measure/hardware/sys_file.h"

static bool same_core(const struct cpu_place *a, const struct cpu_place *b)
{
	return a->core >= 0 && a->package == b->package && a->core == b->core;
}

/* How many CPUs of the same core come before c in number: 0 for a core's first. */
static size_t sibling_rank(const struct cpu_place *cpus, size_t n, size_t c)
{
	size_t rank = 0;

	for (size_t i = 0; i < n; i++)
		rank += i != c && same_core(&cpus[i], &cpus[c]) && cpus[i].cpu < cpus[c].cpu;
	return rank;
}

void cpu_order(const struct cpu_place *cpus, size_t n, int *out)
{
	size_t placed = 0;

	for (size_t round = 0; placed < n; round++) {
		int last = -1;

		/* this round's CPUs in ascending number: the smallest above the last placed */
		for (;;) {
			size_t best = n;

			for (size_t i = 0; i < n; i++)
				if (cpus[i].cpu > last && (best == n || cpus[i].cpu < cpus[best].cpu) &&
				    sibling_rank(cpus, n, i) == round)
					best = i;
			if (best == n)
				break;
			out[placed++] = last = cpus[best].cpu;
		}
	}
}

long cpu_list_parse(const char *text, int *out, size_t max)
{
	size_t n = 0;
	const char *p = text;

	while (*p && *p != '\n') {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p || lo < 0)
			return -1;
		p = end;
		if (*p == '-') {
			hi = strtol(p + 1, &end, 10);
			if (end == p + 1 || hi < lo)
				return -1;
			p = end;
		}
		for (long c = lo; c <= hi; c++) {
			if (n == max)
				return -1;
			out[n++] = (int)c;
		}
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -1;
	}
	return (long)n;
}

void cpu_list_format(const int *cpus, size_t n, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		int w = snprintf(buf + used, len - used, "%s%d", i ? "," : "", cpus[i]);
		char *comma;

		if (w >= 0 && (size_t)w < len - used) {
			used += (size_t)w;
			continue;
		}
		/* cut after whole numbers, where "..." still fits */
		buf[used] = '\0';
		while (used + 4 > len && (comma = strrchr(buf, ',')) != NULL)
			*comma = '\0', used = (size_t)(comma - buf);
		if (used + 4 <= len)
			strcpy(buf + used, "...");
		return;
	}
}

static int read_topology(int cpu, const char *what)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, what);
	return (int)sys_file_number(path, -1);
}

int cpu_pin_self(int cpu)
{
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return EINVAL;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

long cpu_order_read(int *out, size_t max)
{
	cpu_set_t set;
	struct cpu_place *cpus;
	size_t n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	cpus = calloc(CPU_SETSIZE, sizeof(*cpus));
	if (!cpus)
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = (struct cpu_place){ c, read_topology(c, "physical_package_id"),
							read_topology(c, "core_id") };
	if (n > max) {
		free(cpus);
		return -1;
	}
	cpu_order(cpus, n, out);
	free(cpus);
	return (long)n;
}
