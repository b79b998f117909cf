/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Writing back and invalidating the data cache over a kernel address range,
 * with the API each architecture exports to modules.  Where there is none,
 * the flush cache modes are refused (-EOPNOTSUPP), never faked.
 */
#ifndef COPYPERF_KMOD_CACHE_FLUSH_H
#define COPYPERF_KMOD_CACHE_FLUSH_H

#include <linux/types.h>
#include <linux/cacheflush.h>

#if defined(CONFIG_X86)
#define CP_CAN_FLUSH 1
/* clflushopt (or clflush) over the range, fenced on both sides */
static inline void cp_flush_range(void *p, size_t len)
{
	clflush_cache_range(p, len);
}
#elif defined(CONFIG_PPC)
#define CP_CAN_FLUSH 1
/* dcbf over the range, then sync: what the 2008 measurement called */
static inline void cp_flush_range(void *p, size_t len)
{
	flush_dcache_range((unsigned long)p, (unsigned long)p + len);
}
#else
#define CP_CAN_FLUSH 0
static inline void cp_flush_range(void *p, size_t len)
{
}
#endif

#endif
