/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif
#include "machine.h"

/* The first /proc/cpuinfo line whose key is one of these names the CPU. */
static void read_cpu(char *out, size_t len)
{
	static const char *const keys[] = { "model name", "cpu", "Hardware", "uarch", "isa" };
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");

	snprintf(out, len, "unknown");
	if (!f)
		return;
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		rewind(f);
		while (fgets(line, sizeof(line), f)) {
			char *colon = strchr(line, ':');
			size_t keylen = strlen(keys[k]);

			if (!colon || strncmp(line, keys[k], keylen) ||
			    strspn(line + keylen, " \t") != (size_t)(colon - line) - keylen)
				continue;
			colon += strspn(colon + 1, " \t") + 1;
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(out, len, "%s", colon);
			fclose(f);
			return;
		}
	}
	fclose(f);
}

void machine_read(struct machine_info *m)
{
	struct utsname u;

	memset(m, 0, sizeof(*m));
	read_cpu(m->cpu, sizeof(m->cpu));
	if (uname(&u) == 0) {
		snprintf(m->arch, sizeof(m->arch), "%s", u.machine);
		snprintf(m->kernel, sizeof(m->kernel), "%s %s", u.sysname, u.release);
		snprintf(m->host, sizeof(m->host), "%s", u.nodename);
	}
#ifdef __GLIBC__
	snprintf(m->libc, sizeof(m->libc), "glibc %s", gnu_get_libc_version());
#else
	snprintf(m->libc, sizeof(m->libc), "unknown");
#endif
#if defined(__clang__)
	snprintf(m->compiler, sizeof(m->compiler), "clang %s", __clang_version__);
#elif defined(__GNUC__)
	snprintf(m->compiler, sizeof(m->compiler), "gcc %s", __VERSION__);
#endif
	m->n_caches = cache_levels(m->caches, MAX_CACHE_LEVELS);
	m->n_nodes = numa_nodes_read(m->nodes, MAX_NUMA_NODES);
	if (llc_probe_done()) {
		m->llc = *llc_probe_done();
		m->llc_used = true;
	}
}
