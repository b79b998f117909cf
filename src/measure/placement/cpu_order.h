/* SPDX-License-Identifier: MIT */
/*
 * Which CPUs the threads of -j run on: those the process may use, one per
 * physical core first, then the cores' second SMT siblings, and so on.
 */
#ifndef COPYPERF_CPU_ORDER_H
#define COPYPERF_CPU_ORDER_H

#include <stddef.h>

/* A CPU and the core it belongs to (package and core id, -1 when unknown). */
struct cpu_place {
	int cpu;
	int package, core;
};

/*
 * Orders n CPUs (given in any order) into out: first the lowest-numbered CPU
 * of every core, then every core's next sibling, each round by CPU number.
 * A CPU whose core is unknown counts as a core of its own.
 */
void cpu_order(const struct cpu_place *cpus, size_t n, int *out);

/*
 * Parses a kernel CPU list ("0-3,8,10-11") into out (at most max, ascending
 * as written); returns how many, or -1 when the text is not such a list.
 */
long cpu_list_parse(const char *text, int *out, size_t max);

/* Writes cpus as "0,1,2" into buf (cut short, with "...", when it does not fit). */
void cpu_list_format(const int *cpus, size_t n, char *buf, size_t len);

/* Pins the calling thread to cpu: 0, or the error number. */
int cpu_pin_self(int cpu);

/*
 * The CPUs this process may run on, in cpu_order's order, read from its
 * affinity mask and /sys/devices/system/cpu/cpuN/topology; returns how many
 * (at most max), or -1 when the mask cannot be read.
 */
long cpu_order_read(int *out, size_t max);

#endif
