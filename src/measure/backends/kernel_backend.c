/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include "interrupt.h"
#include "kernel_backend.h"
#include "routine_names.h"
#include "uapi/copyperf_ioctl.h"

#define HOW_TO_LOAD "load the module first: sudo modprobe copyperf (package copyperf-dkms), " \
	"or make kmod && sudo insmod kmod/copyperf.ko"

struct kernel_ctx {
	const struct measure_params *params;
	int fd;
	struct copyperf_version version;
	struct copyperf_routine_info *module_routines;
	uint32_t *chosen; /* module index of each measured routine */
	const char **names;
	unsigned char *user_map; /* the command's side of the user copies */
	size_t user_len;
};

static int open_device(struct kernel_ctx *c, char *err, size_t errlen)
{
	c->fd = open(COPYPERF_DEVICE, O_RDWR | O_CLOEXEC);
	if (c->fd < 0) {
		if (errno == ENOENT || errno == ENXIO || errno == ENODEV)
			snprintf(err, errlen, "--kernel: %s is not there (%s)", COPYPERF_DEVICE,
				 HOW_TO_LOAD);
		else if (errno == EACCES || errno == EPERM)
			snprintf(err, errlen, "--kernel: %s: %s (the device is root's only)",
				 COPYPERF_DEVICE, strerror(errno));
		else
			snprintf(err, errlen, "--kernel: cannot open %s: %s", COPYPERF_DEVICE,
				 strerror(errno));
		return -1;
	}
	if (ioctl(c->fd, COPYPERF_IOC_VERSION, &c->version)) {
		snprintf(err, errlen, "--kernel: %s does not answer as the copyperf module: %s",
			 COPYPERF_DEVICE, strerror(errno));
		return -1;
	}
	if (c->version.abi != COPYPERF_ABI_VERSION) {
		snprintf(err, errlen,
			 "--kernel: the loaded module speaks ABI %u, this copyperf %u "
			 "(rebuild and reload the module)",
			 c->version.abi, COPYPERF_ABI_VERSION);
		return -1;
	}
	if (c->version.page_size != (uint32_t)sysconf(_SC_PAGESIZE)) {
		snprintf(err, errlen, "--kernel: the module's page size %u is not this process's %ld",
			 c->version.page_size, sysconf(_SC_PAGESIZE));
		return -1;
	}
	return 0;
}

static int read_routines(struct kernel_ctx *c, char *err, size_t errlen)
{
	c->module_routines = calloc(c->version.n_routines + 1, sizeof(*c->module_routines));
	if (!c->module_routines) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (uint32_t i = 0; i < c->version.n_routines; i++) {
		struct copyperf_routine_info *r = &c->module_routines[i];

		r->index = i;
		if (ioctl(c->fd, COPYPERF_IOC_ROUTINE, r)) {
			snprintf(err, errlen, "--kernel: reading routine %u from %s: %s", i,
				 COPYPERF_DEVICE, strerror(errno));
			return -1;
		}
		r->name[sizeof(r->name) - 1] = '\0';
		r->description[sizeof(r->description) - 1] = '\0';
	}
	return 0;
}

static int find_routine(const struct kernel_ctx *c, const char *name)
{
	for (uint32_t i = 0; i < c->version.n_routines; i++)
		if (strcmp(c->module_routines[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* Without --routines: every routine but the self-tests, which copy wrongly on purpose. */
static size_t default_routines(const struct kernel_ctx *c)
{
	size_t n = 0;

	for (uint32_t i = 0; i < c->version.n_routines; i++)
		if (!(c->module_routines[i].flags & COPYPERF_ROUTINE_SELFTEST))
			c->chosen[n++] = i;
	return n;
}

static void unknown_kernel_routine(const struct kernel_ctx *c, const char *name, char *err,
				   size_t errlen)
{
	uint32_t n = c->version.n_routines;
	const char **valid = calloc(n + 1, sizeof(*valid));

	if (!valid) {
		snprintf(err, errlen, "out of memory");
		return;
	}
	for (uint32_t j = 0; j < n; j++)
		valid[j] = c->module_routines[j].name;
	unknown_routine_error(err, errlen, "kernel routine", name, valid, n);
	free(valid);
}

static int resolve_routines(struct kernel_ctx *c, const struct measure_params *params, char *err,
			    size_t errlen)
{
	size_t n = params->routines ? params->n_routines : c->version.n_routines;

	c->chosen = calloc(n + 1, sizeof(*c->chosen));
	c->names = calloc(n + 1, sizeof(*c->names));
	if (!c->chosen || !c->names) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (!params->routines)
		n = default_routines(c);
	for (size_t i = 0; i < n; i++) {
		int k = params->routines ? find_routine(c, params->routines[i]) : (int)c->chosen[i];

		if (k < 0) {
			unknown_kernel_routine(c, params->routines[i], err, errlen);
			return -1;
		}
		c->chosen[i] = (uint32_t)k;
		c->names[i] = c->module_routines[k].name;
	}
	return (int)n;
}

/* What the module can do with these parameters, asked before anything is measured. */
static int check_params(const struct kernel_ctx *c, const struct measure_params *params, char *err,
			size_t errlen)
{
	if (params->cache == CACHE_COLD) {
		snprintf(err, errlen,
			 "--cache cold: not available with --kernel (use flush, flush-timed or hot)");
		return -1;
	}
	if (params->cache != CACHE_HOT && !(c->version.flags & COPYPERF_CAN_FLUSH)) {
		snprintf(err, errlen,
			 "--cache %s: this architecture exports no cache flush to modules (use hot)",
			 cache_mode_name(params->cache));
		return -1;
	}
	if (params->buffer > c->version.max_buffer) {
		snprintf(err, errlen, "--buffer: at most %llu bytes with --kernel",
			 (unsigned long long)c->version.max_buffer);
		return -1;
	}
	return 0;
}

/* The command's pages for the user copies, in the layout the ABI header describes. */
static int map_user_buffer(struct kernel_ctx *c, const struct measure_params *params,
			   size_t n_chosen, char *err, size_t errlen)
{
	size_t page = c->version.page_size;
	size_t align = params->align_src > params->align_dst ? params->align_src : params->align_dst;
	bool needed = false;
	void *p;

	/* only for routines that copy to or from user space: not under ulimit -v for nothing */
	for (size_t r = 0; r < n_chosen; r++)
		needed |= c->module_routines[c->chosen[r]].direction != COPYPERF_KERNEL_TO_KERNEL;
	if (!needed)
		return 0;
	c->user_len = (page + align + params->buffer + COPYPERF_CANARY + page - 1) / page * page;
	p = mmap(NULL, c->user_len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (p == MAP_FAILED) {
		snprintf(err, errlen, "--buffer: cannot map %zu bytes: %s", c->user_len,
			 strerror(errno));
		return -1;
	}
	memset(p, 0x5a, c->user_len); /* every page present and written: none faults when timed */
	c->user_map = p;
	return 0;
}

static const enum copyperf_cache cache_modes[] = {
	[CACHE_FLUSH] = COPYPERF_CACHE_FLUSH,
	[CACHE_FLUSH_TIMED] = COPYPERF_CACHE_FLUSH_TIMED,
	[CACHE_HOT] = COPYPERF_CACHE_HOT,
};

static enum measure_status explain(const struct copyperf_measure *m, const char *name, char *why,
				   size_t whylen)
{
	unsigned long long off = (unsigned long long)m->offset;

	switch (m->result) {
	case COPYPERF_RESULT_OK:
		return MEASURE_OK;
	case COPYPERF_RESULT_WRONG_BYTE:
		snprintf(why, whylen, "%s: wrong byte at offset %llu: 0x%02x, expected 0x%02x", name,
			 off, m->value, m->expected);
		break;
	case COPYPERF_RESULT_WROTE_BEFORE:
		snprintf(why, whylen, "%s: wrote %u bytes before the destination", name, m->value);
		break;
	case COPYPERF_RESULT_WROTE_PAST:
		snprintf(why, whylen, "%s: wrote past the copied range, at offset %llu", name, off);
		break;
	case COPYPERF_RESULT_BAD_RETURN:
		snprintf(why, whylen, "%s: did not return the destination (chunk at offset %llu)",
			 name, off);
		break;
	case COPYPERF_RESULT_NOT_COPIED:
		snprintf(why, whylen, "%s: left %u bytes uncopied of the chunk at offset %llu", name,
			 m->value, off);
		break;
	case COPYPERF_RESULT_SOURCE_CHANGED:
		snprintf(why, whylen, "%s: changed its source, at offset %llu", name, off);
		break;
	default:
		snprintf(why, whylen, "%s: the module reported result %u", name, m->result);
		break;
	}
	return MEASURE_WRONG;
}

static enum measure_status kernel_measure(struct backend *b, size_t r, const struct workload *w,
					  double *seconds, char *why, size_t whylen)
{
	struct kernel_ctx *c = b->ctx;
	uint64_t chunk = w->chunk; /* the options refuse replays in the kernel */
	const struct copyperf_routine_info *info = &c->module_routines[c->chosen[r]];
	struct copyperf_measure m;

	memset(&m, 0, sizeof(m));
	m.routine = info->index;
	m.cache = cache_modes[c->params->cache];
	m.chunk = chunk;
	m.total = c->params->total;
	m.buffer = c->params->buffer;
	m.align_src = (uint32_t)c->params->align_src;
	m.align_dst = (uint32_t)c->params->align_dst;
	if (info->direction != COPYPERF_KERNEL_TO_KERNEL) {
		m.user_addr = (uintptr_t)c->user_map;
		m.user_len = c->user_len;
	}
	/*
	 * The module stops on any signal a handler runs for; EINTR without one of
	 * ours caught (another handler's) is asked again.  Too little kernel
	 * memory for the buffers is the user's limit, as in user space: exit 2.
	 */
	while (!interrupt_signal() && ioctl(c->fd, COPYPERF_IOC_MEASURE, &m)) {
		if (errno == EINTR)
			continue;
		snprintf(why, whylen, "--kernel: %s at chunk %llu: the module refused: %s",
			 info->name, (unsigned long long)chunk, strerror(errno));
		return errno == ENOMEM ? MEASURE_NO_MEMORY : MEASURE_ERROR;
	}
	if (interrupt_signal()) {
		snprintf(why, whylen, "--kernel: %s: stopped by a signal", info->name);
		return MEASURE_ERROR; /* the sweep then stops */
	}
	*seconds = (double)m.ns * 1e-9;
	return explain(&m, info->name, why, whylen);
}

int kernel_backend_open(struct backend *b, const struct measure_params *params, char *err,
			size_t errlen)
{
	struct kernel_ctx *c = backend_start(b, sizeof(*c), err, errlen);
	int n;

	if (!c)
		return -1;
	c->params = params;
	if (open_device(c, err, errlen) || read_routines(c, err, errlen))
		return -1;
	n = resolve_routines(c, params, err, errlen);
	if (n < 0 || check_params(c, params, err, errlen) ||
	    map_user_buffer(c, params, (size_t)n, err, errlen))
		return -1;
	b->space = "kernel";
	b->n_routines = (size_t)n;
	b->routine_names = c->names;
	b->measure = kernel_measure;
	if (params->counters) /* as the user backend says when it has none */
		fprintf(stderr, "copyperf: --counters: not counted inside the kernel; going on "
				"without them\n");
	return 0;
}

int kernel_backend_list(FILE *f, char *err, size_t errlen)
{
	struct kernel_ctx c;
	int status = -1;

	memset(&c, 0, sizeof(c));
	if (open_device(&c, err, errlen) == 0 && read_routines(&c, err, errlen) == 0) {
		for (uint32_t i = 0; i < c.version.n_routines; i++)
			fprintf(f, "%-20s %s%s\n", c.module_routines[i].name,
				c.module_routines[i].description,
				c.module_routines[i].flags & COPYPERF_ROUTINE_SELFTEST
					? " (self-test: only when named)" : "");
		status = 0;
	}
	if (c.fd >= 0)
		close(c.fd);
	free(c.module_routines);
	return status;
}

void kernel_backend_close(struct backend *b)
{
	struct kernel_ctx *c = b->ctx;

	if (!c)
		return;
	if (c->fd >= 0)
		close(c->fd);
	if (c->user_map)
		munmap(c->user_map, c->user_len);
	free(c->module_routines);
	free(c->chosen);
	free(c->names);
	free(c);
	b->ctx = NULL;
}
