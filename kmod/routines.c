// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The module's routines.  Each is wrapped as an operation returning what it
 * left undone, and the walk is instantiated once per routine, so the timed
 * loop calls the routine directly, as the 2008 module's switch did.
 */
#include <linux/atomic.h>
#include <linux/highmem.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "copyperf_ioctl.h"
#include "generic/copy_compat.h"
#include "internal.h"
#include "cache_flush.h"
#include "pattern.h"
#include "routines.h"
#ifdef CONFIG_PPC
#include "powerpc/line_copy.h"
#endif

/* The walk gives the CPU away at least this often, its timer paused meanwhile. */
#define CP_RESCHED_BYTES SZ_64K

/* Names and descriptions of what copy_*_user amount to on this architecture. */
#if defined(CONFIG_PPC)
#define CP_USER_COPY "__copy_tofrom_user"
#elif defined(CONFIG_X86_64)
#define CP_USER_COPY "copy_user_generic"
#else
#define CP_USER_COPY "the architecture's user copy"
#endif

enum {
	CP_MEMCPY,
	CP_MEMMOVE,
	CP_COPY_TO_USER,
	CP_COPY_FROM_USER,
	CP_RAW_COPY_TO_USER,
	CP_RAW_COPY_FROM_USER,
	CP_BYTES,
	CP_COPYPERF_GENERIC,
	CP_COPYPERF_GENERIC_MOVE,
#ifdef CONFIG_PPC
	CP_COPYPERF_LINES,
#endif
#ifdef COPYPERF_SELFTEST
	CP_SELFTEST_SHORT,
	CP_SELFTEST_OVERRUN,
	CP_SELFTEST_RARELY,
	CP_SELFTEST_SWAPPED,
#endif
#ifdef COPYPERF_SELFTEST_KASAN
	CP_SELFTEST_KASAN,
#endif
	CP_N_ROUTINES
};

const struct cp_routine cp_routines[] = {
	[CP_MEMCPY] = { "memcpy", "the kernel's memcpy, kernel to kernel buffer",
			COPYPERF_KERNEL_TO_KERNEL },
	[CP_MEMMOVE] = { "memmove", "the kernel's memmove, kernel to kernel buffer",
			 COPYPERF_KERNEL_TO_KERNEL },
	[CP_COPY_TO_USER] = { "copy_to_user",
			      "copy_to_user, kernel to the command's buffer (checks, then "
			      CP_USER_COPY ")", COPYPERF_KERNEL_TO_USER },
	[CP_COPY_FROM_USER] = { "copy_from_user",
				"copy_from_user, the command's buffer to kernel (checks, then "
				CP_USER_COPY ")", COPYPERF_USER_TO_KERNEL },
	[CP_RAW_COPY_TO_USER] = { "raw_copy_to_user",
				  "raw_copy_to_user: the user copy without access_ok and hardening",
				  COPYPERF_KERNEL_TO_USER },
	[CP_RAW_COPY_FROM_USER] = { "raw_copy_from_user",
				    "raw_copy_from_user: the user copy without access_ok and hardening",
				    COPYPERF_USER_TO_KERNEL },
	[CP_BYTES] = { "bytes", "a plain loop, one byte load and store at a time (lib/generic)",
		       COPYPERF_KERNEL_TO_KERNEL },
	[CP_COPYPERF_GENERIC] = { "copyperf_generic_memcpy",
				  "copyperf's portable C memcpy (lib/generic/generic_memcpy.c)",
				  COPYPERF_KERNEL_TO_KERNEL },
	[CP_COPYPERF_GENERIC_MOVE] = { "copyperf_generic_memmove",
				       "copyperf's portable C memmove (lib/generic/generic_memmove.c)",
				       COPYPERF_KERNEL_TO_KERNEL },
#ifdef CONFIG_PPC
	[CP_COPYPERF_LINES] = { "copyperf_lines",
				"copyperf's line copy: dcbz each dst line, dcbt the src ahead",
				COPYPERF_KERNEL_TO_KERNEL },
#endif
#ifdef COPYPERF_SELFTEST
	[CP_SELFTEST_SHORT] = { "selftest_short", "wrong on purpose: copies one byte less",
				COPYPERF_KERNEL_TO_KERNEL, COPYPERF_ROUTINE_SELFTEST },
	[CP_SELFTEST_OVERRUN] = { "selftest_overrun", "wrong on purpose: copies one byte more",
				  COPYPERF_KERNEL_TO_KERNEL, COPYPERF_ROUTINE_SELFTEST },
	[CP_SELFTEST_RARELY] = { "selftest_rarely",
				 "wrong on purpose: one wrong byte every 1000th call",
				 COPYPERF_KERNEL_TO_KERNEL, COPYPERF_ROUTINE_SELFTEST },
	[CP_SELFTEST_SWAPPED] = { "selftest_swapped",
				  "wrong on purpose: copies the destination over the source",
				  COPYPERF_KERNEL_TO_KERNEL, COPYPERF_ROUTINE_SELFTEST },
#endif
#ifdef COPYPERF_SELFTEST_KASAN
	[CP_SELFTEST_KASAN] = { "selftest_kasan",
				"wrong on purpose: copies right, reads a byte past a kmalloc",
				COPYPERF_KERNEL_TO_KERNEL, COPYPERF_ROUTINE_SELFTEST },
#endif
};

const unsigned int cp_n_routines = CP_N_ROUTINES;
static_assert(ARRAY_SIZE(cp_routines) == CP_N_ROUTINES);

typedef long (*cp_op)(void *dst, const void *src, size_t n);

static __always_inline long op_memcpy(void *d, const void *s, size_t n)
{
	return memcpy(d, s, n) == d ? 0 : -1;
}

static __always_inline long op_memmove(void *d, const void *s, size_t n)
{
	return memmove(d, s, n) == d ? 0 : -1;
}

static __always_inline long op_copy_to_user(void *d, const void *s, size_t n)
{
	return copy_to_user((__force void __user *)d, s, n);
}

static __always_inline long op_copy_from_user(void *d, const void *s, size_t n)
{
	return copy_from_user(d, (__force const void __user *)s, n);
}

static __always_inline long op_raw_copy_to_user(void *d, const void *s, size_t n)
{
	return raw_copy_to_user((__force void __user *)d, s, n);
}

static __always_inline long op_raw_copy_from_user(void *d, const void *s, size_t n)
{
	return raw_copy_from_user(d, (__force const void __user *)s, n);
}

static __always_inline long op_bytes(void *d, const void *s, size_t n)
{
	return copyperf_byte_copy(d, s, n) == d ? 0 : -1;
}

static __always_inline long op_copyperf_generic(void *d, const void *s, size_t n)
{
	return copyperf_generic_memcpy(d, s, n) == d ? 0 : -1;
}

static __always_inline long op_copyperf_generic_move(void *d, const void *s, size_t n)
{
	return copyperf_generic_memmove(d, s, n) == d ? 0 : -1;
}

#ifdef CONFIG_PPC
/* Offered by name, never swapped in: dcbz needs cacheable memory, as these buffers are. */
static __always_inline long op_copyperf_lines(void *d, const void *s, size_t n)
{
	return copyperf_ppc_line_copy(d, s, n, l1_dcache_bytes(), COPYPERF_PREFETCH_LINES) == d ?
		0 : -1;
}
#endif

#ifdef COPYPERF_SELFTEST
static __always_inline long op_selftest_short(void *d, const void *s, size_t n)
{
	return memcpy(d, s, n - 1) == d ? 0 : -1;
}

/* The byte past each chunk is the next chunk's, or a canary: inside the allocation. */
static __always_inline long op_selftest_overrun(void *d, const void *s, size_t n)
{
	return memcpy(d, s, n + 1) == d ? 0 : -1;
}

/* Right but on every 1000th call: a later pass over the same bytes must not hide it. */
static __always_inline long op_selftest_rarely(void *d, const void *s, size_t n)
{
	static atomic_t calls;

	memcpy(d, s, n);
	if (atomic_inc_return(&calls) % 1000 == 0)
		((u8 *)d)[n - 1] ^= 1;
	return 0;
}

/* Its arguments swapped: every second pass leaves both buffers as a right one would. */
static __always_inline long op_selftest_swapped(void *d, const void *s, size_t n)
{
	memmove((void *)s, d, n);
	return 0;
}
#endif

#ifdef COPYPERF_SELFTEST_KASAN
/*
 * The copy is right; the byte read after it is past the end of a 16-byte
 * kmalloc, where only a sanitizer sees it.  Not inlined: KASAN's report then
 * names this function.
 */
static noinline long op_selftest_kasan(void *d, const void *s, size_t n)
{
	u8 *p = kmalloc(16, GFP_KERNEL);
	long r = memcpy(d, s, n) == d ? 0 : -1;

	if (p) {
		OPTIMIZER_HIDE_VAR(p);
		r |= READ_ONCE(p[16]) & 0;
		kfree(p);
	}
	return r;
}
#endif

static void cp_flush_walk(const struct cp_walk *w)
{
	cp_flush_range(w->src_alias, w->walk);
	cp_flush_range(w->dst_alias, w->walk);
}

/*
 * The pass just made, checked against w->ref before the next one overwrites
 * it, and its destination set back to the complement (the command's
 * pattern_pass_check), a piece at a time with the CPU offered between
 * pieces.  Returns false, with the first wrong offset in w->wrong_at and the
 * pass left as the copy made it, when the pass was wrong.
 */
static bool cp_check_pass(struct cp_walk *w)
{
	u8 *d = w->dst_alias;
	const u8 *ref = w->ref;
	size_t k, n, bad;

	if (w->dst_user)
		invalidate_kernel_vmap_range(d, w->walk);
	for (k = 0; k < w->walk; k += n) {
		n = min_t(size_t, w->walk - k, SZ_1M);
		bad = pattern_pass_check(d + k, ref + k, n);
		if (bad < n) {
			memcpy(d, ref, k);
			w->pass_wrong = true;
			w->wrong_at = k + bad;
			break;
		}
		cond_resched();
	}
	if (w->dst_user)
		flush_kernel_vmap_range(d, w->walk);
	return !w->pass_wrong;
}

/*
 * The timed loop, as in the 2008 module: chunk after chunk, start over at
 * the end.  With check, each pass is checked there with the timer paused, and
 * a wrong pass ends the walk for the caller's check to report.
 */
static __always_inline int cp_walk_once(struct cp_walk *w, cp_op op, bool check)
{
	u8 *dst = w->dst;
	const u8 *src = w->src;
	size_t chunk = w->chunk, pos = 0, since_resched = 0;
	u64 count = w->count, paused = 0, t0, p0;
	bool wrong;
	long left;

	t0 = ktime_get_ns();
	while (count--) {
		if (pos + chunk > w->walk) {
			if (check) {
				p0 = ktime_get_ns();
				wrong = !cp_check_pass(w);
				if (!wrong && w->cache == COPYPERF_CACHE_FLUSH)
					cp_flush_walk(w);
				paused += ktime_get_ns() - p0;
				if (wrong)
					break;
			}
			pos = 0;
			if (w->cache == COPYPERF_CACHE_FLUSH_TIMED)
				cp_flush_walk(w);
		}
		left = op(dst + pos, src + pos, chunk);
		if (unlikely(left)) {
			w->left = left;
			w->failed_at = pos;
			return 0;
		}
		pos += chunk;
		since_resched += chunk;
		if (since_resched >= CP_RESCHED_BYTES) {
			since_resched = 0;
			p0 = ktime_get_ns();
			cond_resched();
			/*
			 * Any signal, not only a fatal one: copyperf stops on
			 * SIGTERM.  Restarted from the start where no handler
			 * runs (a stop and continue, a tracer, the freezer).
			 */
			if (signal_pending(current))
				return -ERESTARTNOHAND;
			paused += ktime_get_ns() - p0;
		}
	}
	w->ns = ktime_get_ns() - t0 - paused;
	w->left = 0;
	w->last_pass = pos;
	return 0;
}

/*
 * The timed walk checks its passes at its wraps, but in hot mode with short
 * passes, where the pause's clock read would be a visible part of the time
 * (pattern_pass_checked_in_walk): there the timed walk runs through, what it
 * left is checked, and the same calls are made again, untimed, each pass
 * checked.
 */
static __always_inline int cp_walk_with(struct cp_walk *w, cp_op op)
{
	u32 cache = w->cache;
	bool check = pattern_pass_checked_in_walk(cache == COPYPERF_CACHE_HOT, w->walk);
	u64 ns;
	int err;

	err = cp_walk_once(w, op, check);
	if (err || w->left || check || w->count * w->chunk <= w->walk)
		return err;
	/* At this point: the walk wrapped, each byte holds its last copy. */
	if (!cp_check_pass(w))
		return 0;
	ns = w->ns;
	w->cache = COPYPERF_CACHE_HOT;
	err = cp_walk_once(w, op, true);
	w->cache = cache;
	w->ns = ns;
	return err;
}

int cp_routine_walk(unsigned int id, struct cp_walk *w)
{
	switch (id) {
	case CP_MEMCPY:
		return cp_walk_with(w, op_memcpy);
	case CP_MEMMOVE:
		return cp_walk_with(w, op_memmove);
	case CP_COPY_TO_USER:
		return cp_walk_with(w, op_copy_to_user);
	case CP_COPY_FROM_USER:
		return cp_walk_with(w, op_copy_from_user);
	case CP_RAW_COPY_TO_USER:
		return cp_walk_with(w, op_raw_copy_to_user);
	case CP_RAW_COPY_FROM_USER:
		return cp_walk_with(w, op_raw_copy_from_user);
	case CP_BYTES:
		return cp_walk_with(w, op_bytes);
	case CP_COPYPERF_GENERIC:
		return cp_walk_with(w, op_copyperf_generic);
	case CP_COPYPERF_GENERIC_MOVE:
		return cp_walk_with(w, op_copyperf_generic_move);
#ifdef CONFIG_PPC
	case CP_COPYPERF_LINES:
		return cp_walk_with(w, op_copyperf_lines);
#endif
#ifdef COPYPERF_SELFTEST
	case CP_SELFTEST_SHORT:
		return cp_walk_with(w, op_selftest_short);
	case CP_SELFTEST_OVERRUN:
		return cp_walk_with(w, op_selftest_overrun);
	case CP_SELFTEST_RARELY:
		return cp_walk_with(w, op_selftest_rarely);
	case CP_SELFTEST_SWAPPED:
		return cp_walk_with(w, op_selftest_swapped);
#endif
#ifdef COPYPERF_SELFTEST_KASAN
	case CP_SELFTEST_KASAN:
		return cp_walk_with(w, op_selftest_kasan);
#endif
	}
	return -EINVAL;
}
