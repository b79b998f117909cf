/* SPDX-License-Identifier: MIT */
/*
 * copyperf_describe() on x86-64: the variant the dispatcher chose (dispatch.c),
 * the CPU's features, and each threshold with where it came from, in one line.
 */
#include <stdarg.h>
#include <stdio.h>
#include "copyperf.h"
#include "dispatch.h"
#include "x86_copy.h"

static const char *origin(enum tuning_origin o)
{
	return o == FROM_ENV ? "environment" : "machine";
}

/* Appends to the line at *p, and moves *p past it unless it did not fit. */
static __attribute__((format(printf, 3, 4))) void append(char **p, char *end, const char *fmt, ...)
{
	va_list ap;
	int w;

	va_start(ap, fmt);
	w = vsnprintf(*p, (size_t)(end - *p), fmt, ap);
	va_end(ap);
	if (w > 0 && w < end - *p)
		*p += w;
}

static void describe_size(char **p, char *end, const char *label, size_t v, enum tuning_origin o)
{
	if (v == (size_t)-1)
		append(p, end, "%s never (%s)", label, origin(o));
	else
		append(p, end, "%s %zu B (%s)", label, v, origin(o));
}

const char *copyperf_describe(void)
{
	static char line[600];
	char *p = line, *end = line + sizeof(line);
	const struct x86_features *f = copyperf_x86_features();
	const struct x86_tuning *t = &copyperf_x86_tuning;
	const struct x86_tuning_report *from;
	struct x86_choice v;

	copyperf_x86_choice(&v);
	from = v.report;
	p += snprintf(p, sizeof(line), "x86-64 %s variant (CPU: sse2%s%s%s%s);", v.isa,
		      f->avx2 ? " avx2" : "", f->avx512 ? " avx512" : "", f->erms ? " erms" : "",
		      f->fsrm ? " fsrm" : "");
	if (v.portable) {
		snprintf(p, (size_t)(end - p), " portable C, no thresholds");
		return line;
	}
	describe_size(&p, end, " rep movsb from", t->rep_movsb_min, from->rep_min_from);
	describe_size(&p, end, " below", t->rep_movsb_max, from->rep_max_from);
	if (t->rep_movsb_step)
		describe_size(&p, end, ", its first line by vectors from", t->rep_movsb_step,
			      from->rep_step_from);
	if (t->rep_movsb_min < t->rep_movsb_max && t->rep_movsb_near > 1)
		append(&p, end, " but never to a destination 1-%zu B past the source modulo 4 KiB (%s)",
		       t->rep_movsb_near - 1, origin(from->rep_near_from));
	if (t->rep_movsb_aligned < t->rep_movsb_min) {
		describe_size(&p, end, ", and from", t->rep_movsb_aligned, from->rep_aligned_from);
		append(&p, end, " where source and destination share their offset in a line");
	}
	describe_size(&p, end, "; non-temporal from", t->nt_threshold, from->nt_from);
	append(&p, end, ", %s (%s)",
	       t->nt_streams == 1   ? "one stream"
	       : t->nt_streams == 2 ? "two streams, one per half"
				    : "four streams a page apart",
	       origin(from->nt_streams_from));
	if (v.avx512) /* the AVX-512 variants: theirs is the loop it sets */
		append(&p, end, "; vector loop: %zu-byte loads (%s)", t->loop_vec,
		       origin(from->loop_vec_from));
	snprintf(p, (size_t)(end - p), "; caches: L1d %zu B, L2 %zu B, LLC share %zu B", from->l1d,
		 from->l2, from->llc_share);
	return line;
}
