// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * One measurement: check the request, set up both buffers (kernel memory
 * from the allocator, or the command's own pages pinned for the duration),
 * fill them with the test pattern, walk, verify, and let everything go.
 */
#include <linux/errno.h>
#include <linux/highmem.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include "copyperf_ioctl.h"
#include "pattern.h"
#include "cache_flush.h"
#include "measure.h"
#include "routines.h"

/* One measurement at a time: the flushes and the timer assume the CPU is ours. */
static DEFINE_MUTEX(cp_measure_lock);

/* One side of a copy: the bytes from a page-aligned base to the last canary. */
struct cp_side {
	void *alias;          /* kernel address of the base */
	void *addr;           /* the address the routine is given: alias or the user's */
	size_t len;
	struct page **pages;  /* the command's pinned pages, or NULL: kernel memory */
	unsigned int n_pages;
};

static bool cp_is_user(const struct cp_side *side)
{
	return side->pages;
}

/* Up to here kmalloc (the direct map, as most kernel buffers); above, vmalloc. */
#define CP_KMALLOC_MAX SZ_1M

/* Page-aligned kernel memory: a power-of-two kmalloc is naturally aligned, vmalloc is too. */
static int cp_side_alloc(struct cp_side *side, size_t len)
{
	side->len = len;
	side->alias = NULL;
	if (len <= CP_KMALLOC_MAX)
		side->alias = kmalloc(roundup_pow_of_two(len), GFP_KERNEL | __GFP_NOWARN);
	if (!side->alias)
		side->alias = __vmalloc(len, GFP_KERNEL | __GFP_NOWARN);
	side->addr = side->alias;
	return side->alias ? 0 : -ENOMEM;
}

/* Pins the command's pages for writing: its own, private, anonymous memory only. */
static int cp_side_pin(struct cp_side *side, u64 addr, size_t len)
{
	unsigned int i;
	int pinned, err = -EFAULT;

	if (addr != (unsigned long)addr || !access_ok(u64_to_user_ptr(addr), len))
		return -EFAULT;
	side->len = len;
	side->n_pages = PAGE_ALIGN(len) >> PAGE_SHIFT;
	side->pages = kvmalloc_array(side->n_pages, sizeof(*side->pages), GFP_KERNEL);
	if (!side->pages)
		return -ENOMEM;
	pinned = pin_user_pages_fast(addr, side->n_pages, FOLL_WRITE, side->pages);
	if (pinned != (int)side->n_pages)
		goto unpin;
	err = -EINVAL;
	for (i = 0; i < side->n_pages; i++)
		if (!PageAnon(side->pages[i]))
			goto unpin;
	err = -ENOMEM;
	side->alias = vmap(side->pages, side->n_pages, VM_MAP, PAGE_KERNEL);
	if (!side->alias)
		goto unpin;
	side->addr = (__force void *)u64_to_user_ptr(addr);
	return 0;
unpin:
	if (pinned > 0)
		unpin_user_pages(side->pages, pinned);
	kvfree(side->pages);
	side->pages = NULL;
	return pinned < 0 ? pinned : err;
}

/* Kernel memory, or the command's buffer, which must hold the whole layout. */
static int cp_side_setup(struct cp_side *side, bool user, const struct copyperf_measure *m,
			 size_t len)
{
	if (!user)
		return cp_side_alloc(side, len);
	if (m->user_len < len)
		return -EINVAL;
	return cp_side_pin(side, m->user_addr, len);
}

static void cp_side_release(struct cp_side *side)
{
	if (cp_is_user(side)) {
		vunmap(side->alias);
		unpin_user_pages_dirty_lock(side->pages, side->n_pages, true);
		kvfree(side->pages);
	} else {
		kvfree(side->alias);
	}
}

/*
 * The command's pattern_fill and pattern_mismatch, a piece at a time: a byte
 * loop over 64 MiB can hold the CPU past the soft-lockup threshold (2 s in
 * the tests' guest, under emulation), so the CPU is offered between pieces.
 */
#define CP_PATTERN_PIECE SZ_1M

static void cp_pattern_fill(u8 *p, size_t len, u64 first, int invert)
{
	size_t k, n;

	for (k = 0; k < len; k += n) {
		n = min_t(size_t, len - k, CP_PATTERN_PIECE);
		pattern_fill(p + k, n, first + k, invert);
		cond_resched();
	}
}

static size_t cp_pattern_mismatch(const u8 *p, size_t len, u64 first, int invert)
{
	size_t k, n, bad;

	for (k = 0; k < len; k += n) {
		n = min_t(size_t, len - k, CP_PATTERN_PIECE);
		bad = pattern_mismatch(p + k, n, first + k, invert);
		if (bad < n)
			return k + bad;
		cond_resched();
	}
	return len;
}

/* Writes the pattern (or its complement) from the base; offset is where the walk starts. */
static void cp_side_fill(struct cp_side *side, size_t offset, int invert)
{
	cp_pattern_fill(side->alias, side->len, COPYPERF_PATTERN_BIAS - offset, invert);
	if (cp_is_user(side))
		flush_kernel_vmap_range(side->alias, side->len);
}

static int cp_check_request(const struct copyperf_measure *m)
{
	const struct cp_routine *r;
	bool user;

	if (m->reserved_in || m->routine >= cp_n_routines || m->cache > COPYPERF_CACHE_HOT)
		return -EINVAL;
	if (m->cache != COPYPERF_CACHE_HOT && !CP_CAN_FLUSH)
		return -EOPNOTSUPP;
	if (!m->buffer || m->buffer > CP_MAX_BUFFER || !m->chunk || m->chunk > m->buffer)
		return -EINVAL;
	if (m->total < m->chunk || m->total > COPYPERF_MAX_TOTAL)
		return -EINVAL;
	if (m->align_src > COPYPERF_MAX_ALIGN || m->align_dst > COPYPERF_MAX_ALIGN)
		return -EINVAL;
	r = &cp_routines[m->routine];
	user = r->direction != COPYPERF_KERNEL_TO_KERNEL;
	if (!user)
		return m->user_addr || m->user_len ? -EINVAL : 0;
	if (offset_in_page(m->user_addr))
		return -EINVAL;
	return 0;
}

/*
 * Compares the destination with the source's pattern over the last pass,
 * what the last pass did not reach (after a wrap) with the complement the
 * wrap left, and the canaries with their old value.
 */
static void cp_verify(struct copyperf_measure *m, const struct cp_side *dst, size_t start,
		      size_t last_pass, size_t touched)
{
	const u8 *d = (const u8 *)dst->alias + start;
	size_t k;

	if (cp_is_user(dst))
		invalidate_kernel_vmap_range(dst->alias, dst->len);
	k = cp_pattern_mismatch(d, last_pass, COPYPERF_PATTERN_BIAS, 0);
	if (k < last_pass) {
		m->result = COPYPERF_RESULT_WRONG_BYTE;
		m->offset = k;
		m->value = d[k];
		m->expected = pattern_byte(COPYPERF_PATTERN_BIAS + k);
		return;
	}
	k = pattern_mismatch(d - COPYPERF_CANARY, COPYPERF_CANARY,
			     COPYPERF_PATTERN_BIAS - COPYPERF_CANARY, 1);
	if (k < COPYPERF_CANARY) {
		m->result = COPYPERF_RESULT_WROTE_BEFORE;
		m->value = COPYPERF_CANARY - k;
		return;
	}
	k = cp_pattern_mismatch(d + last_pass, touched - last_pass + COPYPERF_CANARY,
				COPYPERF_PATTERN_BIAS + last_pass, 1);
	if (k < touched - last_pass + COPYPERF_CANARY) {
		m->result = COPYPERF_RESULT_WROTE_PAST;
		m->offset = last_pass + k;
	}
}

/* The walked source as it was filled: a routine only reads it, nor may the command write it. */
static void cp_check_source(struct copyperf_measure *m, const struct cp_side *src, size_t start,
			    size_t touched)
{
	size_t k;

	if (cp_is_user(src))
		invalidate_kernel_vmap_range(src->alias, src->len);
	k = cp_pattern_mismatch((const u8 *)src->alias + start, touched, COPYPERF_PATTERN_BIAS, 0);
	if (k < touched) {
		m->result = COPYPERF_RESULT_SOURCE_CHANGED;
		m->offset = k;
	}
}

/* A pass the walk's check found wrong, stopping the walk: where, and what was there. */
static void cp_report_pass(struct copyperf_measure *m, const struct cp_side *dst, size_t start,
			   size_t at)
{
	if (cp_is_user(dst))
		invalidate_kernel_vmap_range(dst->alias, dst->len);
	m->result = COPYPERF_RESULT_WRONG_BYTE;
	m->offset = at;
	m->value = ((const u8 *)dst->alias)[start + at];
	m->expected = pattern_byte(COPYPERF_PATTERN_BIAS + at);
}

static int cp_measure_locked(struct copyperf_measure *m)
{
	const struct cp_routine *r = &cp_routines[m->routine];
	size_t buffer = m->buffer, chunk = m->chunk;
	size_t src_start = PAGE_SIZE + m->align_src, dst_start = PAGE_SIZE + m->align_dst;
	size_t src_len = src_start + buffer + COPYPERF_CANARY;
	size_t dst_len = dst_start + buffer + COPYPERF_CANARY;
	struct cp_side src = { }, dst = { };
	struct cp_walk w = { };
	size_t touched;
	void *ref = NULL;
	int err;

	err = cp_side_setup(&dst, r->direction == COPYPERF_KERNEL_TO_USER, m, dst_len);
	if (err)
		return err;
	err = cp_side_setup(&src, r->direction == COPYPERF_USER_TO_KERNEL, m, src_len);
	if (err)
		goto release_dst;

	cp_side_fill(&src, src_start, 0);
	cp_side_fill(&dst, dst_start, 1);
	w.dst = (u8 *)dst.addr + dst_start;
	w.src = (u8 *)src.addr + src_start;
	w.dst_alias = (u8 *)dst.alias + dst_start;
	w.src_alias = (u8 *)src.alias + src_start;
	w.chunk = chunk;
	w.walk = buffer / chunk * chunk;
	w.count = div64_u64(m->total, chunk);
	w.cache = m->cache;
	w.dst_user = cp_is_user(&dst);
	if (w.count * chunk > w.walk) { /* the walk wraps: its passes are checked against ref */
		ref = kvmalloc(w.walk, GFP_KERNEL | __GFP_NOWARN);
		if (!ref) {
			err = -ENOMEM;
			goto release_src;
		}
		cp_pattern_fill(ref, w.walk, COPYPERF_PATTERN_BIAS, 0);
		w.ref = ref;
	}
	if (w.cache != COPYPERF_CACHE_HOT) {
		cp_flush_range(w.src_alias, w.walk);
		cp_flush_range(w.dst_alias, w.walk);
	}

	err = cp_routine_walk(m->routine, &w);
	if (err)
		goto release_src;
	m->result = COPYPERF_RESULT_OK;
	if (w.left) { /* the walk stopped there: nothing whole to time or count */
		m->result = w.left < 0 ? COPYPERF_RESULT_BAD_RETURN : COPYPERF_RESULT_NOT_COPIED;
		m->value = w.left < 0 ? 0 : w.left;
		m->offset = w.failed_at;
		goto release_src;
	}
	touched = w.count * chunk < w.walk ? w.count * chunk : w.walk;
	cp_check_source(m, &src, src_start, touched);
	if (m->result == COPYPERF_RESULT_OK && w.pass_wrong)
		cp_report_pass(m, &dst, dst_start, w.wrong_at);
	else if (m->result == COPYPERF_RESULT_OK)
		cp_verify(m, &dst, dst_start, w.last_pass, touched);
	if (m->result == COPYPERF_RESULT_OK) {
		m->ns = w.ns;
		m->copied = w.count * chunk;
	}
release_src:
	kvfree(ref);
	cp_side_release(&src);
release_dst:
	cp_side_release(&dst);
	return err;
}

long cp_ioctl_measure(void __user *argp)
{
	struct copyperf_measure m;
	int err;

	if (copy_from_user(&m, argp, sizeof(m)))
		return -EFAULT;
	err = cp_check_request(&m);
	if (err)
		return err;
	m.ns = 0;
	m.copied = 0;
	m.result = 0;
	m.value = 0;
	m.offset = 0;
	m.expected = 0;
	m.reserved_out = 0;
	/* waiting for another measurement: restarted as the walk is (routines.c) */
	if (mutex_lock_interruptible(&cp_measure_lock))
		return -ERESTARTNOHAND;
	err = cp_measure_locked(&m);
	mutex_unlock(&cp_measure_lock);
	if (err)
		return err;
	return copy_to_user(argp, &m, sizeof(m)) ? -EFAULT : 0;
}
