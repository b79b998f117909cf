/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__powerpc__) || defined(__aarch64__)
#include <sys/auxv.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include "cache.h"

/*
 * Each architecture names its write-back-and-invalidate of one line, the
 * barrier around the walk and the line size the walk steps by; cache_flush()
 * below is the same walk for all of them.
 */
#if defined(__x86_64__) || defined(__i386__)

#define FLUSH_SUPPORTED 1

/* CPUID.(EAX=7,ECX=0):EBX bit 23; without it, the serialising clflush. */
static int have_clflushopt(void)
{
	static int known = -1; /* threads may ask at once: they find the same answer */
	int k = __atomic_load_n(&known, __ATOMIC_RELAXED);
	unsigned a, b, c, d;

	if (k < 0) {
		k = __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 23));
		__atomic_store_n(&known, k, __ATOMIC_RELAXED);
	}
	return k;
}

static void flush_fence(void)
{
	__asm__ volatile("mfence" ::: "memory");
}

static void flush_line(const char *c, int opt)
{
	if (opt)
		__asm__ volatile("clflushopt %0" : "+m"(*(volatile char *)c));
	else
		__asm__ volatile("clflush %0" : "+m"(*(volatile char *)c));
}

#define FLUSH_VARIANT() have_clflushopt()
#define FLUSH_STEP() cache_line_size()

#elif defined(__aarch64__)

#define FLUSH_SUPPORTED 1

static void flush_fence(void)
{
	__asm__ volatile("dsb ish" ::: "memory");
}

static void flush_line(const char *c, int unused)
{
	(void)unused;
	__asm__ volatile("dc civac, %0" ::"r"(c) : "memory");
}

/* CTR_EL0.DminLine: log2 of the words in the smallest data line of any level. */
static unsigned smallest_line(void)
{
	uint64_t ctr;

	__asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
	return 4u << ((ctr >> 16) & 0xf);
}

#define FLUSH_VARIANT() 0
#define FLUSH_STEP() smallest_line()

#elif defined(__powerpc__)

#define FLUSH_SUPPORTED 1

static void flush_fence(void)
{
	__asm__ volatile("sync" ::: "memory");
}

static void flush_line(const char *c, int unused)
{
	(void)unused;
	__asm__ volatile("dcbf 0,%0" ::"r"(c) : "memory");
}

#define FLUSH_VARIANT() 0
#define FLUSH_STEP() cache_line_size()

#else

#define FLUSH_SUPPORTED 0

#endif

int cache_flush_supported(void)
{
	return FLUSH_SUPPORTED;
}

void cache_flush(const void *p, size_t len)
{
#if FLUSH_SUPPORTED
	unsigned line = FLUSH_STEP();
	int variant = FLUSH_VARIANT();
	const char *c = (const char *)((uintptr_t)p & ~(uintptr_t)(line - 1));
	const char *end = (const char *)p + len;

	flush_fence();
	for (; c < end; c += line)
		flush_line(c, variant);
	flush_fence();
#else
	(void)p;
	(void)len;
#endif
}

/* Sysfs by the library's reader, the one its thresholds come from. */
size_t cache_levels(struct cp_cache *levels, size_t max)
{
	size_t n = copyperf_cache_read(0, levels, max);

#ifdef _SC_LEVEL1_DCACHE_SIZE
	if (n == 0) { /* no sysfs: glibc's own view, where it has one */
		static const struct {
			int size, line;
			unsigned level;
			const char *type;
		} q[] = {
			{ _SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL1_DCACHE_LINESIZE, 1, "Data" },
			{ _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL2_CACHE_LINESIZE, 2, "Unified" },
			{ _SC_LEVEL3_CACHE_SIZE, _SC_LEVEL3_CACHE_LINESIZE, 3, "Unified" },
		};
		for (size_t i = 0; i < 3 && n < max; i++) {
			long size = sysconf(q[i].size), line = sysconf(q[i].line);

			if (size <= 0)
				continue;
			memset(&levels[n], 0, sizeof(levels[n]));
			levels[n].level = q[i].level;
			snprintf(levels[n].type, sizeof(levels[n].type), "%s", q[i].type);
			levels[n].size = (size_t)size;
			levels[n].line = line > 0 ? (unsigned)line : 0;
			levels[n].shared_cpus = 1;
			n++;
		}
	}
#endif
	return n;
}

/* The data (or unified) cache of that level, or of the highest level for 0; NULL if none. */
static const struct cp_cache *data_cache(const struct cp_cache *l, size_t n, unsigned level)
{
	const struct cp_cache *best = NULL;

	for (size_t i = 0; i < n; i++)
		if (strcmp(l[i].type, "Instruction") &&
		    (level ? l[i].level == level : !best || l[i].level >= best->level))
			best = &l[i];
	return best;
}

uint64_t cache_data_size(unsigned level)
{
	struct cp_cache l[MAX_CACHE_LEVELS];
	const struct cp_cache *c = data_cache(l, cache_levels(l, MAX_CACHE_LEVELS), level);

	return c ? c->size : 0;
}

uint64_t cache_last_level_size(void)
{
	return cache_data_size(0);
}

uint64_t cache_cold_bytes(void)
{
	uint64_t llc = cache_last_level_size();

	return 2 * (llc ? llc : 64ull << 20);
}

int cache_evictor_open(struct cache_evictor *e)
{
	uint64_t len = cache_cold_bytes();
	void *p;

	e->p = NULL;
	e->len = 0;
	if (len > SIZE_MAX / 2) {
		errno = ENOMEM;
		return -1;
	}
	p = mmap(NULL, (size_t)len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	memset(p, 0x5a, (size_t)len);
	e->p = p;
	e->len = (size_t)len;
	return 0;
}

void cache_evict(const struct cache_evictor *e)
{
	const volatile unsigned char *p = e->p;
	size_t line = cache_line_size();
	unsigned char sum = 0;

	for (size_t i = 0; i < e->len; i += line)
		sum ^= p[i];
	(void)sum;
}

void cache_evictor_close(struct cache_evictor *e)
{
	if (e->p)
		munmap(e->p, e->len);
	e->p = NULL;
	e->len = 0;
}

/* The answer, found once; threads may ask at once, and they find the same one. */
unsigned cache_line_size(void)
{
	static unsigned known;
	unsigned line = __atomic_load_n(&known, __ATOMIC_RELAXED);

	if (line)
		return line;
#if defined(__powerpc__)
	line = (unsigned)getauxval(AT_DCACHEBSIZE);
#endif
	if (!line) {
		struct cp_cache l[MAX_CACHE_LEVELS];
		size_t n = cache_levels(l, MAX_CACHE_LEVELS);

		for (size_t i = 0; i < n && !line; i++)
			if (l[i].level == 1 && strcmp(l[i].type, "Instruction"))
				line = l[i].line;
	}
	if (!line || (line & (line - 1)))
#if defined(__powerpc__) && !defined(__powerpc64__)
		line = 32;
#else
		line = 64;
#endif
	__atomic_store_n(&known, line, __ATOMIC_RELAXED);
	return line;
}
