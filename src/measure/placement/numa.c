/* SPDX-License-Identifier: MIT */
/*
 * libnuma is opened with dlopen rather than linked: copyperf then builds on
 * any machine with no NUMA headers, the static cross builds included, and
 * needs libnuma1 (Debian's) only when --numa is given.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#ifndef COPYPERF_NO_DLOPEN
#include <dlfcn.h>
#endif
#include "measure/hardware/sys_file.h"
#include "numa.h"

#define LIBNUMA "libnuma.so.1"

struct bitmask;

/* The few entries of libnuma's stable ABI that placement needs. */
static struct {
	int (*available)(void);
	void (*setlocal_memory)(void *start, size_t size);
	void (*interleave_memory)(void *start, size_t size, struct bitmask *nodes);
	void (*tonode_memory)(void *start, size_t size, int node);
	struct bitmask **all_nodes;
} libnuma;

static int by_id(const void *a, const void *b)
{
	return ((const struct numa_node *)a)->id - ((const struct numa_node *)b)->id;
}

size_t numa_nodes_read(struct numa_node *nodes, size_t max)
{
	DIR *d = opendir("/sys/devices/system/node");
	struct dirent *e;
	size_t n = 0;

	while (d && n < max && (e = readdir(d)) != NULL) {
		char path[300];
		int id;

		if (sscanf(e->d_name, "node%d", &id) != 1)
			continue;
		nodes[n].id = id;
		snprintf(path, sizeof(path), "/sys/devices/system/node/%s/cpulist", e->d_name);
		sys_file_line(path, nodes[n].cpulist, sizeof(nodes[n].cpulist));
		n++;
	}
	if (d)
		closedir(d);
	qsort(nodes, n, sizeof(*nodes), by_id);
	return n;
}

void numa_policy_name(enum numa_policy policy, int node, char *buf, size_t len)
{
	if (policy == NUMA_NODE)
		snprintf(buf, len, "%d", node);
	else
		snprintf(buf, len, "%s", policy == NUMA_LOCAL ? "local" : "interleave");
}

static int load(char *err, size_t errlen)
{
#ifdef COPYPERF_NO_DLOPEN
	snprintf(err, errlen, "--numa: this copyperf is linked statically and cannot load "
		 LIBNUMA " (use a native build)");
	return -1;
#else
	void *h = dlopen(LIBNUMA, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		snprintf(err, errlen, "--numa: cannot load " LIBNUMA " (apt-get install libnuma1): %s",
			 dlerror());
		return -1;
	}
	*(void **)&libnuma.available = dlsym(h, "numa_available");
	*(void **)&libnuma.setlocal_memory = dlsym(h, "numa_setlocal_memory");
	*(void **)&libnuma.interleave_memory = dlsym(h, "numa_interleave_memory");
	*(void **)&libnuma.tonode_memory = dlsym(h, "numa_tonode_memory");
	libnuma.all_nodes = dlsym(h, "numa_all_nodes_ptr");
	if (!libnuma.available || !libnuma.setlocal_memory || !libnuma.interleave_memory ||
	    !libnuma.tonode_memory || !libnuma.all_nodes) {
		snprintf(err, errlen, "--numa: " LIBNUMA " lacks the functions copyperf uses");
		return -1;
	}
	if (libnuma.available() < 0) {
		snprintf(err, errlen, "--numa: this kernel has no NUMA support (numa_available)");
		return -1;
	}
	return 0;
#endif
}

int numa_check(const struct measure_params *params, char *err, size_t errlen)
{
	struct numa_node nodes[MAX_NUMA_NODES];
	size_t n = numa_nodes_read(nodes, MAX_NUMA_NODES), i = 0;
	char name[32];

	if (params->numa == NUMA_DEFAULT)
		return 0;
	numa_policy_name(params->numa, params->numa_node, name, sizeof(name));
	while (params->numa == NUMA_NODE && i < n && nodes[i].id != params->numa_node)
		i++;
	if (params->numa == NUMA_NODE && i == n) {
		if (n == 1)
			snprintf(err, errlen, "--numa %s: no such node (this machine has one NUMA node, "
				 "node %d)", name, nodes[0].id);
		else
			snprintf(err, errlen, "--numa %s: no such node (this machine has %zu NUMA nodes)",
				 name, n);
		return -1;
	}
	if (load(err, errlen))
		return -1;
	if (n <= 1)
		fprintf(stderr, "copyperf: note: --numa %s: this machine has one NUMA node (CPUs %s); "
			"every buffer is on it\n", name, n ? nodes[0].cpulist : "all");
	return 0;
}

int numa_place(void *p, size_t len, const struct measure_params *params, char *err, size_t errlen)
{
	switch (params->numa) {
	case NUMA_DEFAULT:
		return 0;
	case NUMA_LOCAL:
		if (!libnuma.setlocal_memory)
			break;
		libnuma.setlocal_memory(p, len);
		return 0;
	case NUMA_INTERLEAVE:
		if (!libnuma.interleave_memory)
			break;
		libnuma.interleave_memory(p, len, *libnuma.all_nodes);
		return 0;
	case NUMA_NODE:
		if (!libnuma.tonode_memory)
			break;
		libnuma.tonode_memory(p, len, params->numa_node);
		return 0;
	}
	snprintf(err, errlen, "--numa: libnuma is not loaded (internal error)");
	return -1;
}

int numa_where(const void *p, size_t len, uint64_t node_bytes[MAX_NUMA_NODES])
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), pages = len / page, n;
	void *addr[NUMA_SAMPLES];
	int status[NUMA_SAMPLES];
	uint64_t got[MAX_NUMA_NODES] = { 0 };

	if (pages == 0)
		return -1;
	n = pages < NUMA_SAMPLES ? pages : NUMA_SAMPLES;
	for (size_t i = 0; i < n; i++)
		addr[i] = (unsigned char *)p + i * pages / n * page;
#ifdef SYS_move_pages
	if (syscall(SYS_move_pages, 0, (unsigned long)n, addr, NULL, status, 0) != 0)
		return -1;
#else
	return -1;
#endif
	/* sample i stands for [i * len / n, (i + 1) * len / n): the shares add up to len */
	for (size_t i = 0; i < n; i++) {
		if (status[i] < 0 || status[i] >= MAX_NUMA_NODES)
			return -1; /* a page not present, or a node past what we count */
		got[status[i]] += (uint64_t)((i + 1) * len / n - i * len / n);
	}
	for (size_t i = 0; i < MAX_NUMA_NODES; i++)
		node_bytes[i] += got[i];
	return 0;
}
