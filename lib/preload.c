/* SPDX-License-Identifier: MIT */
/*
 * libcopyperf-preload.so: memcpy, memmove and mempcpy (and __mempcpy, and the
 * _FORTIFY_SOURCE entries __memcpy_chk, __memmove_chk, __mempcpy_chk) backed by libcopyperf,
 * for LD_PRELOAD=.../libcopyperf-preload.so any-program.  The entries below
 * show each call to the recorder first (record.h: one branch unless
 * COPYPERF_RECORD is set), with its family: the entries that promise disjoint
 * buffers are memcpy's, memmove and __memmove_chk memmove's.
 *
 * Where the architecture lays out memcpy, memmove and their _chk entries
 * itself (lib/<arch>/preload_entries.S, COPYPERF_PRELOAD_ENTRIES), the ladder
 * of the library's copy under the C library's names, those entries copy by
 * themselves once their gates are open (open_gates below); until then or
 * otherwise they jump to the routine the library chose, or, while calls are
 * recorded, to copyperf_preload_memcpy and copyperf_preload_memmove below.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "copyperf.h"
#include "record.h"
#include "text.h"

#define EXPORT __attribute__((visibility("default")))
#define HIDDEN __attribute__((visibility("hidden")))

/* memcpy and memmove in C: the exported entries, or those the architecture's jump to. */
#ifdef COPYPERF_PRELOAD_ENTRIES
#define FAMILY_ENTRY(name) copyperf_preload_##name
#define FAMILY_VISIBILITY HIDDEN
#else
#define FAMILY_ENTRY(name) name
#define FAMILY_VISIBILITY EXPORT
#endif
FAMILY_VISIBILITY void *FAMILY_ENTRY(memcpy)(void *restrict dst, const void *restrict src, size_t n);
FAMILY_VISIBILITY void *FAMILY_ENTRY(memmove)(void *dst, const void *src, size_t n);

/* glibc's: reports a buffer overflow caught by a _chk entry and aborts. */
extern void __chk_fail(void) __attribute__((noreturn));

/*
 * memcpy is libcopyperf's memmove: the shim's unversioned memcpy also answers
 * memcpy@GLIBC_2.2.5, which glibc made a memmove for programs linked before
 * 2.14, and compilers copy a struct onto itself with memcpy.  The same path
 * up to 8 vectors; one compare more above.
 */
FAMILY_VISIBILITY void *FAMILY_ENTRY(memcpy)(void *restrict dst, const void *restrict src, size_t n)
{
	copyperf_record_hook(dst, src, n, RECORD_MEMCPY);
	return copyperf_memmove(dst, src, n);
}

FAMILY_VISIBILITY void *FAMILY_ENTRY(memmove)(void *dst, const void *src, size_t n)
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

EXPORT void *__mempcpy_chk(void *restrict dst, const void *restrict src, size_t n, size_t dst_len);

#ifndef COPYPERF_PRELOAD_ENTRIES
EXPORT void *__memcpy_chk(void *restrict dst, const void *restrict src, size_t n, size_t dst_len);
EXPORT void *__memmove_chk(void *dst, const void *src, size_t n, size_t dst_len);

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
#endif

EXPORT void *__mempcpy_chk(void *restrict dst, const void *restrict src, size_t n, size_t dst_len)
{
	if (n > dst_len)
		__chk_fail();
	copyperf_record_hook(dst, src, n, RECORD_MEMCPY);
	return (char *)copyperf_memcpy(dst, src, n) + n;
}

#ifdef COPYPERF_PRELOAD_ENTRIES
/* The routine whose ladder the architecture's entries are (preload_entries.S). */
extern const copyperf_copy_fn copyperf_preload_direct_copy HIDDEN;

/*
 * Each of those entries' gate, then zeros: where the entry starts; its first
 * instruction, in 8 bytes; and, in the entry's first 8 bytes read as one
 * quadword, the bits of the gate while shut (a jump to the way out) and the
 * mask of the gate's bits, which the instruction's take once it is open.
 * x86-64 lays entries out so (lib/x86_64/blocks.inc, LADDER_ENTRY and GATE):
 * a processor that needs its instruction cache flushed after a store to code
 * would need that here too.
 */
struct preload_gate {
	unsigned char *entry;
	const unsigned char *open;
	uint64_t shut;
	uint64_t bits;
};
extern const struct preload_gate copyperf_preload_gates[] HIDDEN;

/*
 * Whether the calling thread is the process's only one (/proc/self/status):
 * no other thread can then be running an entry while its gate changes, which
 * a processor fetching instructions gives no promise about. False where it
 * cannot tell.
 */
static bool only_thread(void)
{
	char buf[4096];
	const char *threads;

	if (copyperf_text_read("/proc/self/status", buf, sizeof(buf)))
		return false;
	threads = strstr(buf, "\nThreads:");
	return threads != NULL && strncmp(threads + 9, "\t1\n", 3) == 0;
}

/* One line on stderr: the shim's code left writable and executable, and why. */
static void say_left_writable(int err)
{
	char msg[256], *p = msg, *const limit = msg + sizeof(msg) - 2;

	p = copyperf_text_put(p, limit, "copyperf: preload shim: a page of its code left writable: ");
	p = copyperf_text_put(p, limit, strerror(err));
	*p++ = '\n';
	if (write(STDERR_FILENO, msg, (size_t)(p - msg)) < 0)
		return; /* nowhere left to report it */
}

/*
 * Opens each gate that is shut as the table says: its page writable while
 * the bytes are written, and executable throughout, since this code may lie
 * in it. Where the system refuses a page both writable and executable, or
 * other threads run already, the gates stay shut and the entries still copy,
 * through the routine the library chose. An entry starts a line, so its
 * first 8 bytes change in one aligned store within one page.
 */
static void open_gates(void)
{
	long page = sysconf(_SC_PAGESIZE);

	if (page <= 0 || !only_thread())
		return;
	for (const struct preload_gate *g = copyperf_preload_gates; g->entry != NULL; g++) {
		void *start = (void *)((uintptr_t)g->entry & ~((uintptr_t)page - 1));
		uint64_t now, open;

		__builtin_memcpy(&now, g->entry, sizeof(now));
		if ((uintptr_t)g->entry % sizeof(now) != 0 || (now & g->bits) != g->shut ||
		    mprotect(start, (size_t)page, PROT_READ | PROT_WRITE | PROT_EXEC) != 0)
			return;
		__builtin_memcpy(&open, g->open, sizeof(open));
		__atomic_store_n((uint64_t *)(void *)g->entry, (now & ~g->bits) | (open & g->bits),
				 __ATOMIC_RELAXED);
		if (mprotect(start, (size_t)page, PROT_READ | PROT_EXEC) != 0) {
			say_left_writable(errno);
			return;
		}
	}
}
#endif

/*
 * The recorder first, if COPYPERF_RECORD asks for it; then, where nothing is
 * recorded and the library has chosen the routine the architecture's entries
 * are (its ifunc resolved: COPYPERF_ISA and the CPU as for every other
 * caller), those entries may copy by themselves. Before this runs, calls that
 * other constructors make go through the shut gates to the routine the
 * library chose.
 */
__attribute__((constructor)) static void preload_setup(void)
{
	copyperf_record_setup();
#ifdef COPYPERF_PRELOAD_ENTRIES
	if (!__atomic_load_n(&copyperf_record_on, __ATOMIC_ACQUIRE) &&
	    copyperf_preload_direct_copy == (copyperf_copy_fn)copyperf_memmove)
		open_gates();
#endif
}
