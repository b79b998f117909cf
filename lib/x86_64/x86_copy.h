/* SPDX-License-Identifier: MIT */
/*
 * What the x86-64 copies share: the CPU features they are chosen by, the
 * thresholds in force, and the variants the dispatcher chooses from.
 */
#ifndef COPYPERF_X86_COPY_H
#define COPYPERF_X86_COPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "../internal.h"
#include "alias_span.h"
#include "tuning_layout.h"

/*
 * Library-internal: bound at link time, never through the PLT, so the ifunc
 * resolvers can call them before this object's relocations are done.
 */
#pragma GCC visibility push(hidden)

/*
 * For the code an ifunc resolver runs: that is before the sanitizer runtimes,
 * the stack-protector canary (TLS, in a static program) and this object's
 * relocations are ready, so none of those may be used.
 */
#if defined(__clang__)
#define EARLY_NO_COVERAGE __attribute__((no_sanitize("coverage")))
#elif defined(__has_attribute) && __has_attribute(no_sanitize_coverage)
#define EARLY_NO_COVERAGE __attribute__((no_sanitize_coverage))
#else
#define EARLY_NO_COVERAGE
#endif
#define EARLY                                                                     \
	__attribute__((no_sanitize("address"), no_sanitize("undefined"), no_stack_protector)) \
	EARLY_NO_COVERAGE

struct x86_features {
	bool avx2, avx512; /* sse2 is the x86-64 baseline; avx512: F, BW and VL, and the OS saves the ZMM state */
	bool erms, fsrm;         /* fast 'rep movsb' (Enhanced REP MOVSB, Fast Short REP MOV) */
	unsigned amd_family;     /* AMD's CPU family (0x19: Zen 3 and 4, 0x1a: Zen 5), 0 on others */
	unsigned amd_model;      /* and its model, extended bits included */
};

/* Zen 4: AMD family 0x19, models 0x10-0x1f and 0x60-0xaf (the rest of the family is Zen 3). */
static inline bool x86_amd_zen4(const struct x86_features *f)
{
	return f->amd_family == 0x19 &&
	       ((f->amd_model >= 0x10 && f->amd_model <= 0x1f) ||
		(f->amd_model >= 0x60 && f->amd_model <= 0xaf));
}

/* Reads CPUID and XGETBV once. */
EARLY const struct x86_features *copyperf_x86_features(void);

/* CPUID leaf, subleaf: eax, ebx, ecx, edx into r. */
EARLY void copyperf_x86_cpuid(unsigned leaf, unsigned sub, unsigned r[4]);

/*
 * Sizes above the copies without a loop (16 vectors of AVX-512, 8 of AVX2
 * or SSE2), when the buffers are disjoint, go by 'rep movsb' if
 * rep_movsb_min <= n < rep_movsb_max but for a destination just past the
 * source within 4 KiB (x86_rep_movsb_aliased), or rep_movsb_aligned <= n
 * below that where source and destination lie at the same offset in their
 * lines, else by non-temporal stores if n >= nt_threshold; the rest by the
 * vector loop.
 * The string copy's window ends at or below nt_threshold, so the two never
 * meet. Read on every large copy, written once, when first needed. The first
 * two fields follow from the others; the ladders read them, and loop_vec
 * (tuning_layout.h), all in the struct's first line.
 */
struct x86_tuning {
	size_t loop_max;   /* past its blocks, a ladder jumps to its loop below this (x86_loop_only_below) */
	size_t blocks_max; /* the AVX-512 ladder's largest copy in blocks: 16 vectors, or 8 where loop_vec is 32 */
	size_t rep_movsb_min;
	size_t rep_movsb_max;
	size_t rep_movsb_aligned; /* at most rep_movsb_min */
	size_t nt_threshold;
	size_t rep_movsb_step; /* a 'rep movsb' this long starts slower (Zen 5: 16 KiB); 0: none */
	size_t loop_vec; /* the AVX-512 variant's vector loop moves 64 or 32 bytes a load */
	size_t nt_streams; /* the non-temporal loop's: 1, 2 (one per half) or 4 (a page apart) */
	size_t rep_movsb_near; /* no 'rep movsb' to a destination less than this past the source modulo 4 KiB */
};

_Static_assert(offsetof(struct x86_tuning, loop_max) == X86_TUNING_LOOP_MAX, "tuning_layout.h");
_Static_assert(offsetof(struct x86_tuning, blocks_max) == X86_TUNING_BLOCKS_MAX, "tuning_layout.h");
_Static_assert(offsetof(struct x86_tuning, loop_vec) == X86_TUNING_LOOP_VEC, "tuning_layout.h");
_Static_assert(offsetof(struct x86_tuning, nt_streams) == X86_TUNING_ALIGN,
	       "every field a copy below the string copy's window reads in the first line");

extern struct x86_tuning copyperf_x86_tuning;

/*
 * Non-zero once copyperf_x86_tuning holds the machine's thresholds.  They are
 * read from sysfs by the first copy that uses them (copyperf_x86_tune), not
 * at load: every process the shim is preloaded into would otherwise pay for
 * reading a dozen files, many of them without ever copying that much.
 */
extern int copyperf_x86_tuned;

/* Fills copyperf_x86_tuning; a call while another is at it returns at once (dispatch.c). */
void copyperf_x86_tune(void);

/* Whether 'rep movsb' takes n: rep_movsb_min <= n < rep_movsb_max, in one compare. */
static inline bool x86_rep_movsb_takes(const struct x86_tuning *t, size_t n)
{
	return n - t->rep_movsb_min < t->rep_movsb_max - t->rep_movsb_min;
}

/*
 * Whether a copy whose destination lies `ahead` bytes past its source (d - s)
 * must not go by 'rep movsb': where the destination lies less than
 * rep_movsb_near bytes past the source within 4 KiB (1 to 63 modulo 4096 with
 * the rule's 64), whatever the distance itself. There Zen 4's string copy runs
 * far slower than the vector loop, as if its loads waited for its own stores,
 * whose addresses they match in the bits below 4 KiB (tuning.c says on which
 * processors the rule holds).
 */
static inline bool x86_rep_movsb_aliased(const struct x86_tuning *t, uintptr_t ahead)
{
	return ((ahead - 1) & (X86_ALIAS_SPAN - 1)) + 1 < t->rep_movsb_near;
}

/*
 * The size from which copy_large (vec_copy.h) may take another way than its
 * forward loop, for buffers that do not overlap with the destination above
 * the source: below it the ladders jump to the loop themselves (loop_max),
 * without the jump to the C copy and its tests, which are a visible part of
 * a copy of a few hundred bytes. The same decisions as copy_large's, in its
 * order: below rep_movsb_min the loop, or 'rep movsb' from rep_movsb_aligned;
 * from rep_movsb_min the string copy's window, if it is not empty, then the
 * non-temporal stores. 0 before the thresholds are read (every one 0): then
 * the C copy reads them.
 */
static inline size_t x86_loop_only_below(const struct x86_tuning *t)
{
	if (t->rep_movsb_aligned < t->rep_movsb_min)
		return t->rep_movsb_aligned;
	if (t->rep_movsb_max > t->rep_movsb_min)
		return t->rep_movsb_min;
	return t->nt_threshold > t->rep_movsb_min ? t->nt_threshold : t->rep_movsb_min;
}

/* How a threshold got its value, for copyperf_describe(). */
enum tuning_origin { FROM_MACHINE, FROM_ENV };

struct x86_tuning_report {
	struct x86_tuning t;
	enum tuning_origin rep_min_from, rep_max_from, rep_aligned_from, nt_from, nt_streams_from,
		rep_step_from, loop_vec_from, rep_near_from;
	size_t l1d, l2, llc_share; /* the cache sizes the defaults came from (bytes, 0: unknown) */
	size_t llc_per_cpu;        /* the LLC over the CPUs that share it */
	size_t llc_counted;        /* llc_share with each CPU's part capped (tuning.c) */
};

/* Derives the thresholds from the machine, then applies the environment's overrides. */
void copyperf_x86_tuning_compute(const struct x86_features *f, struct x86_tuning_report *r);

/* Warns once on standard error about a bad environment variable, without stdio. */
void copyperf_env_warn(const char *name, const char *value, const char *why);

/* The variants; each is a whole memcpy/memmove for one instruction set. */
#define X86_VARIANT(isa)                                                         \
	void *copyperf_memcpy_##isa(void *restrict dst, const void *restrict src, size_t n); \
	void *copyperf_memmove_##isa(void *dst, const void *src, size_t n)
X86_VARIANT(sse2);
X86_VARIANT(avx2);
X86_VARIANT(avx512);
X86_VARIANT(avx512_branchless); /* AVX-512 without a size test under 64 B */

/*
 * The large copies, where the variants' ladders jump past their blocks
 * (copy_sse2.c, copy_avx2.c, copy_avx512.c; the ladders in copy_vec_ladder.S
 * and copy_avx512_ladder.S).
 */
void *copyperf_x86_sse2_memcpy_large(void *dst, const void *src, size_t n);
void *copyperf_x86_sse2_memmove_large(void *dst, const void *src, size_t n);
void *copyperf_x86_avx2_memcpy_large(void *dst, const void *src, size_t n);
void *copyperf_x86_avx2_memmove_large(void *dst, const void *src, size_t n);
void *copyperf_x86_avx512_memcpy_large(void *dst, const void *src, size_t n);
void *copyperf_x86_avx512_memmove_large(void *dst, const void *src, size_t n);

/*
 * The loops of the large copies, n > 8 vectors (loops.S); _avx512_tuned:
 * 64-byte vectors where loop_vec is 64, else 32.
 */
void *copyperf_x86_forward_sse2(unsigned char *d, const unsigned char *s, size_t n);
void *copyperf_x86_forward_avx2(unsigned char *d, const unsigned char *s, size_t n);
void *copyperf_x86_forward_avx512(unsigned char *d, const unsigned char *s, size_t n);
void *copyperf_x86_forward_avx512_tuned(unsigned char *d, const unsigned char *s, size_t n);
void *copyperf_x86_backward_sse2(unsigned char *d, const unsigned char *s, size_t n);
void *copyperf_x86_backward_avx2(unsigned char *d, const unsigned char *s, size_t n);
void *copyperf_x86_backward_avx512_tuned(unsigned char *d, const unsigned char *s, size_t n);

/*
 * The AVX-512 entries' page test, for the unit test (copy_avx512_ladder.S): 1
 * where the masked moves may take the pointers.
 */
int copyperf_x86_page_test(const void *dst, const void *src);

/* The string copy alone, a routine in the registry (rep_movsb.c). */
void *copyperf_rep_movsb(void *dst, const void *src, size_t n);

EARLY int copyperf_x86_has_avx2(void);
EARLY int copyperf_x86_has_avx512(void);

/* The ifunc resolvers' answers (dispatch.c): what copyperf_memcpy/copyperf_memmove become. */
EARLY copyperf_copy_fn copyperf_x86_choose_memcpy(void);
EARLY copyperf_copy_fn copyperf_x86_choose_memmove(void);

#pragma GCC visibility pop

#endif
