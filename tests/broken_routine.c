/* SPDX-License-Identifier: MIT */
/*
 * A routine that copies wrongly in two ways, registered only in the test
 * build: verification must report it FAILED and give it no speed.
 */
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include "copyperf.h"

/* Drops the last byte of every chunk of 64 bytes or more. */
static void *off_by_one(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n >= 64 ? n - 1 : n);
	return dst;
}

/* Right bytes, but one more than asked for. */
static void *overrun(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
	((unsigned char *)dst)[n] = ((const unsigned char *)src)[n] ^ 0x55;
	return dst;
}

/* Right everywhere but at 37 bytes: only a call mix that draws that size can catch it. */
static void *wrong_at_37(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
	if (n == 37)
		((unsigned char *)dst)[20] ^= 0x01;
	return dst;
}

/*
 * Right but where the destination ends in a page's last 64 bytes, and small:
 * there it writes one byte past the end, as a copy near a page's end might.
 */
static void *stray_near_page_end(void *dst, const void *src, size_t n)
{
	uintptr_t end = (uintptr_t)dst + n;

	memcpy(dst, src, n);
	if (n && n <= 64 && (end & 4095) > 4096 - 64)
		((unsigned char *)dst)[n] = ((const unsigned char *)src)[0] ^ 0xff;
	return dst;
}

/* Copies nothing at exactly 100 bytes: a replay must not take earlier calls' bytes for its own. */
static void *nothing_at_100(void *dst, const void *src, size_t n)
{
	if (n != 100)
		memcpy(dst, src, n);
	return dst;
}

/* Right bytes, but at 100 bytes also changes one 70 bytes past the end. */
static void *stray_at_100(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
	if (n == 100)
		((unsigned char *)dst)[n + 70] ^= 0xff;
	return dst;
}

/*
 * A byte past the end where the destination is a line's last byte: the sweep's
 * page-aligned walk of sizes that are multiples of 8 never puts it there.
 */
static void *stray_at_line_end(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
	if (((uintptr_t)dst & 63) == 63)
		((unsigned char *)dst)[n] ^= 0xff;
	return dst;
}

/* Claims to allow overlap but always copies forward: wrong when dst overlaps src from above. */
static void *forward_only(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	for (size_t i = 0; i < n; i++)
		((volatile unsigned char *)d)[i] = s[i];
	return dst;
}

/* The lowest CPU the process may run on, as it started: where -j's first thread runs. */
static int first_cpu = -1;

/* Right on the first CPU only: a -j run must catch it in its other threads. */
static void *wrong_off_first_cpu(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
	if (sched_getcpu() != first_cpu)
		((unsigned char *)dst)[n / 2] ^= 0x01;
	return dst;
}

/* Right but on every 1000th call: a later copy over the same bytes must not hide it. */
static void *wrong_once_in_1000(void *dst, const void *src, size_t n)
{
	static unsigned long calls;

	memcpy(dst, src, n);
	if (__atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED) % 1000 == 0 && n)
		((unsigned char *)dst)[n - 1] ^= 0x01;
	return dst;
}

/* Wrong on its first call only: made again, untimed, it is right; only a check of that call sees it. */
static void *wrong_first_call(void *dst, const void *src, size_t n)
{
	static int calls;

	memcpy(dst, src, n);
	if (__atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED) == 1 && n)
		((unsigned char *)dst)[0] ^= 0x01;
	return dst;
}

/* Source and destination swapped, a slip any caller can make: the source gets the destination's bytes. */
static void *swapped(void *dst, const void *src, size_t n)
{
	memmove((void *)src, dst, n);
	return dst;
}

/* Right bytes, but every 1000th call also changes a byte of its source past the copied range. */
static void *scribbles_source(void *dst, const void *src, size_t n)
{
	static unsigned long calls;

	memcpy(dst, src, n);
	if (__atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED) % 1000 == 0 && n)
		((unsigned char *)src)[n] ^= 0x01;
	return dst;
}

static const struct copyperf_routine broken[] = {
	{ "broken-short", "test only: drops the last byte of chunks >= 64 B", off_by_one, NULL, 0 },
	{ "broken-overrun", "test only: writes one byte past the end", overrun, NULL, 0 },
	{ "broken-at-37", "test only: one wrong byte in copies of exactly 37 B", wrong_at_37, NULL,
	  0 },
	{ "broken-move", "test only: a memmove that always copies forward", forward_only, NULL,
	  COPYPERF_OVERLAP_OK },
	{ "broken-noop-100", "test only: copies nothing at exactly 100 B", nothing_at_100, NULL, 0 },
	{ "broken-stray-100", "test only: at 100 B also writes 70 B past the end", stray_at_100,
	  NULL, 0 },
	{ "broken-page-end", "test only: under 64 B, writes a byte past a destination ending a page",
	  stray_near_page_end, NULL, 0 },
	{ "broken-line-end", "test only: writes a byte past the end where the destination is a line's last byte",
	  stray_at_line_end, NULL, 0 },
	{ "broken-rarely", "test only: one wrong byte every 1000th call", wrong_once_in_1000, NULL,
	  0 },
	{ "broken-first", "test only: one wrong byte on its first call", wrong_first_call, NULL, 0 },
	{ "broken-swapped", "test only: copies the destination over the source", swapped, NULL, 0 },
	{ "broken-source", "test only: every 1000th call changes a source byte past its range",
	  scribbles_source, NULL, 0 },
	{ "broken-off-cpu0", "test only: wrong on any CPU but the process's first", wrong_off_first_cpu,
	  NULL, 0 },
};

__attribute__((constructor)) static void register_broken(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		for (int c = CPU_SETSIZE - 1; c >= 0; c--)
			first_cpu = CPU_ISSET(c, &set) ? c : first_cpu;
	for (size_t i = 0; i < sizeof(broken) / sizeof(broken[0]); i++)
		copyperf_routine_register(&broken[i]);
}
