/* SPDX-License-Identifier: MIT */
/*
 * libcopyperf-preload.so: memcpy, memmove and mempcpy (and __mempcpy, and the
 * _FORTIFY_SOURCE entries __memcpy_chk, __memmove_chk, __mempcpy_chk) backed by libcopyperf,
 * for LD_PRELOAD=.../libcopyperf-preload.so any-program.  Each call is shown
 * to the recorder first (record.h: one branch unless COPYPERF_RECORD is set),
 * with its family: the entries that promise disjoint buffers are memcpy's,
 * memmove and __memmove_chk memmove's.
 */
#include <string.h>
#include "copyperf.h"
#include "record.h"

#define EXPORT __attribute__((visibility("default")))

/* glibc's: reports a buffer overflow caught by a _chk entry and aborts. */
extern void __chk_fail(void) __attribute__((noreturn));

/*
 * memcpy is libcopyperf's memmove: the shim's unversioned memcpy also answers
 * memcpy@GLIBC_2.2.5, which glibc made a memmove for programs linked before
 * 2.14, and compilers copy a struct onto itself with memcpy.  The same path
 * up to 8 vectors; one compare more above.
 */
EXPORT void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	copyperf_record_hook(dst, src, n, RECORD_MEMCPY);
	return copyperf_memmove(dst, src, n);
}

EXPORT void *memmove(void *dst, const void *src, size_t n)
{
	copyperf_record_hook(dst, src, n, RECORD_MEMMOVE);
	return copyperf_memmove(dst, src, n);
}

EXPORT void *mempcpy(void *restrict dst, const void *restrict src, size_t n)
{
	copyperf_record_hook(dst, src, n, RECORD_MEMCPY);
	return (char *)copyperf_memcpy(dst, src, n) + n;
}

/* What programs built against older glibc headers call for mempcpy. */
EXPORT void *__mempcpy(void *restrict dst, const void *restrict src, size_t n)
	__attribute__((alias("mempcpy")));

EXPORT void *__memcpy_chk(void *restrict dst, const void *restrict src, size_t n, size_t dst_len);
EXPORT void *__memmove_chk(void *dst, const void *src, size_t n, size_t dst_len);
EXPORT void *__mempcpy_chk(void *restrict dst, const void *restrict src, size_t n, size_t dst_len);

EXPORT void *__memcpy_chk(void *restrict dst, const void *restrict src, size_t n, size_t dst_len)
{
	if (n > dst_len)
		__chk_fail();
	copyperf_record_hook(dst, src, n, RECORD_MEMCPY);
	return copyperf_memmove(dst, src, n); /* as memcpy, above */
}

EXPORT void *__memmove_chk(void *dst, const void *src, size_t n, size_t dst_len)
{
	if (n > dst_len)
		__chk_fail();
	copyperf_record_hook(dst, src, n, RECORD_MEMMOVE);
	return copyperf_memmove(dst, src, n);
}

EXPORT void *__mempcpy_chk(void *restrict dst, const void *restrict src, size_t n, size_t dst_len)
{
	if (n > dst_len)
		__chk_fail();
	copyperf_record_hook(dst, src, n, RECORD_MEMCPY);
	return (char *)copyperf_memcpy(dst, src, n) + n;
}
