/* SPDX-License-Identifier: MIT */
/*
 * NUMA: the machine's nodes (from sysfs), and --numa's placement of the
 * buffers through libnuma, loaded when --numa is given (see numa.c).
 */
#ifndef COPYPERF_NUMA_H
#define COPYPERF_NUMA_H

#include <stddef.h>
#include <stdint.h>
#include "measure/engine/params.h"

#define MAX_NUMA_NODES 64

struct numa_node {
	int id;
	char cpulist[192]; /* as the kernel writes it: "0-3,8" */
};

/* The machine's nodes, ascending, at most max; 0 where the kernel shows none. */
size_t numa_nodes_read(struct numa_node *nodes, size_t max);

/*
 * Checks the NUMA placement params asks for against this machine and loads
 * libnuma for it; on a machine of one node it says so on stderr, once.  0,
 * or -1 with a one-line reason in err (a usage error).
 */
int numa_check(const struct measure_params *params, char *err, size_t errlen);

/* Places [p, p+len) as params asks, before its pages are touched; 0, or -1 with err. */
int numa_place(void *p, size_t len, const struct measure_params *params, char *err, size_t errlen);

/*
 * Where the kernel put [p, p+len) (its pages present): up to NUMA_SAMPLES pages
 * spread over it are asked for their node (move_pages, which moves nothing when
 * given no target), and each stands for its share of len in node_bytes[node].
 * 0, or -1 where the kernel cannot tell (no NUMA in it): node_bytes untouched.
 */
#define NUMA_SAMPLES 256
int numa_where(const void *p, size_t len, uint64_t node_bytes[MAX_NUMA_NODES]);

/* "local", "interleave" or the node's number (NUMA_NODE's), for output. */
void numa_policy_name(enum numa_policy policy, int node, char *buf, size_t len);

#endif
