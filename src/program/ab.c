/* SPDX-License-Identifier: MIT */
/*
 * The two sides timed in pairs:
 *  1. one warm-up of each side, untimed, standard output and error to files:
 *     the page cache, the dynamic loader's and the program's own first-run
 *     costs are paid there, the outputs are compared (--check) or kept
 *     (--keep-output), and a side that fails stops everything;
 *  2. n pairs, standard output and error to /dev/null, the side that goes
 *     first swapped from one pair to the next so that a drift of the machine
 *     weighs on both alike; a signal ends the loop at a pair's end;
 *  3. each side's median, min and max, the ratio of the medians, each pair's
 *     ratio, and a Mann-Whitney test of the two sides' wall times.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "interrupt.h"
#include "program.h"
#include "stats/mann_whitney.h"
#include "xalloc.h"

const char *program_side_name(const struct program_params *p, enum program_side s)
{
	if (p->control)
		return s == SIDE_WITHOUT ? "without the shim (A)" : "without the shim (A')";
	return s == SIDE_WITHOUT ? "without the shim" : "with the shim";
}

/* The last non-empty line of a file, at most len - 1 bytes of it. */
static void last_line(const char *path, char *out, size_t len)
{
	char buf[4096];
	int fd = open(path, O_RDONLY);
	off_t size;
	ssize_t n;
	char *end, *start;

	out[0] = '\0';
	if (fd < 0)
		return;
	size = lseek(fd, 0, SEEK_END);
	if (size > (off_t)sizeof(buf) - 1)
		lseek(fd, size - (off_t)sizeof(buf) + 1, SEEK_SET);
	else
		lseek(fd, 0, SEEK_SET);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	end = buf + n;
	while (end > buf && (end[-1] == '\n' || end[-1] == '\r'))
		*--end = '\0';
	start = memrchr(buf, '\n', (size_t)(end - buf));
	snprintf(out, len, "%.*s", (int)len - 1, start ? start + 1 : buf);
}

/*
 * Compares two files byte by byte.  Returns 1 when identical, 0 when not (where
 * said in detail), -1 when one cannot be read.
 */
static int same_files(const char *a, const char *b, char *detail, size_t len)
{
	int fa = open(a, O_RDONLY), fb = open(b, O_RDONLY), same = -1;
	static char ba[65536], bb[65536];
	unsigned long long at = 0;

	if (fa < 0 || fb < 0)
		goto out;
	for (;;) {
		ssize_t na = read(fa, ba, sizeof(ba)), nb = 0;

		while (na >= 0 && nb < na) {
			ssize_t r = read(fb, bb + nb, (size_t)(na - nb));

			if (r <= 0)
				break;
			nb += r;
		}
		if (na < 0 || nb < 0)
			goto out;
		for (ssize_t i = 0; i < nb; i++)
			if (ba[i] != bb[i]) {
				snprintf(detail, len, "first difference at byte %llu", at + (unsigned long long)i);
				same = 0;
				goto out;
			}
		if (nb < na) {
			snprintf(detail, len, "the output with the shim ends at byte %llu, before the other's",
				 at + (unsigned long long)nb);
			same = 0;
			goto out;
		}
		if (na == 0) {
			same = read(fb, bb, 1) == 0;
			if (!same)
				snprintf(detail, len, "the output without the shim ends at byte %llu, before the other's", at);
			goto out;
		}
		at += (unsigned long long)na;
	}
out:
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return same;
}

/* Records a run's status where it is the side's first failure. */
static bool run_ok(struct side_result *s, const struct run_time *t, unsigned run, const char *err_path)
{
	if (WIFEXITED(t->status) && WEXITSTATUS(t->status) == 0)
		return true;
	if (!s->bad_status) {
		s->bad_status = t->status ? t->status : -1;
		s->bad_run = run;
		if (err_path)
			last_line(err_path, s->stderr_tail, sizeof(s->stderr_tail));
	}
	return false;
}

static void output_path(const struct program_params *p, enum program_side s, const char *what,
			char *path, size_t len)
{
	const char *dir = p->keep_dir && !strcmp(what, "out") ? p->keep_dir : p->tmp_dir;
	const char *side = s == SIDE_WITHOUT ? "without-shim" : p->control ? "without-shim-again" : "with-shim";

	snprintf(path, len, "%s/%s.%s", dir, side, what);
}

static int warm_up(const struct program_params *p, struct program_result *r, char *why, size_t whylen)
{
	char out[2][4096], err[2][4096];

	for (int s = 0; s < SIDES; s++) {
		struct run_time t;

		output_path(p, (enum program_side)s, "out", out[s], sizeof(out[s]));
		output_path(p, (enum program_side)s, "err", err[s], sizeof(err[s]));
		if (!p->quiet)
			fprintf(stderr, "\rcopyperf program: warm-up %s   ", program_side_name(p, s));
		if (program_run(p, (enum program_side)s, NULL, out[s], err[s], &t, why, whylen))
			return -1;
		if (!run_ok(&r->side[s], &t, 0, err[s]))
			r->failed = true;
	}
	r->check = "not checked";
	if (p->check && !r->failed) {
		int same = same_files(out[SIDE_WITHOUT], out[SIDE_WITH], r->check_detail,
				      sizeof(r->check_detail));

		if (same < 0) {
			snprintf(why, whylen, "cannot read the outputs in %s: %s",
				 p->keep_dir ? p->keep_dir : p->tmp_dir, strerror(errno));
			return -1;
		}
		r->check = same ? "identical" : "differ";
		r->failed |= !same;
	}
	for (int s = 0; s < SIDES; s++) {
		if (!p->keep_dir)
			unlink(out[s]);
		unlink(err[s]);
	}
	return 0;
}

static void summarize_sides(struct program_result *r)
{
	unsigned n = r->pairs_done;
	double *ratios;
	struct mann_whitney mw;

	if (!n) {
		const struct summary none = { NAN, NAN, NAN, NAN, NAN };

		for (int s = 0; s < SIDES; s++)
			r->side[s].wall_s = r->side[s].user_s = r->side[s].sys_s = none;
		r->pair_ratio = none;
		r->ratio = r->p = NAN;
		r->verdict = "not measured";
		return;
	}
	ratios = xcalloc(n, sizeof(double), "the pairs' ratios");
	for (int s = 0; s < SIDES; s++) {
		struct side_result *d = &r->side[s];

		summarize(d->wall, n, &d->wall_s);
		summarize(d->user, n, &d->user_s);
		summarize(d->sys, n, &d->sys_s);
	}
	for (unsigned i = 0; i < n; i++)
		ratios[i] = r->side[SIDE_WITHOUT].wall[i] / r->side[SIDE_WITH].wall[i];
	summarize(ratios, n, &r->pair_ratio);
	free(ratios);
	r->ratio = r->side[SIDE_WITHOUT].wall_s.median / r->side[SIDE_WITH].wall_s.median;
	mann_whitney(r->side[SIDE_WITHOUT].wall, n, r->side[SIDE_WITH].wall, n, &mw);
	r->p = mw.p;
	r->verdict = !(mw.p < 0.05) ? "no difference" : r->ratio > 1 ? "faster" : "slower";
}

int program_measure(const struct program_params *p, struct program_result *r, char *why,
		    size_t whylen)
{
	for (int s = 0; s < SIDES; s++) {
		r->side[s].wall = xcalloc(p->pairs, sizeof(double), "the run times");
		r->side[s].user = xcalloc(p->pairs, sizeof(double), "the run times");
		r->side[s].sys = xcalloc(p->pairs, sizeof(double), "the run times");
	}
	if (warm_up(p, r, why, whylen))
		return -1;
	for (unsigned i = 0; i < p->pairs && !r->failed && !interrupt_signal(); i++) {
		for (int k = 0; k < SIDES; k++) {
			enum program_side s = (enum program_side)(i % 2 ? SIDES - 1 - k : k);
			struct run_time t;

			if (!p->quiet)
				fprintf(stderr, "\rcopyperf program: pair %u of %u, %s   ", i + 1, p->pairs,
					program_side_name(p, s));
			if (program_run(p, s, NULL, NULL, NULL, &t, why, whylen))
				return -1;
			r->side[s].wall[i] = t.wall;
			r->side[s].user[i] = t.user;
			r->side[s].sys[i] = t.sys;
			if (!run_ok(&r->side[s], &t, i + 1, NULL))
				r->failed = true;
		}
		if (!r->failed)
			r->pairs_done = i + 1;
	}
	if (!p->quiet)
		fprintf(stderr, "\r%60s\r", "");
	r->interrupted = interrupt_signal() != 0;
	summarize_sides(r);
	return 0;
}

void program_result_free(struct program_result *r)
{
	for (int s = 0; s < SIDES; s++) {
		free(r->side[s].wall);
		free(r->side[s].user);
		free(r->side[s].sys);
	}
}
