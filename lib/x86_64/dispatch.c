/* SPDX-License-Identifier: MIT */
/*
 * Chooses the x86-64 copy once per process: the widest variant the CPU and
 * OS support, or the one COPYPERF_ISA names.  The choice is made inside the
 * ifunc resolvers (memcpy.c, memmove.c), which run while the program is
 * being relocated: before the C library is ready for us (no errno, no TLS,
 * maybe unrelocated calls), so they use CPUID and raw system calls only.
 * The thresholds are read later, with the C library, by the first copy large
 * enough to use them (copyperf_x86_tune); until then every variant copies with
 * its vector loop.
 */
#include <stdlib.h>
#include <sys/syscall.h>
#include "dispatch.h"
#include "x86_copy.h"
#include "../generic/copy_compat.h"
#include "../text.h"

struct variant {
	const char *isa;
	copyperf_copy_fn memcpy_fn, memmove_fn;
	int (*available)(void);
};

/* Narrowest first; the last one the CPU has is the default, so the branchless one is never it. */
static const struct variant variants[] = {
	{ "generic", copyperf_generic_memcpy, copyperf_generic_memmove, NULL },
	{ "sse2", copyperf_memcpy_sse2, copyperf_memmove_sse2, NULL },
	{ "avx2", copyperf_memcpy_avx2, copyperf_memmove_avx2, copyperf_x86_has_avx2 },
	{ "avx512-branchless", copyperf_memcpy_avx512_branchless,
	  copyperf_memmove_avx512_branchless, copyperf_x86_has_avx512 },
	{ "avx512", copyperf_memcpy_avx512, copyperf_memmove_avx512, copyperf_x86_has_avx512 },
};
#define N_VARIANTS (sizeof(variants) / sizeof(variants[0]))

/*
 * Until copyperf_x86_tune has run: no window for 'rep movsb', and a
 * non-temporal threshold of 0, which sends the first disjoint copy past the
 * ladders to the non-temporal copy, where the thresholds are read (vec_copy.h);
 * no copy goes from a ladder to its loop without the C copy (loop_max 0).
 */
struct x86_tuning copyperf_x86_tuning __attribute__((aligned(X86_TUNING_ALIGN))) = {
	.loop_max = 0, .blocks_max = 512, .nt_threshold = 0, .nt_streams = 1, .loop_vec = 32
};
int copyperf_x86_tuned;

static struct x86_tuning_report report;
static const struct variant *chosen; /* written by the first resolver */
static char chosen_want[32];         /* the COPYPERF_ISA it read, if any */
static const char *chosen_why;       /* why that value was not honoured, or NULL */

/* choose()'s answer for a name not in the table: the constructor lists the table's names. */
static const char not_a_variant[] = "not a variant";

EARLY static long raw_syscall3(long nr, long a, long b, long c)
{
	long ret;

	__asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return ret;
}

/*
 * COPYPERF_ISA's value from /proc/self/environ, through raw system calls;
 * false if it is unset or cannot be read (no /proc: the CPU decides).
 */
EARLY static bool early_isa(char *out, size_t len)
{
	static const char key[] = "COPYPERF_ISA=";
	char buf[512];
	size_t matched = 0, kept = 0; /* bytes of key matched; of the value kept */
	bool in_value = false, at_start = true, found = false;
	/* openat, not open: a seccomp list of today's calls may allow only it */
	long fd = raw_syscall3(SYS_openat, -100 /* AT_FDCWD */, (long)"/proc/self/environ",
			       0 /* O_RDONLY */), got;

	if (fd < 0)
		return false;
	while (!found && (got = raw_syscall3(SYS_read, fd, (long)buf, sizeof(buf))) > 0) {
		for (long i = 0; i < got && !found; i++) {
			char c = buf[i];

			if (in_value) {
				if (c == '\0')
					found = true;
				else if (kept + 1 < len)
					out[kept++] = c;
			} else if (c == '\0') {
				at_start = true;
				matched = 0;
			} else if (at_start && c == key[matched]) {
				if (++matched == sizeof(key) - 1)
					in_value = true;
			} else {
				at_start = false;
			}
		}
	}
	raw_syscall3(SYS_close, fd, 0, 0);
	out[kept] = '\0';
	return in_value;
}

/* strcmp(a, b) == 0, without calling the C library (see the top of the file). */
EARLY static bool same_name(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/* The variant for `want` (NULL: the best); *why says why `want` was not honoured. */
EARLY static const struct variant *choose(const char *want, const char **why)
{
	const struct variant *best = &variants[0];

	*why = NULL;
	for (size_t i = 0; i < N_VARIANTS; i++) {
		const struct variant *v = &variants[i];
		int ok = v->available == NULL || v->available();

		if (want && same_name(want, v->isa)) {
			if (ok)
				return v;
			*why = "not supported by this CPU; using the best that is";
			want = NULL;
		}
		if (ok)
			best = v;
	}
	if (want)
		*why = not_a_variant;
	return best;
}

/* The first resolver chooses; the others, and later calls, take its choice. */
EARLY static const struct variant *choose_early(void)
{
	bool set;

	if (chosen)
		return chosen;
	set = early_isa(chosen_want, sizeof(chosen_want)) && chosen_want[0];
	chosen = choose(set ? chosen_want : NULL, &chosen_why);
	return chosen;
}

EARLY copyperf_copy_fn copyperf_x86_choose_memcpy(void)
{
	return choose_early()->memcpy_fn;
}

EARLY copyperf_copy_fn copyperf_x86_choose_memmove(void)
{
	return choose_early()->memmove_fn;
}

/* "not one of generic, sse2, ...; ignored" in why, from the table itself; returns why. */
static const char *unknown_variant(char *why, size_t len)
{
	char *p = why, *const end = why + len - 1;

	p = copyperf_text_put(p, end, "not one of ");
	for (size_t i = 0; i < N_VARIANTS; i++)
		p = copyperf_text_put(copyperf_text_put(p, end, i ? ", " : ""), end, variants[i].isa);
	copyperf_text_put(p, end, "; ignored");
	return why;
}

/*
 * The thresholds, once: the first caller computes them, and a copy made while
 * it does (by another thread, or by the computation itself) goes on with the
 * empty windows rather than wait or recurse.  Each threshold is stored whole,
 * and a copy is exact whatever mix of old and new ones it reads.
 */
void copyperf_x86_tune(void)
{
	static int started;
	struct x86_tuning_report r;

	if (__atomic_exchange_n(&started, 1, __ATOMIC_ACQ_REL))
		return;
	copyperf_x86_tuning_compute(copyperf_x86_features(), &r);
	/* not an assignment, which a compiler may make a call to memcpy: the shim's, here */
	copyperf_generic_memcpy(&report, &r, sizeof(report));
	copyperf_x86_tuning = r.t;
	__atomic_store_n(&copyperf_x86_tuned, 1, __ATOMIC_RELEASE);
}

/* With the C library ready: a warning about a COPYPERF_ISA not honoured. */
__attribute__((constructor)) static void check_isa_at_load(void)
{
	const char *want = getenv("COPYPERF_ISA");
	char why[160];

	choose_early();
	if (chosen_why)
		copyperf_env_warn("COPYPERF_ISA", want ? want : chosen_want,
				  chosen_why == not_a_variant ? unknown_variant(why, sizeof(why))
							      : chosen_why);
	else if (want && *want && !chosen_want[0])
		copyperf_env_warn("COPYPERF_ISA", want,
				  "not found in /proc/self/environ at load; ignored");
}

void copyperf_x86_choice(struct x86_choice *c)
{
	const struct variant *v = choose_early();

	copyperf_x86_tune();
	c->isa = v->isa;
	c->portable = v == &variants[0];
	c->avx512 = v->available == copyperf_x86_has_avx512;
	c->report = &report;
}
