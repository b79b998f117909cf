/* SPDX-License-Identifier: MIT */
/*
 * Reads fleetbench's three-line call mixes.  The file is read a character at a time, so only
 * the pairs kept grow with it, and both its bytes and each line's pairs are bounded: a huge or
 * endless file is refused, never slurped.  A line that starts with '#' is a comment wherever
 * it is (COPYPERF_RECORD adds "# calls N"): skipped whole, but counted in the line numbers of
 * errors, so that they point at the line an editor shows.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "distribution.h"

#define MAX_FILE  (16u << 20) /* bytes; the largest shipped file has 33 KB */
#define MAX_PAIRS (1u << 18)  /* per line; the fleet's sizes are 1941 */
#define MAX_PAIR  128         /* characters of one pair, ample for two numbers */
#define MAX_ALIGN 4096        /* the shipped files stop at 64 */
#define GET_FAIL  (-2)        /* from get(): the error is set */

static const char *const line_what[3] = { "sizes", "overlaps", "alignments" };

struct reader {
	FILE *f;
	const char *path;
	unsigned line;   /* being read, 1-based, comments counted */
	unsigned what;   /* which of the three it is, 1-based */
	unsigned column; /* of the next character */
	size_t bytes;
	char *err;
	size_t errlen;
};

static int fail_at(struct reader *r, unsigned line, unsigned column, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail_at(struct reader *r, unsigned line, unsigned column, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (line)
		snprintf(r->err, r->errlen, "%s:%u:%u: %s", r->path, line, column, msg);
	else
		snprintf(r->err, r->errlen, "%s: %s", r->path, msg);
	return -1;
}

static int too_large(struct reader *r)
{
	return fail_at(r, 0, 0, "larger than %u MiB, so not a distribution", MAX_FILE >> 20);
}

/* The next character, EOF at the end, GET_FAIL (error set) on a read error or past MAX_FILE. */
static int get(struct reader *r)
{
	int c = getc(r->f);

	if (c == EOF && ferror(r->f))
		return fail_at(r, 0, 0, "cannot read (%s)", strerror(errno)), GET_FAIL;
	if (c == EOF)
		return EOF;
	if (++r->bytes > MAX_FILE)
		return too_large(r), GET_FAIL;
	r->column = c == '\n' ? 1 : r->column + 1;
	return c;
}

/* Like get(), but "\r\n" and a '\r' at the end of the file read as the line's end ('\n', EOF). */
static int get_text(struct reader *r)
{
	int c = get(r), next;

	if (c != '\r')
		return c;
	next = getc(r->f);
	if (next == EOF)
		return ferror(r->f) ? get(r) : EOF;
	ungetc(next, r->f);
	return next == '\n' ? get(r) : c;
}

/* Where the number at s ends: digits with an optional point, then an optional exponent. */
static size_t number_len(const char *s)
{
	size_t i = 0, digits;

	i += s[i] == '+' || s[i] == '-';
	digits = strspn(s + i, "0123456789");
	i += digits;
	if (s[i] == '.') {
		size_t frac = strspn(s + i + 1, "0123456789");

		digits += frac;
		i += 1 + frac;
	}
	if (!digits)
		return 0;
	if (s[i] == 'e' || s[i] == 'E') {
		size_t j = i + 1 + (s[i + 1] == '+' || s[i + 1] == '-');
		size_t exp = strspn(s + j, "0123456789");

		if (exp)
			i = j + exp;
	}
	return i;
}

static int whole(const char *s)
{
	return s[0] && s[strspn(s, "0123456789")] == '\0';
}

/* An error in the pair or number at column of the line being read. */
#define bad(r, column, ...) fail_at(r, (r)->line, column, __VA_ARGS__)

/* A key (its text a number) as its line allows, into *v; else the error. */
static int read_key(struct reader *r, const char *key, unsigned column, uint64_t *v)
{
	int big;

	errno = 0;
	*v = whole(key) ? strtoull(key, NULL, 10) : 0;
	big = errno == ERANGE;
	switch (r->what) {
	case 1:
		if (!whole(key))
			return bad(r, column, "size '%s' is not a whole number", key);
		if (big || *v > (uint64_t)1 << 63)
			return bad(r, column, "size '%s' is larger than 2^63", key);
		return 0;
	case 2:
		if (!whole(key) || big || *v > 1)
			return bad(r, column, "overlap '%s' is neither 0 nor 1", key);
		return 0;
	default:
		if (!whole(key) || !*v || (*v & (*v - 1)))
			return bad(r, column, "alignment '%s' is not a power of two", key);
		if (big || *v > MAX_ALIGN)
			return bad(r, column, "alignment '%s' is larger than %u", key, MAX_ALIGN);
		return 0;
	}
}

/* The pair as read (len characters), for an error message, anything unprintable as '?'. */
static int not_a_pair(struct reader *r, unsigned column, char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (text[i] < ' ' || text[i] > '~')
			text[i] = '?';
	return bad(r, column, "'%s' is not number:probability", text);
}

/* One pair, len characters of text (NUL-terminated) from column, into *out. */
static int read_pair(struct reader *r, char *text, size_t len, unsigned column,
		     struct dist_value *out)
{
	char *colon = memchr(text, ':', len), *prob, *end;
	unsigned prob_column;

	if (!len)
		return bad(r, column, "empty pair (expected number:probability)");
	/* strlen: a NUL read from the file ends the string early */
	if (strlen(text) != len || !colon || colon == text ||
	    number_len(text) != (size_t)(colon - text))
		return not_a_pair(r, column, text, len);
	prob = colon + 1;
	prob_column = column + (unsigned)(prob - text);
	/* strtod takes more than decimals: inf and nan are named as such, hex floats refused */
	out->p = strtod(prob, &end);
	if (*prob && !*end && !isfinite(out->p))
		return bad(r, prob_column, "probability '%s' is not finite", prob);
	if (!*prob || number_len(prob) != strlen(prob))
		return not_a_pair(r, column, text, len);
	if (out->p < 0)
		return bad(r, prob_column, "probability '%s' is negative", prob);
	*colon = '\0';
	out->line = r->line;
	out->column = column;
	return read_key(r, text, column, &out->value);
}

static int by_value(const void *a, const void *b)
{
	const struct dist_value *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return x->column < y->column ? -1 : x->column > y->column;
}

/*
 * The line's values sorted, each key once, the probabilities normalised to add up to 1 and
 * the zeros dropped.  Checked once the whole line is read, so a later pair's syntax comes first.
 */
static int settle_line(struct reader *r, struct dist_value *v, size_t *n)
{
	const struct dist_value *twice = NULL;
	double most = 0, sum = 0;
	size_t kept = 0;

	qsort(v, *n, sizeof(*v), by_value);
	for (size_t i = 1; i < *n; i++)
		if (v[i].value == v[i - 1].value && (!twice || v[i].column < twice->column))
			twice = &v[i];
	if (twice)
		return bad(r, twice->column, "%s key %llu is on the line twice (first at column %u)",
			   line_what[r->what - 1], (unsigned long long)twice->value, twice[-1].column);
	for (size_t i = 0; i < *n; i++)
		most = fmax(most, v[i].p);
	if (most == 0)
		return bad(r, 1, "every probability on the %s line is 0", line_what[r->what - 1]);
	/* Scaled by the largest first, so that huge probabilities cannot add up to infinity. */
	for (size_t i = 0; i < *n; i++)
		sum += v[i].p / most;
	for (size_t i = 0; i < *n; i++)
		if (v[i].p > 0) {
			double p = v[i].p / most / sum;

			v[kept] = v[i];
			v[kept++].p = p;
		}
	*n = kept;
	return 0;
}

/*
 * The first character of the next line that is not a comment, or EOF or GET_FAIL; the
 * comment lines before it are read whole and counted in r->line.
 */
static int skip_comments(struct reader *r)
{
	int c;

	while ((c = get_text(r)) == '#') {
		do
			c = get_text(r);
		while (c != '\n' && c != EOF && c != GET_FAIL);
		if (c == GET_FAIL)
			return c;
		r->line++;
		if (c == EOF)
			return c;
	}
	return c;
}

/*
 * Data line `what` (1-based) of the file, from the next line that is not a comment, into a
 * malloc'd *v, and the character that ended it ('\n' or EOF) into *end; r->line then counts
 * it.  Returns 0, or -1 with the error set.
 */
static int read_line(struct reader *r, unsigned what, struct dist_value **v, size_t *n, int *end)
{
	char text[MAX_PAIR + 1];
	size_t cap = 0, len = 0;
	unsigned column = 1;
	int c = skip_comments(r);

	r->what = what;
	for (;; c = get_text(r)) {
		if (c == GET_FAIL)
			return -1;
		if (c != ',' && c != '\n' && c != EOF) {
			if (len == MAX_PAIR)
				return bad(r, column, "a pair longer than %d characters", MAX_PAIR);
			text[len++] = (char)c;
			continue;
		}
		if (!len && !*n && c != ',')
			return bad(r, 1, "not three lines: line %u (%s) is %s", r->line,
				   line_what[what - 1], c == EOF ? "missing" : "empty");
		if (*n == MAX_PAIRS)
			return bad(r, column, "more than %u pairs on a line", MAX_PAIRS);
		if (*n == cap) {
			struct dist_value *grown = realloc(*v, (cap = cap ? 2 * cap : 64) *
							       sizeof(**v));

			if (!grown)
				return fail_at(r, 0, 0, "out of memory");
			*v = grown;
		}
		text[len] = '\0';
		if (read_pair(r, text, len, column, &(*v)[(*n)++]))
			return -1;
		if (c != ',') {
			*end = c;
			if (settle_line(r, *v, n))
				return -1;
			r->line++;
			return 0;
		}
		len = 0;
		column = r->column;
	}
}

/*
 * The three lines, each into v[i] (n[i] values); after the third, nothing but comments and
 * the end.
 */
static int read_lines(struct reader *r, struct dist_value *v[3], size_t n[3])
{
	struct stat st;
	int end = '\n';

	if (fstat(fileno(r->f), &st) == 0 && S_ISREG(st.st_mode) && (uintmax_t)st.st_size > MAX_FILE)
		return too_large(r);
	for (unsigned what = 1; what <= 3; what++)
		if (read_line(r, what, &v[what - 1], &n[what - 1], &end))
			return -1;
	if (end == '\n') {
		end = skip_comments(r);
		if (end == GET_FAIL)
			return -1;
		if (end != EOF)
			return fail_at(r, r->line, 1, "not three lines: line %u is one too many",
				       r->line);
	}
	return 0;
}

/* Whether name ends in tail, in any case. */
static int ends_in(const char *name, const char *tail)
{
	size_t n = strlen(name), t = strlen(tail);

	return n >= t && !strcasecmp(name + n - t, tail);
}

/*
 * The kind, from the name where it says: first its ending, as COPYPERF_RECORD names its two
 * files (FILE.memcpy, FILE.memmove), then the start of its base name, as the shipped mixes
 * are named (memcpy_3, memmove_fleet); else any overlap makes it a memmove mix.
 */
static enum dist_kind kind_of(const char *name, double overlap)
{
	const char *slash = strrchr(name, '/'), *base = slash ? slash + 1 : name;

	if (ends_in(base, ".memmove"))
		return DIST_MEMMOVE;
	if (ends_in(base, ".memcpy"))
		return DIST_MEMCPY;
	if (!strncasecmp(base, "memmove", 7))
		return DIST_MEMMOVE;
	if (!strncasecmp(base, "memcpy", 6))
		return DIST_MEMCPY;
	return overlap > 0 ? DIST_MEMMOVE : DIST_MEMCPY;
}

int distribution_read(struct distribution *d, const char *path, const char *name, char *err,
		      size_t errlen)
{
	struct reader r = { .path = path, .line = 1, .column = 1, .err = err, .errlen = errlen };
	struct dist_value *v[3] = { NULL, NULL, NULL };
	size_t n[3] = { 0, 0, 0 };
	int rc;

	memset(d, 0, sizeof(*d));
	r.f = fopen(path, "r");
	if (!r.f)
		return fail_at(&r, 0, 0, "cannot open (%s)", strerror(errno));
	rc = read_lines(&r, v, n);
	fclose(r.f);
	d->name = strdup(name ? name : path);
	d->path = strdup(path);
	if (rc == 0 && (!d->name || !d->path))
		rc = fail_at(&r, 0, 0, "out of memory");
	for (size_t i = 0; rc == 0 && i < n[1]; i++) /* a refused line's last pair is unread */
		if (v[1][i].value == 1)
			d->overlap = v[1][i].p;
	free(v[1]);
	if (rc) {
		free(v[0]);
		free(v[2]);
		distribution_free(d);
		return -1;
	}
	d->sizes = v[0];
	d->n_sizes = n[0];
	d->aligns = v[2];
	d->n_aligns = n[2];
	for (size_t i = 0; i < n[0]; i++)
		d->mean_size += d->sizes[i].p * (double)d->sizes[i].value;
	d->largest = &d->sizes[n[0] - 1];
	d->max_size = d->largest->value;
	d->kind = kind_of(d->name, d->overlap);
	return 0;
}

void distribution_free(struct distribution *d)
{
	free(d->name);
	free(d->path);
	free(d->sizes);
	free(d->aligns);
	memset(d, 0, sizeof(*d));
}
