/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "counters.h"
#include "sys_file.h"

#define CACHE_EVENT(cache, op, result) \
	((cache) | (PERF_COUNT_HW_CACHE_OP_##op << 8) | (PERF_COUNT_HW_CACHE_RESULT_##result << 16))

const struct counter_spec counters_hardware[N_COUNTERS] = {
	[COUNTER_CYCLES] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	[COUNTER_INSTRUCTIONS] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	[COUNTER_L1D_READ_MISSES] = { PERF_TYPE_HW_CACHE,
				      CACHE_EVENT(PERF_COUNT_HW_CACHE_L1D, READ, MISS) },
	[COUNTER_LLC_MISSES] = { PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
};

static const char *const names[N_COUNTERS] = { "cycles", "instructions", "l1d_read_misses",
					       "llc_misses" };

const char *counter_name(enum counter_event e)
{
	return names[e];
}

static int open_event(const struct counter_spec *s, int group)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = s->type;
	a.config = s->config;
	a.disabled = group < 0; /* members follow the leader */
	a.exclude_kernel = 1;   /* the copies run in user space; paranoid level 2 allows this */
	a.exclude_hv = 1;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, group, PERF_FLAG_FD_CLOEXEC);
}

static void explain(int err, char *why, size_t whylen)
{
	int paranoid = (int)sys_file_number("/proc/sys/kernel/perf_event_paranoid", -9);

	if (err == EACCES || err == EPERM)
		snprintf(why, whylen,
			 "hardware counters are not allowed here (kernel.perf_event_paranoid = %d)",
			 paranoid);
	else if (err == ENOENT || err == EOPNOTSUPP || err == ENODEV)
		snprintf(why, whylen,
			 "this machine has no hardware counters to offer (a VM without a PMU?): %s",
			 strerror(err));
	else if (err == ENOSYS)
		snprintf(why, whylen, "this kernel has no perf_event_open");
	else
		snprintf(why, whylen, "hardware counters cannot be opened: %s", strerror(err));
}

int counters_open(struct counters *c, const struct counter_spec spec[N_COUNTERS], char *why,
		  size_t whylen)
{
	memset(c, 0, sizeof(*c));
	for (int e = 0; e < N_COUNTERS; e++)
		c->fd[e] = -1;
	c->fd[0] = open_event(&spec[0], -1);
	if (c->fd[0] < 0) {
		explain(errno, why, whylen);
		return -1;
	}
	/* A member the PMU lacks (LLC misses in some VMs) is left out, not fatal. */
	for (int e = 0; e < N_COUNTERS; e++) {
		if (e)
			c->fd[e] = open_event(&spec[e], c->fd[0]);
		if (c->fd[e] >= 0 && ioctl(c->fd[e], PERF_EVENT_IOC_ID, &c->id[e]) == 0)
			c->open |= 1u << e;
	}
	if (!(c->open & 1)) {
		snprintf(why, whylen, "hardware counters cannot be identified: %s", strerror(errno));
		counters_close(c);
		return -1;
	}
	return 0;
}

void counters_close(struct counters *c)
{
	for (int e = 0; e < N_COUNTERS; e++)
		if (c->fd[e] >= 0)
			close(c->fd[e]);
	memset(c, 0, sizeof(*c));
	for (int e = 0; e < N_COUNTERS; e++)
		c->fd[e] = -1;
}

void counters_start(struct counters *c)
{
	ioctl(c->fd[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
	ioctl(c->fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
}

void counters_pause(struct counters *c)
{
	ioctl(c->fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
}

void counters_resume(struct counters *c)
{
	ioctl(c->fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
}

void counters_stop(struct counters *c, struct counter_values *out)
{
	/* PERF_FORMAT_GROUP: nr, time enabled, time running, then (value, id) per event */
	uint64_t buf[3 + 2 * N_COUNTERS];
	ssize_t got;

	counters_pause(c);
	memset(out, 0, sizeof(*out));
	out->measurements = 1;
	got = read(c->fd[0], buf, sizeof(buf));
	if (got < (ssize_t)(3 * sizeof(uint64_t)) || buf[2] == 0)
		return; /* never scheduled (the PMU was busy): nothing counted */
	for (uint64_t i = 0; i < buf[0] && 3 + 2 * i + 1 < (uint64_t)got / sizeof(uint64_t); i++)
		for (int e = 0; e < N_COUNTERS; e++)
			if ((c->open & (1u << e)) && c->id[e] == buf[3 + 2 * i + 1]) {
				/* scale up when the PMU was shared for part of the time */
				out->count[e] = (uint64_t)((double)buf[3 + 2 * i] * (double)buf[1] /
							   (double)buf[2]);
				out->present |= 1u << e;
			}
}

void counters_add(struct counter_values *sum, const struct counter_values *one)
{
	sum->present = sum->measurements ? sum->present & one->present : one->present;
	for (int e = 0; e < N_COUNTERS; e++)
		sum->count[e] += one->count[e];
	sum->measurements += one->measurements;
}

double counter_mean(const struct counter_values *v, enum counter_event e)
{
	if (!v->measurements || !(v->present & (1u << e)))
		return -1;
	return (double)v->count[e] / v->measurements;
}
