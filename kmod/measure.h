/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* COPYPERF_IOC_MEASURE: one checked, timed and verified measurement. */
#ifndef COPYPERF_KMOD_MEASURE_H
#define COPYPERF_KMOD_MEASURE_H

#include <linux/compiler_types.h>
#include <linux/sizes.h>

/* Largest buffer a measurement walks: two of them, plus a pinned user copy, must fit. */
#define CP_MAX_BUFFER SZ_64M

long cp_ioctl_measure(void __user *argp);

#endif
