/* SPDX-License-Identifier: MIT */
/* What the numbers were measured on, for every output format. */
#ifndef COPYPERF_MACHINE_H
#define COPYPERF_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include "measure/hardware/cache.h"
#include "measure/hardware/llc_probe.h"
#include "measure/placement/numa.h"

struct machine_info {
	char cpu[128];
	char arch[72];
	char kernel[160];
	char libc[64];
	char compiler[96];
	char host[72];
	struct cp_cache caches[MAX_CACHE_LEVELS];
	size_t n_caches;
	struct numa_node nodes[MAX_NUMA_NODES];
	size_t n_nodes;
	/* where a working set was sized from the last level (llc, cold): how large it was taken */
	struct llc_probe llc;
	bool llc_used;
};

void machine_read(struct machine_info *m);

#endif
