/* SPDX-License-Identifier: MIT */
/*
 * The shipped call mixes, replayed as copyperf -d draws them: each call's
 * size and pointer alignments (memmove's overlaps too) from the recorded
 * distribution, against a reference memmove, in an arena whose sides are
 * fenced by PROT_NONE pages; then each call again with its source ending
 * at one guard page and its destination starting after another, and the
 * other way round. A masked move that read or wrote past its bytes faults.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "check.h"
#include "../../src/measure/call_mixes/call_list.h"
#include "../../src/measure/call_mixes/distribution_files.h"

#define MIX_WORKING_SET 16384 /* small: the calls start close to the guards */
#define MIX_CALLS 4096
#define MIX_SEED 2008
#define PAGE 4096

/* The distributions, read once: memcpy's mixes for every subject, memmove's for memmoves. */
static struct distribution *mixes;
static size_t n_mixes;
static int load_failed;

static int load_mixes(void)
{
	char *all = "all", err[512];

	if (mixes || load_failed)
		return !load_failed;
	if (distribution_load(&all, 1, &mixes, &n_mixes, err, sizeof(err))) {
		printf("FAIL call mixes: %s (set COPYPERF_DATADIR to copyperf's share directory)\n",
		       err);
		load_failed = 1;
	}
	return !load_failed;
}

struct fenced {
	const struct call_list *l;
	unsigned char *arena, *image; /* image: what the arena must hold */
};

/* One call of s at arena offsets dst and src, checked against the reference around it. */
static int one_call(const struct subject *s, const struct fenced *f, const char *mix,
		    size_t dst, size_t src, size_t n, const char *where)
{
	const struct call_list *l = f->l;
	size_t side = dst >= l->dst_side && dst <= l->dst_side + l->side ? l->dst_side : l->src_side;
	size_t lo = dst - side > CANARY ? dst - CANARY : side;
	size_t hi = dst + n + CANARY < side + l->side ? dst + n + CANARY : side + l->side;
	void *ret = NULL;
	int sig = copy_catching_faults(s, f->arena + dst, f->arena + src, n, &ret);

	memmove(f->image + dst, f->image + src, n);
	if (sig)
		return report(s, "call mixes", "%s, n=%zu %s: signal %d (touched a guard page)", mix,
			      n, where, sig);
	if (ret != f->arena + dst)
		return report(s, "call mixes", "%s, n=%zu %s: returned %p, not dst", mix, n, where,
			      ret);
	if (memcmp(f->arena + lo, f->image + lo, hi - lo)) {
		memcpy(f->arena + lo, f->image + lo, hi - lo);
		return report(s, "call mixes", "%s, n=%zu src%%64=%zu dst%%64=%zu %s: wrong bytes in "
			      "or around the destination", mix, n, src % 64, dst % 64, where);
	}
	return 0;
}

static int replay(const struct subject *s, const struct distribution *d)
{
	struct call_list l;
	struct fenced f = { &l, NULL, NULL };
	char err[256];
	int bad = 0;

	if (call_list_build(&l, d, MIX_WORKING_SET, MIX_SEED, MIX_CALLS, err, sizeof(err)))
		return report(s, "call mixes", "%s", err);
	f.arena = map_or_die(l.arena);
	f.image = map_or_die(l.arena);
	fill_pattern(f.arena, l.arena, 5);
	/* [guard][source side][guard][destination side][guard]; memmove: one side */
	if (mprotect(f.arena, PAGE, PROT_NONE) ||
	    mprotect(f.arena + l.src_side + l.side, PAGE, PROT_NONE) ||
	    mprotect(f.arena + l.dst_side + l.side, PAGE, PROT_NONE))
		bad = report(s, "call mixes", "cannot set up PROT_NONE pages");
	memcpy(f.image + l.src_side, f.arena + l.src_side, l.side);
	memcpy(f.image + l.dst_side, f.arena + l.dst_side, l.side);
	for (size_t i = 0; i < l.n && !bad; i++) {
		const struct call *c = &l.calls[i];
		size_t src_end = l.src_side + l.side - c->size, dst_end = l.dst_side + l.side - c->size;

		bad += one_call(s, &f, d->name, c->dst, c->src, c->size, "where drawn");
		bad += one_call(s, &f, d->name, l.dst_side, src_end, c->size,
				"src ending at a guard, dst after one");
		bad += one_call(s, &f, d->name, dst_end, l.src_side, c->size,
				"src after a guard, dst ending at one");
	}
	if (!bad && (memcmp(f.arena + l.src_side, f.image + l.src_side, l.side) ||
		     memcmp(f.arena + l.dst_side, f.image + l.dst_side, l.side)))
		bad = report(s, "call mixes", "%s: the arena differs from the reference after the "
			     "calls", d->name);
	munmap(f.arena, l.arena);
	munmap(f.image, l.arena);
	call_list_free(&l);
	return bad;
}

int check_mixes(const struct subject *s)
{
	int bad = 0;

	if (!load_mixes())
		return 1;
	catch_faults(1);
	for (size_t i = 0; i < n_mixes; i++)
		if (mixes[i].kind == DIST_MEMCPY || s->overlap_ok)
			bad += replay(s, &mixes[i]);
	catch_faults(0);
	return bad;
}
