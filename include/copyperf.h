/* SPDX-License-Identifier: MIT */
/*
 * libcopyperf: memory-copy routines and the registry that names them.
 *
 * Every routine the copyperf command can measure is described by a
 * struct copyperf_routine.  The library registers its own routines (and the
 * C library's memcpy/memmove, so they can be measured side by side);
 * a program may add more with copyperf_routine_register().
 */
#ifndef COPYPERF_H
#define COPYPERF_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define COPYPERF_VERSION "0.1.0"

/* C99's restrict, spelled as C++ and C89 compilers (GCC, Clang) know it. */
#if defined(__cplusplus) || !defined(__STDC_VERSION__) || __STDC_VERSION__ < 199901L
#define COPYPERF_RESTRICT __restrict
#else
#define COPYPERF_RESTRICT restrict
#endif

/* The fast copies.  Exact at every size and alignment; memmove allows overlap. */
void *copyperf_memcpy(void *COPYPERF_RESTRICT dst, const void *COPYPERF_RESTRICT src, size_t n);
void *copyperf_memmove(void *dst, const void *src, size_t n);

/*
 * One line: the variant copyperf_memcpy/copyperf_memmove use in this process
 * and the thresholds in force (set by COPYPERF_ISA, COPYPERF_REP_MOVSB_MIN,
 * COPYPERF_REP_MOVSB_MAX, COPYPERF_REP_MOVSB_ALIGNED, COPYPERF_REP_MOVSB_STEP,
 * COPYPERF_REP_MOVSB_NEAR, COPYPERF_NT_THRESHOLD, COPYPERF_NT_STREAMS and
 * COPYPERF_LOOP_VEC, read once at load time; the README has their defaults).
 */
const char *copyperf_describe(void);

/* Every routine has memcpy's signature and returns dst. */
typedef void *(*copyperf_copy_fn)(void *dst, const void *src, size_t n);

/* Routine flags. */
#define COPYPERF_OVERLAP_OK 0x1u /* correct for overlapping buffers (memmove) */

struct copyperf_routine {
	const char *name;        /* short, unique: what --routines takes */
	const char *description; /* one line, for --list */
	copyperf_copy_fn fn;
	int (*available)(void);  /* non-zero if it runs on this CPU; NULL: always */
	unsigned flags;
};

/* Registry: the library's routines first, then registered ones, in order. */
size_t copyperf_routine_count(void);
const struct copyperf_routine *copyperf_routine_at(size_t index);
/* NULL if no routine has that name. */
const struct copyperf_routine *copyperf_routine_find(const char *name);
int copyperf_routine_available(const struct copyperf_routine *r);
/*
 * Adds a routine (the struct must outlive the program's use of the registry).
 * Returns 0, or -1 if the name is taken or the registry is full.
 */
int copyperf_routine_register(const struct copyperf_routine *r);

const char *copyperf_version(void);

#ifdef __cplusplus
}
#endif

#endif /* COPYPERF_H */
