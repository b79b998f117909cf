/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "measure/hardware/sys_file.h"
#include "numa.h"
#include "pages.h"
#include "sizes.h"

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif
#define THP_DEFAULT (2ull << 20)

static const char *const mode_names[] = { "default", "4k", "2m", "1g", "thp" };

const char *page_mode_name(enum page_mode m)
{
	return mode_names[m];
}

/* An explicit huge page's size, or 0 for the other modes. */
static uint64_t hugetlb_size(enum page_mode mode)
{
	return mode == PAGES_2M ? 2ull << 20 : mode == PAGES_1G ? 1ull << 30 : 0;
}

/* The size of a transparent huge page here (the PMD's), where the kernel says. */
static uint64_t thp_size(void)
{
	long long v = sys_file_number("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", 0);

	return v > 0 ? (uint64_t)v : THP_DEFAULT;
}

size_t pages_length(size_t len, enum page_mode mode)
{
	if (hugetlb_size(mode))
		return round_up(len, hugetlb_size(mode));
	return mode == PAGES_THP ? round_up(len, thp_size()) : len;
}

static char *hugetlb_file(enum page_mode mode, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "/sys/kernel/mm/hugepages/hugepages-%llukB/%s",
		 (unsigned long long)(hugetlb_size(mode) >> 10), name);
	return buf;
}

int pages_check(enum page_mode mode, size_t len, size_t n, char *err, size_t errlen)
{
	char path[128], size[32];
	long nr, free_pages, need;

	if (!hugetlb_size(mode))
		return 0;
	format_size(hugetlb_size(mode), size, sizeof(size));
	need = (long)(n * (pages_length(len, mode) / hugetlb_size(mode)));
	nr = (long)sys_file_number(hugetlb_file(mode, "nr_hugepages", path, sizeof(path)), -1);
	free_pages = (long)sys_file_number(hugetlb_file(mode, "free_hugepages", path, sizeof(path)), -1);
	if (nr < 0 || free_pages < 0) {
		snprintf(err, errlen, "--pages %s: this machine offers no %s huge pages (no %s)",
			 page_mode_name(mode), size, hugetlb_file(mode, "", path, sizeof(path)));
		return -1;
	}
	if (free_pages >= need)
		return 0;
	snprintf(err, errlen,
		 "--pages %s: %ld %s huge pages needed, %ld free; reserve them as root: "
		 "echo %ld > %s",
		 page_mode_name(mode), need, size, free_pages, nr + need - free_pages,
		 hugetlb_file(mode, "nr_hugepages", path, sizeof(path)));
	return -1;
}

/*
 * The inaccessible page after each mapping that is not on explicit huge pages:
 * without it the kernel merges neighbouring mappings into one, and smaps would
 * give the merged one's pages (explicit huge pages are never merged).
 */
static size_t guard_length(enum page_mode mode)
{
	return hugetlb_size(mode) ? 0 : (size_t)sysconf(_SC_PAGESIZE);
}

/*
 * And one before it where the mapping is made inaccessible first and opened
 * after (map_for): a mapping made accessible whole, its guard closed a moment
 * later, merged meanwhile with a neighbour that another thread's smaps read
 * then took for its own (1 run in 300 of -j all). Transparent huge pages'
 * areas are marked, and marked areas do not merge with plain ones.
 */
static size_t lead_length(enum page_mode mode)
{
	return mode == PAGES_THP ? 0 : guard_length(mode);
}

/* Unmaps what map_for mapped for len bytes at p. */
static void unmap_for(void *p, size_t len, enum page_mode mode)
{
	size_t lead = lead_length(mode);

	munmap((unsigned char *)p - lead, lead + len + guard_length(mode));
}

/* A mapping of len aligned to align (a power of two), the rest given back. */
static void *map_aligned(size_t len, size_t align)
{
	unsigned char *raw = mmap(NULL, len + align, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t start;

	if (raw == MAP_FAILED)
		return MAP_FAILED;
	start = ((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1);
	if (start > (uintptr_t)raw)
		munmap(raw, start - (uintptr_t)raw);
	if ((uintptr_t)raw + align > start)
		munmap((unsigned char *)start + len, (uintptr_t)raw + align - start);
	return (void *)start;
}

/* len bytes for mode, and its guard pages around them. */
static void *map_for(size_t len, enum page_mode mode, const char *what, char *err, size_t errlen)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS;
	size_t guard = guard_length(mode);
	void *p;

	if (hugetlb_size(mode)) {
		flags |= MAP_HUGETLB | ((mode == PAGES_2M ? 21 : 30) << MAP_HUGE_SHIFT);
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, -1, 0);
		if (p == MAP_FAILED)
			snprintf(err, errlen, "--pages %s: cannot map %zu bytes on huge pages: %s "
				 "(are enough reserved?)", page_mode_name(mode), len, strerror(errno));
		return p;
	}
	if (mode == PAGES_THP) {
		p = map_aligned(len + guard, thp_size());
		if (p != MAP_FAILED)
			mprotect((unsigned char *)p + len, guard, PROT_NONE);
	} else {
		size_t lead = lead_length(mode);

		p = mmap(NULL, lead + len + guard, PROT_NONE, flags, -1, 0);
		if (p != MAP_FAILED) {
			p = (unsigned char *)p + lead;
			if (mprotect(p, len, PROT_READ | PROT_WRITE)) {
				int e = errno;

				unmap_for(p, len, mode);
				errno = e;
				p = MAP_FAILED;
			}
		}
	}
	if (p == MAP_FAILED) {
		snprintf(err, errlen, "%s: cannot map %zu bytes: %s", what, len, strerror(errno));
		return p;
	}
	/* before the first touch: the fault decides the page size */
	if (mode == PAGES_THP && madvise(p, len, MADV_HUGEPAGE)) {
		snprintf(err, errlen, "--pages thp: this kernel gives no transparent huge pages "
			 "(madvise: %s)", strerror(errno));
		unmap_for(p, len, mode);
		return MAP_FAILED;
	}
	if (mode == PAGES_4K)
		madvise(p, len, MADV_NOHUGEPAGE); /* fails only where there are none anyway */
	return p;
}

void *pages_map(size_t len, const struct measure_params *params, int fill, struct page_usage *u,
		const char *what, char *err, size_t errlen)
{
	struct page_usage one;
	void *p;

	len = pages_length(len, params->pages);
	p = map_for(len, params->pages, what, err, errlen);
	if (p == MAP_FAILED)
		return NULL;
	if (numa_place(p, len, params, err, errlen)) {
		unmap_for(p, len, params->pages);
		return NULL;
	}
	memset(p, fill, len); /* every page present: no page fault is ever timed */
	if (u && page_usage_read(p, &one) == 0) {
		numa_where(p, len, one.node_bytes);
		page_usage_add(u, &one);
	}
	return p;
}

void pages_unmap(void *p, size_t len, enum page_mode mode)
{
	if (p)
		unmap_for(p, pages_length(len, mode), mode);
}

void page_usage_add(struct page_usage *a, const struct page_usage *b)
{
	if (b->page_size && (!a->page_size || b->page_size < a->page_size))
		a->page_size = b->page_size;
	a->bytes += b->bytes;
	a->hugetlb_bytes += b->hugetlb_bytes;
	a->thp_bytes += b->thp_bytes;
	for (size_t i = 0; i < MAX_NUMA_NODES; i++)
		a->node_bytes[i] += b->node_bytes[i];
}

/* "; all on node 1", "; on nodes 0 (1 MiB), 1 (1 MiB)", or nothing where unknown. */
static void describe_nodes(const struct page_usage *u, char *buf, size_t len)
{
	size_t nodes = 0, at = 0, last = 0;

	for (size_t i = 0; i < MAX_NUMA_NODES; i++)
		if (u->node_bytes[i]) {
			nodes++;
			last = i;
		}
	buf[0] = '\0';
	if (nodes == 1)
		snprintf(buf, len, "; all on node %zu", last);
	for (size_t i = 0; nodes > 1 && i < MAX_NUMA_NODES && at < len; i++) {
		char bytes[32];

		if (!u->node_bytes[i])
			continue;
		format_size(u->node_bytes[i], bytes, sizeof(bytes));
		at += (size_t)snprintf(buf + at, len - at, "%s %zu (%s)", at ? "," : "; on nodes", i, bytes);
	}
}

void page_usage_describe(const struct page_usage *u, char *buf, size_t len)
{
	char page[32], bytes[32], huge[32], nodes[200];

	format_size(u->page_size, page, sizeof(page));
	format_size(u->bytes, bytes, sizeof(bytes));
	if (!u->page_size) {
		snprintf(buf, len, "page size unknown (no /proc/self/smaps)");
	} else if (u->hugetlb_bytes) {
		format_size(u->hugetlb_bytes, huge, sizeof(huge));
		describe_nodes(u, nodes, sizeof(nodes));
		snprintf(buf, len, "%s pages (hugetlb), %s of %s%s", page, huge, bytes, nodes);
	} else {
		format_size(u->thp_bytes, huge, sizeof(huge));
		describe_nodes(u, nodes, sizeof(nodes));
		snprintf(buf, len, "%s pages, %s of %s on transparent huge pages%s", page,
			 u->thp_bytes ? huge : "none", bytes, nodes);
	}
}

/* "Key:   123 kB" at line: the bytes, or -1 when line is another key. */
static long long field_kb(const char *line, const char *key)
{
	size_t n = strlen(key);
	long long kb;

	if (strncmp(line, key, n) || line[n] != ':' || sscanf(line + n + 1, "%lld", &kb) != 1)
		return -1;
	return kb << 10;
}

int page_usage_parse(const char *smaps, uintptr_t addr, struct page_usage *u)
{
	const char *line = smaps;
	bool inside = false;

	memset(u, 0, sizeof(*u));
	for (; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		uintptr_t lo, hi;
		long long v;

		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " ", &lo, &hi) == 2 &&
		    line[strcspn(line, " \n")] == ' ') {
			if (inside)
				break;
			inside = lo <= addr && addr < hi;
			continue;
		}
		if (!inside)
			continue;
		if ((v = field_kb(line, "Size")) >= 0)
			u->bytes = (uint64_t)v;
		else if ((v = field_kb(line, "KernelPageSize")) >= 0)
			u->page_size = (uint64_t)v;
		else if ((v = field_kb(line, "AnonHugePages")) >= 0)
			u->thp_bytes = (uint64_t)v;
		else if ((v = field_kb(line, "Private_Hugetlb")) >= 0 ||
			 (v = field_kb(line, "Shared_Hugetlb")) >= 0)
			u->hugetlb_bytes += (uint64_t)v;
	}
	return u->bytes ? 0 : -1;
}

int page_usage_read(const void *addr, struct page_usage *u)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char *text = NULL;
	size_t len = 0;
	int status;
	FILE *m;

	if (!f)
		return -1;
	m = open_memstream(&text, &len);
	if (!m) {
		fclose(f);
		return -1;
	}
	for (int c; (c = getc(f)) != EOF;)
		putc(c, m);
	fclose(f);
	fclose(m);
	status = page_usage_parse(text, (uintptr_t)addr, u);
	free(text);
	return status;
}
