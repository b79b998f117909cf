/* SPDX-License-Identifier: MIT */
/* Linux's sysfs view of a CPU's caches, with open/read only: see cache_info.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cache_info.h"
#include "text.h"

#define MAX_INDEX 16 /* sysfs numbers a CPU's caches index0, index1, ... */

bool copyperf_parse_size(const char *s, size_t *out, const char **end)
{
	static const char suffixes[] = "KMG";
	char *stop;
	unsigned long long n;
	unsigned shift = 0;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	n = strtoull(s, &stop, 10);
	if (errno == ERANGE)
		return false;
	for (unsigned i = 0; i < 3; i++)
		if ((*stop & ~0x20) == suffixes[i]) /* either case */
			shift = 10 * (i + 1);
	stop += shift != 0;
	*end = stop;
	if ((n << shift >> shift) != n || (size_t)(n << shift) != n << shift)
		return false;
	*out = (size_t)(n << shift);
	return true;
}

/* How many CPUs a sysfs list such as "0-3,8" names. */
static size_t cpu_list_count(const char *s)
{
	size_t count = 0;

	while (*s >= '0' && *s <= '9') {
		char *end;
		unsigned long lo = strtoul(s, &end, 10), hi = lo;

		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		count += hi >= lo ? hi - lo + 1 : 0;
		s = *end == ',' ? end + 1 : end;
	}
	return count;
}

/* Reads .../cpu<cpu>/cache/index<i>/<name> into buf, without its newline; -1 if absent. */
static int read_attr(unsigned long cpu, unsigned long i, const char *name, char *buf, size_t len)
{
	char path[128], *const end = path + sizeof(path) - 1, *p;

	p = copyperf_text_put_uint(copyperf_text_put(path, end, "/sys/devices/system/cpu/cpu"), end, cpu);
	p = copyperf_text_put_uint(copyperf_text_put(p, end, "/cache/index"), end, i);
	copyperf_text_put(copyperf_text_put(p, end, "/"), end, name);
	if (copyperf_text_read(path, buf, len))
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

size_t copyperf_cache_shared_cpus(unsigned long cpu, unsigned long index)
{
	char buf[64];

	return read_attr(cpu, index, "shared_cpu_list", buf, sizeof(buf)) ? 0 : cpu_list_count(buf);
}

size_t copyperf_cache_read(unsigned long cpu, struct cp_cache *out, size_t max)
{
	size_t n = 0;

	for (unsigned long i = 0; i < MAX_INDEX && n < max; i++) {
		struct cp_cache *c = &out[n];
		char buf[64];
		const char *end;

		if (read_attr(cpu, i, "level", buf, sizeof(buf)))
			break;
		memset(c, 0, sizeof(*c));
		c->level = (unsigned)strtoul(buf, NULL, 10);
		if (!read_attr(cpu, i, "type", buf, sizeof(buf)))
			copyperf_text_put(c->type, c->type + sizeof(c->type) - 1, buf);
		if (!read_attr(cpu, i, "size", buf, sizeof(buf)) && !copyperf_parse_size(buf, &c->size, &end))
			c->size = 0;
		if (!read_attr(cpu, i, "coherency_line_size", buf, sizeof(buf)))
			c->line = (unsigned)strtoul(buf, NULL, 10);
		c->shared_cpus = read_attr(cpu, i, "shared_cpu_list", buf, sizeof(buf)) ? 1 : cpu_list_count(buf);
		if (c->shared_cpus == 0)
			c->shared_cpus = 1;
		n++;
	}
	return n;
}
