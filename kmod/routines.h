/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The copies the module measures, and the timed walk that measures one. */
#ifndef COPYPERF_KMOD_ROUTINES_H
#define COPYPERF_KMOD_ROUTINES_H

#include <linux/types.h>

struct cp_routine {
	const char *name;
	const char *description;
	u32 direction; /* enum copyperf_direction */
	u32 flags;     /* COPYPERF_ROUTINE_SELFTEST */
};

extern const struct cp_routine cp_routines[];
extern const unsigned int cp_n_routines;

/* One timed walk, the 2008 way, through buffers already filled and flushed. */
struct cp_walk {
	void *dst, *src;             /* walked ranges: kernel or (cast) user addresses */
	void *dst_alias, *src_alias; /* kernel addresses of the same bytes, for the flush */
	/*
	 * What a right pass leaves (walk bytes of the source's pattern), in the
	 * module's own memory: neither a routine writing its source nor the
	 * command's other threads changing a user source can move the mark.
	 * NULL where the walk does not wrap.
	 */
	const void *ref;
	size_t walk;                 /* bytes walked before starting over: whole chunks */
	size_t chunk;
	u64 count;                   /* chunks to copy */
	u32 cache;                   /* enum copyperf_cache */
	bool dst_user;               /* dst_alias maps user pages: alias cache upkeep */
	/* results */
	u64 ns;
	size_t last_pass; /* bytes the last pass copied: after a wrap, the rest is the complement */
	long left;        /* > 0: bytes a user copy left; < 0: a memcpy did not return dst */
	size_t failed_at; /* offset of the chunk that failed */
	bool pass_wrong;  /* a pass's check found wrong_at wrong: the walk stopped there */
	size_t wrong_at;
};

/*
 * Runs routine id over w.  Returns 0 (w->left tells whether every chunk was
 * copied), or -EINTR when the caller was killed meanwhile.
 */
int cp_routine_walk(unsigned int id, struct cp_walk *w);

#endif
