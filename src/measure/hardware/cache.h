/* SPDX-License-Identifier: MIT */
/* Cache control and the cache sizes the process really gets. */
#ifndef COPYPERF_CACHE_H
#define COPYPERF_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include "../../../lib/cache_info.h"

/* Non-zero where cache_flush() works on this architecture and CPU. */
int cache_flush_supported(void);

/* Writes back and invalidates [p, p+len) from every cache level, and waits for it. */
void cache_flush(const void *p, size_t len);

#define MAX_CACHE_LEVELS 8

/* Fills levels with CPU 0's caches from sysfs (or sysconf); returns how many were found. */
size_t cache_levels(struct cp_cache *levels, size_t max);

/* The data or unified cache of a level (1, 2 ...; 0: the last) in bytes, or 0 if unknown. */
uint64_t cache_data_size(unsigned level);

/* The largest data or unified cache in bytes, or 0 if unknown. */
uint64_t cache_last_level_size(void);

/*
 * Bytes a walk must cover so that nothing of it is still cached when it comes
 * back: twice the last level (64 MiB assumed where the machine does not say).
 */
uint64_t cache_cold_bytes(void);

/*
 * Where no instruction writes a line back (cache_flush_supported() is 0:
 * RISC-V without Zicbom, ...), lines are pushed out by reading others:
 * cache_cold_bytes() of its own memory, each page written once when opened so
 * that it is a page of its own (untouched anonymous pages all read the one
 * zero page, which evicts nothing).
 */
struct cache_evictor {
	unsigned char *p;
	size_t len;
};

/* 0, or -1 with errno when the memory cannot be had. */
int cache_evictor_open(struct cache_evictor *e);
/* Reads a word of each line: what was cached before is then out of every level. */
void cache_evict(const struct cache_evictor *e);
void cache_evictor_close(struct cache_evictor *e);

/* The data-cache line size in bytes (64 when unknown). */
unsigned cache_line_size(void);

#endif
