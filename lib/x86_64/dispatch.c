/* SPDX-License-Identifier: MIT */
/*
 * Chooses the x86-64 copy once per process: the widest variant the CPU and
 * OS support (or COPYPERF_ISA), with the thresholds from tuning.c.  The
 * pointers start at a resolver, so the first call anywhere (even from
 * another library's constructor, under LD_PRELOAD) chooses; no call after
 * that tests a feature.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "x86_copy.h"
#include "../generic/copy_compat.h"

struct variant {
	const char *isa;
	copyperf_copy_fn memcpy_fn, memmove_fn;
	int (*available)(void);
};

static const struct variant variants[] = { /* narrowest first */
	{ "generic", copyperf_generic_memcpy, copyperf_generic_memmove, NULL },
	{ "sse2", copyperf_memcpy_sse2, copyperf_memmove_sse2, NULL },
	{ "avx2", copyperf_memcpy_avx2, copyperf_memmove_avx2, x86_has_avx2 },
	{ "avx512", copyperf_memcpy_avx512, copyperf_memmove_avx512, x86_has_avx512 },
};
#define N_VARIANTS (sizeof(variants) / sizeof(variants[0]))
#define BASELINE 1 /* sse2: what a call gets while the choice is being made */

/* Empty windows until chosen: a variant called before then uses its vector loop. */
struct x86_tuning x86_tuning = { 0, 0, (size_t)-1 };

static struct x86_tuning_report report;
static const struct variant *chosen;

static int resolved; /* 0: not yet, 1: in progress, 2: done */

static const struct variant *choose(void)
{
	const char *want = getenv("COPYPERF_ISA");
	const struct variant *best = &variants[0];

	for (size_t i = 0; i < N_VARIANTS; i++) {
		const struct variant *v = &variants[i];
		int ok = v->available == NULL || v->available();

		if (want && *want && strcmp(want, v->isa) == 0) {
			if (ok)
				return v;
			env_warn("COPYPERF_ISA", want, "not supported by this CPU; using the best that is");
			want = NULL;
		}
		if (ok)
			best = v;
	}
	if (want && *want)
		env_warn("COPYPERF_ISA", want, "not one of generic, sse2, avx2, avx512; ignored");
	return best;
}

/* Returns non-zero once the choice is made; zero if another caller is making it. */
static int resolve(void)
{
	int expected = 0;

	if (__atomic_load_n(&resolved, __ATOMIC_ACQUIRE) == 2)
		return 1;
	if (!__atomic_compare_exchange_n(&resolved, &expected, 1, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return 0;
	x86_tuning_compute(x86_features(), &report);
	chosen = choose();
	x86_tuning = report.t;
	__atomic_store_n(&x86_memcpy_impl, chosen->memcpy_fn, __ATOMIC_RELEASE);
	__atomic_store_n(&x86_memmove_impl, chosen->memmove_fn, __ATOMIC_RELEASE);
	__atomic_store_n(&resolved, 2, __ATOMIC_RELEASE);
	return 1;
}

static void *resolve_memcpy(void *dst, const void *src, size_t n)
{
	if (!resolve())
		return variants[BASELINE].memcpy_fn(dst, src, n);
	return x86_memcpy_impl(dst, src, n);
}

static void *resolve_memmove(void *dst, const void *src, size_t n)
{
	if (!resolve())
		return variants[BASELINE].memmove_fn(dst, src, n);
	return x86_memmove_impl(dst, src, n);
}

copyperf_copy_fn x86_memcpy_impl = resolve_memcpy;
copyperf_copy_fn x86_memmove_impl = resolve_memmove;

/* Chosen at load time, so that no measured call is the one that chooses. */
__attribute__((constructor)) static void resolve_at_load(void)
{
	resolve();
}

static const char *origin(enum tuning_origin o)
{
	return o == FROM_ENV ? "environment" : "machine";
}

static void describe_size(char **p, char *end, const char *label, size_t v, enum tuning_origin o)
{
	int w = v == (size_t)-1 ?
			snprintf(*p, (size_t)(end - *p), "%s never (%s)", label, origin(o)) :
			snprintf(*p, (size_t)(end - *p), "%s %zu B (%s)", label, v, origin(o));

	if (w > 0 && w < end - *p)
		*p += w;
}

const char *copyperf_describe(void)
{
	static char line[400];
	char *p = line, *end = line + sizeof(line);
	const struct x86_features *f = x86_features();

	while (!resolve())
		; /* another thread is choosing: it takes microseconds */
	p += snprintf(p, sizeof(line), "x86-64 %s variant (CPU: sse2%s%s%s%s);", chosen->isa,
		      f->avx2 ? " avx2" : "", f->avx512 ? " avx512" : "", f->erms ? " erms" : "",
		      f->fsrm ? " fsrm" : "");
	if (strcmp(chosen->isa, "generic") == 0) {
		snprintf(p, (size_t)(end - p), " portable C, no thresholds");
		return line;
	}
	describe_size(&p, end, " rep movsb from", x86_tuning.rep_movsb_min, report.rep_min_from);
	describe_size(&p, end, " below", x86_tuning.rep_movsb_max, report.rep_max_from);
	describe_size(&p, end, "; non-temporal from", x86_tuning.nt_threshold, report.nt_from);
	snprintf(p, (size_t)(end - p), "; caches: L1d %zu B, L2 %zu B, LLC share %zu B", report.l1d,
		 report.l2, report.llc_share);
	return line;
}
