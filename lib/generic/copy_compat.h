/* SPDX-License-Identifier: MIT */
/*
 * What the portable copy needs from its surroundings, in user space and in
 * the kernel module (which compiles lib/generic/generic_*.c as they are).
 */
#ifndef COPYPERF_COPY_COMPAT_H
#define COPYPERF_COPY_COMPAT_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stddef.h>
#include <stdint.h>
#endif

/* Loads and stores legal at any address and for any type (strict-aliasing safe). */
typedef uint64_t __attribute__((may_alias, aligned(1))) cp_u64u;
typedef uint32_t __attribute__((may_alias, aligned(1))) cp_u32u;
typedef uint16_t __attribute__((may_alias, aligned(1))) cp_u16u;
typedef unsigned long __attribute__((may_alias)) cp_word;
typedef unsigned long __attribute__((may_alias, aligned(1))) cp_wordu;

/*
 * Whether [dst, dst + n) and [src, src + n) share no byte: unsigned
 * differences, d - s >= n when dst is not within [src, src + n), and so on.
 */
static inline int copy_ranges_disjoint(const void *dst, const void *src, size_t n)
{
	uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;

	return d - s >= n && s - d >= n;
}

void *copyperf_generic_memcpy(void *__restrict dst, const void *__restrict src, size_t n);
void *copyperf_generic_memmove(void *dst, const void *src, size_t n);

#endif
