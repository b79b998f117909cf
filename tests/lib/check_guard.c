/* SPDX-License-Identifier: MIT */
/*
 * Guard pages: the source and the destination each end exactly at, or start
 * exactly after, a PROT_NONE page.  A read or write past the range faults;
 * the fault is caught and reported as a defect instead of ending the run.
 */
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "check.h"

#define REGION ((size_t)64 * 1024 + 4096) /* room for the largest size checked */

static sigjmp_buf on_fault;

static void fault(int sig)
{
	siglongjmp(on_fault, sig);
}

struct guarded {
	unsigned char *src, *dst;   /* each REGION bytes with a PROT_NONE page either side */
	unsigned char *image;       /* what dst holds between copies */
	size_t region;              /* REGION rounded up to whole pages */
};

static const struct guarded *guarded(void)
{
	static struct guarded g;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t region = (REGION + page - 1) / page * page;

	if (g.src == NULL) {
		g.region = region;
		/* [guard][src][guard][dst][guard] */
		unsigned char *base = map_or_die(3 * page + 2 * region);

		if (mprotect(base, page, PROT_NONE) ||
		    mprotect(base + page + region, page, PROT_NONE) ||
		    mprotect(base + 2 * page + 2 * region, page, PROT_NONE))
			return NULL;
		g.src = base + page;
		g.dst = base + 2 * page + region;
		g.image = map_or_die(region);
		fill_pattern(g.src, region, 3);
		fill_pattern(g.image, region, 4);
		memcpy(g.dst, g.image, region);
	}
	return &g;
}

int copy_catching_faults(const struct subject *s, void *dst, const void *src, size_t n,
			 void **ret)
{
	int sig = sigsetjmp(on_fault, 1);

	if (sig == 0)
		*ret = s->fn(dst, src, n);
	return sig;
}

void catch_faults(int on)
{
	static struct sigaction old_segv, old_bus;
	struct sigaction sa;

	if (!on) {
		sigaction(SIGSEGV, &old_segv, NULL);
		sigaction(SIGBUS, &old_bus, NULL);
		return;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fault;
	sigaction(SIGSEGV, &sa, &old_segv);
	sigaction(SIGBUS, &sa, &old_bus);
}

static int one(const struct subject *s, const struct guarded *g, size_t n, int src_at_end,
	       int dst_at_end)
{
	size_t region = g->region;
	const unsigned char *src = src_at_end ? g->src + region - n : g->src;
	unsigned char *dst = dst_at_end ? g->dst + region - n : g->dst;
	size_t at = (size_t)(dst - g->dst);
	const char *where = src_at_end ? (dst_at_end ? "both end at a guard page" :
							 "src ends at a guard, dst starts after one") :
					 (dst_at_end ? "src starts after a guard, dst ends at one" :
						       "both start after a guard page");
	void *ret = NULL;
	int sig = copy_catching_faults(s, dst, src, n, &ret), bad = 0;

	if (sig)
		return report(s, "guard pages", "n=%zu, %s: signal %d (touched a guard page)", n,
			      where, sig);
	if (ret != dst || memcmp(dst, src, n))
		bad = report(s, "guard pages", "n=%zu, %s: wrong result", n, where);
	else if (memcmp(g->dst, g->image, at) ||
		 memcmp(dst + n, g->image + at + n, region - at - n))
		bad = report(s, "guard pages", "n=%zu, %s: wrote outside the range", n, where);
	memcpy(g->dst, g->image, region);
	return bad;
}

/*
 * A copy of 0 bytes touches nothing, so it may be given pointers that cannot
 * be read or written: NULL, the small addresses an empty Rust slice points
 * to, and inside a PROT_NONE page at its start, middle and last line.
 */
static int nothing_anywhere(const struct subject *s, const struct guarded *g)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	unsigned char *guard = g->dst + g->region; /* the last guard page */
	unsigned char *const at[] = { NULL, (unsigned char *)1, (unsigned char *)8, guard, guard + page / 2,
				      guard + page - 64 };
	int bad = 0;

	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++)
		for (size_t j = 0; j < sizeof(at) / sizeof(at[0]); j++) {
			void *ret = NULL;
			int sig = copy_catching_faults(s, at[i], at[j], 0, &ret);

			if (sig || ret != at[i])
				bad += report(s, "guard pages", "n=0, dst %p, src %p: %s", (void *)at[i],
					      (void *)at[j], sig ? "a signal" : "wrong return value");
		}
	return bad;
}

int check_guard_pages(const struct subject *s)
{
	const struct guarded *g = guarded();
	int bad = 0;

	if (g == NULL)
		return report(s, "guard pages", "cannot set up PROT_NONE pages");
	catch_faults(1);
	bad += nothing_anywhere(s, g);
	for (size_t i = 0;; i++) {
		/* 0..600, then powers of two from 1 KiB to 64 KiB, each also -1 and +1 */
		size_t n = i <= 600 ? i : ((size_t)1024 << (i - 601) / 3) - 1 + (i - 601) % 3;

		if (n > REGION)
			break;
		for (int src_end = 0; src_end < 2; src_end++)
			for (int dst_end = 0; dst_end < 2; dst_end++)
				bad += one(s, g, n, src_end, dst_end);
	}
	catch_faults(0);
	return bad;
}
