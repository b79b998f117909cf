/* SPDX-License-Identifier: MIT */
/*
 * The caches of a CPU as Linux describes them in sysfs, read without stdio
 * and without allocation: the library's thresholds are derived while the
 * process loads (maybe as an LD_PRELOAD memcpy), and the command reports the
 * same figures, from the same reader.
 */
#ifndef COPYPERF_CACHE_INFO_H
#define COPYPERF_CACHE_INFO_H

#include <stdbool.h>
#include <stddef.h>

#pragma GCC visibility push(hidden)

struct cp_cache {
	unsigned level;     /* 1, 2, 3 ... */
	char type[16];      /* Data, Instruction or Unified */
	size_t size;        /* bytes; 0 if sysfs gives none */
	unsigned line;      /* coherency line size in bytes; 0 if sysfs gives none */
	size_t shared_cpus; /* CPUs that share it; 1 if sysfs gives none */
};

/* Reads /sys/devices/system/cpu/cpu<cpu>/cache/index*; returns how many (at most max) it found. */
size_t copyperf_cache_read(unsigned long cpu, struct cp_cache *out, size_t max);

/* The CPUs that share cache index<index> of cpu<cpu> (one file); 0 if sysfs gives none. */
size_t copyperf_cache_shared_cpus(unsigned long cpu, unsigned long index);

/*
 * Parses digits and an optional K, M or G (powers of 1024, either case), as
 * sysfs writes cache sizes and as the COPYPERF_* variables take them. False
 * on anything else or on overflow; *end is where parsing stopped.
 */
bool copyperf_parse_size(const char *s, size_t *out, const char **end);

#pragma GCC visibility pop

#endif
