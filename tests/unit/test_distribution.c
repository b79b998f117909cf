/* SPDX-License-Identifier: MIT */
/*
 * The recorded call mixes: every shipped file, the forms a file may take (comment lines
 * included), each way a file can be wrong (refused at its line and column), the -d words (a
 * recording's two files too) and where the shipped files are found.  Run from the top of the tree, like every unit test: it reads data/distributions/.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <ctype.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "assert_near.h"
#include "measure/call_mixes/distribution.h"
#include "measure/call_mixes/distribution_files.h"

static char tmp[] = "/tmp/copyperf-dist-XXXXXX";
static char source_data[PATH_MAX]; /* this tree's data/, realpath */

/* Writes len bytes of text to a file of the temporary directory; returns its path. */
static const char *write_file(const char *name, const char *text, size_t len)
{
	static char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	return path;
}

static const char *write_text(const char *name, const char *text)
{
	return write_file(name, text, strlen(text));
}

static void read_ok(struct distribution *d, const char *path, const char *name)
{
	char err[512] = "";

	if (distribution_read(d, path, name, err, sizeof(err)))
		fail_msg("%s", err);
}

struct words {
	char **names, **paths;
	size_t n;
};

static void expand_ok(struct words *w, const char *word)
{
	char err[512] = "";

	if (distribution_expand(word, &w->names, &w->paths, &w->n, err, sizeof(err)))
		fail_msg("%s", err);
}

static void words_free(struct words *w)
{
	for (size_t i = 0; i < w->n; i++) {
		free(w->names[i]);
		free(w->paths[i]);
	}
	free(w->names);
	free(w->paths);
	memset(w, 0, sizeof(*w));
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);

	return n >= m && !strcmp(s + n - m, tail);
}

/* Values strictly ascending, each probability > 0, together 1. */
static void check_line(const struct dist_value *v, size_t n, unsigned line)
{
	double sum = 0;

	assert_true(n > 0);
	for (size_t i = 0; i < n; i++) {
		assert_true(v[i].p > 0);
		assert_int_equal(v[i].line, line);
		assert_true(v[i].column >= 1);
		if (i)
			assert_true(v[i].value > v[i - 1].value);
		sum += v[i].p;
	}
	assert_near(sum, 1, 1e-9);
}

static void test_every_shipped_file(void **state)
{
	static const char *const stems[] = {
		"Memcpy_0",  "Memcpy_1",  "Memcpy_2",  "Memcpy_3",  "Memcpy_4",
		"Memcpy_5",  "Memcpy_6",  "Memcpy_7",  "Memcpy_8",  "Memcpy_Fleet",
		"Memmove_0", "Memmove_1", "Memmove_2", "Memmove_3", "Memmove_4",
		"Memmove_5", "Memmove_6", "Memmove_7", "Memmove_8", "Memmove_Fleet",
	};
	struct words w = { 0 };

	(void)state;
	expand_ok(&w, "all");
	assert_int_equal(w.n, 20);
	for (size_t i = 0; i < w.n; i++) {
		struct distribution d;
		char file[32], name[32];

		snprintf(file, sizeof(file), "/%s.csv", stems[i]);
		for (size_t c = 0; c <= strlen(stems[i]); c++)
			name[c] = (char)tolower((unsigned char)stems[i][c]);
		assert_string_equal(w.names[i], name);
		assert_true(ends_with(w.paths[i], file));
		read_ok(&d, w.paths[i], w.names[i]);
		assert_string_equal(d.name, name);
		assert_string_equal(d.path, w.paths[i]);
		assert_int_equal(d.kind, i < 10 ? DIST_MEMCPY : DIST_MEMMOVE);
		check_line(d.sizes, d.n_sizes, 1);
		check_line(d.aligns, d.n_aligns, 3);
		assert_int_equal(d.n_aligns, 7);
		for (size_t a = 0; a < d.n_aligns; a++)
			assert_int_equal(d.aligns[a].value, 1u << a);
		assert_ptr_equal(d.largest, &d.sizes[d.n_sizes - 1]);
		assert_int_equal(d.max_size, d.largest->value);
		assert_true(d.mean_size > (double)d.sizes[0].value && d.mean_size < (double)d.max_size);
		assert_int_equal(d.sizes[0].column, 1);
		/* Memcpy_0..8 record no overlap at all; every other file some, the fleet's least */
		if (i < 9)
			assert_true(d.overlap == 0);
		else
			assert_true(d.overlap > 0 && d.overlap < 0.2);
		distribution_free(&d);
		assert_null(d.sizes);
	}
	words_free(&w);
}

/* Numbers read off the files by hand (and with another tool for the means). */
static void test_known_facts(void **state)
{
	static const struct {
		const char *word;
		size_t n_sizes;
		uint64_t max_size;
		unsigned max_column;
		double mean, overlap;
	} facts[] = {
		{ "memcpy_fleet", 1941, 261126, 32850, 135.33620394773197, 6.108489481389243e-05 },
		{ "memmove_7", 81, 204, 1084, 31.835884662823076, 0.007633593129773184 },
		{ "memcpy_7", 102, 21123, 1344, 79.6594194320297, 0 },
		{ "memmove_4", 467, 223421, 7438, 515.5405062765668, 0.174628 },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(facts) / sizeof(facts[0]); i++) {
		struct words w = { 0 };
		struct distribution d;

		expand_ok(&w, facts[i].word);
		assert_int_equal(w.n, 1);
		read_ok(&d, w.paths[0], w.names[0]);
		assert_int_equal(d.n_sizes, facts[i].n_sizes);
		assert_int_equal(d.max_size, facts[i].max_size);
		assert_int_equal(d.largest->line, 1);
		assert_int_equal(d.largest->column, facts[i].max_column);
		assert_near(d.mean_size, facts[i].mean, 1e-9 * facts[i].mean);
		assert_near(d.overlap, facts[i].overlap, 1e-12);
		distribution_free(&d);
		words_free(&w);
	}
}

/* Unsorted, a zero dropped, CRLF, a '\r' at the very end, unnormalised probabilities. */
static void test_loose_but_valid(void **state)
{
	struct distribution d;
	const char *path = write_text("mix.csv", "2:3,0:1,1:0\r\n0:1\r\n4096:1,1:3\r");

	(void)state;
	read_ok(&d, path, NULL);
	assert_string_equal(d.name, path);
	assert_int_equal(d.kind, DIST_MEMCPY);
	assert_int_equal(d.n_sizes, 2);
	assert_int_equal(d.sizes[0].value, 0);
	assert_near(d.sizes[0].p, 0.25, 1e-15);
	assert_int_equal(d.sizes[0].column, 5);
	assert_int_equal(d.sizes[1].value, 2);
	assert_near(d.sizes[1].p, 0.75, 1e-15);
	assert_int_equal(d.sizes[1].column, 1);
	assert_ptr_equal(d.largest, &d.sizes[1]);
	assert_near(d.mean_size, 1.5, 1e-15);
	assert_true(d.overlap == 0);
	assert_int_equal(d.n_aligns, 2);
	assert_int_equal(d.aligns[0].value, 1);
	assert_int_equal(d.aligns[0].column, 8);
	assert_near(d.aligns[0].p, 0.75, 1e-15);
	assert_int_equal(d.aligns[1].value, 4096);
	assert_int_equal(d.aligns[1].line, 3);
	distribution_free(&d);
}

/* Exponents, a bare point, 2^63, no final newline; overlap makes an unnamed file memmove. */
static void test_numbers_and_kind(void **state)
{
	const char *text = "9223372036854775808:1e-05,7:.5E1,8:2.\n1:1e+0,0:0\n64:1";
	struct distribution d;
	double sum = 5 + 2 + 1e-5;

	(void)state;
	read_ok(&d, write_text("plain.csv", text), NULL);
	assert_int_equal(d.n_sizes, 3);
	assert_int_equal(d.sizes[0].value, 7);
	assert_near(d.sizes[0].p, 5 / sum, 1e-15);
	assert_near(d.sizes[1].p, 2 / sum, 1e-15);
	assert_true(d.max_size == (uint64_t)1 << 63);
	assert_near(d.largest->p, 1e-5 / sum, 1e-18);
	assert_true(d.overlap == 1);
	assert_int_equal(d.kind, DIST_MEMMOVE);
	distribution_free(&d);
	/* The name's base name says memcpy: a memcpy mix, overlap or not; and the other way */
	read_ok(&d, write_text("MEMCPY_mine.csv", text), NULL);
	assert_int_equal(d.kind, DIST_MEMCPY);
	distribution_free(&d);
	read_ok(&d, write_text("plain.csv", "8:1\n0:1\n8:1\n"), "dir/memMove-like");
	assert_string_equal(d.name, "dir/memMove-like");
	assert_int_equal(d.kind, DIST_MEMMOVE);
	distribution_free(&d);
	/* Huge and tiny probabilities: normalised without overflow, the zero dropped */
	read_ok(&d, write_text("plain.csv", "1:1e308,2:1e308\n0:1e-320,1:0\n8:1\n"), NULL);
	assert_near(d.sizes[0].p, 0.5, 1e-15);
	assert_near(d.sizes[1].p, 0.5, 1e-15);
	assert_true(d.overlap == 0);
	distribution_free(&d);
}

/* The mix as written without comments, for the comparisons below. */
static void same_mix(const struct distribution *a, const struct distribution *b)
{
	assert_int_equal(a->n_sizes, b->n_sizes);
	for (size_t i = 0; i < a->n_sizes; i++) {
		assert_int_equal(a->sizes[i].value, b->sizes[i].value);
		assert_true(a->sizes[i].p == b->sizes[i].p);
		assert_int_equal(a->sizes[i].column, b->sizes[i].column);
	}
	assert_true(a->overlap == b->overlap);
	assert_int_equal(a->n_aligns, b->n_aligns);
	for (size_t i = 0; i < a->n_aligns; i++) {
		assert_int_equal(a->aligns[i].value, b->aligns[i].value);
		assert_true(a->aligns[i].p == b->aligns[i].p);
	}
	assert_true(a->mean_size == b->mean_size);
	assert_int_equal(a->kind, b->kind);
}

/*
 * Lines that start with '#' are skipped wherever they are, and counted in the line numbers
 * kept for later errors; COPYPERF_RECORD's own "# calls N" among them.
 */
static void test_comments(void **state)
{
	static const char *const texts[] = {
		"7:3,64:1\n0:0.75,1:0.25\n1:1,8:3\n# calls 4\n",
		"# calls 4\n7:3,64:1\n0:0.75,1:0.25\n1:1,8:3\n",
		"#\n# a comment, : and , in it\n7:3,64:1\n#\n0:0.75,1:0.25\n#x\n1:1,8:3",
		"7:3,64:1\r\n# between\r\n0:0.75,1:0.25\r\n1:1,8:3\r\n# calls 4\r\n#\r\n",
		"7:3,64:1\n0:0.75,1:0.25\n1:1,8:3\n# no newline at the end",
		"7:3,64:1\n0:0.75,1:0.25\n1:1,8:3\n#",
	};
	static const unsigned size_line[] = { 1, 2, 3, 1, 1, 1 };
	static const unsigned align_line[] = { 3, 4, 7, 4, 3, 3 };
	struct distribution plain, d;

	(void)state;
	read_ok(&plain, write_text("plain.csv", "7:3,64:1\n0:0.75,1:0.25\n1:1,8:3\n"), NULL);
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		read_ok(&d, write_text("commented.csv", texts[i]), NULL);
		same_mix(&d, &plain);
		assert_int_equal(d.sizes[0].line, size_line[i]);
		assert_int_equal(d.largest->line, size_line[i]);
		assert_int_equal(d.aligns[1].line, align_line[i]);
		distribution_free(&d);
	}
	assert_near(plain.overlap, 0.25, 1e-15);
	assert_int_equal(plain.kind, DIST_MEMMOVE);
	distribution_free(&plain);
}

/* A file's text and where and why the reader refuses it. */
struct refused {
	const char *text;
	unsigned line, column;
	const char *reason;
};

/* Case i, written to PREFIX_i.csv, is refused at its line:column for its reason. */
static void expect_refused(const char *prefix, size_t i, const struct refused *c)
{
	char name[64], want[PATH_MAX + 32], err[512] = "";
	struct distribution d;
	const char *path;

	snprintf(name, sizeof(name), "%s_%02zu.csv", prefix, i);
	path = write_text(name, c->text);
	snprintf(want, sizeof(want), "%s:%u:%u: %s", path, c->line, c->column, c->reason);
	assert_int_equal(distribution_read(&d, path, NULL, err, sizeof(err)), -1);
	if (strncmp(err, want, strlen(want)))
		fail_msg("case %zu: got '%s', want '%s...'", i, err, want);
	assert_null(d.name);
	assert_null(d.sizes);
}

/* The errors of a file with comments name the line an editor shows. */
static void test_bad_files_with_comments(void **state)
{
	static const struct refused cases[] = {
		{ "# only a comment\n", 2, 1, "not three lines: line 2 (sizes) is missing" },
		{ "# only a comment", 2, 1, "not three lines: line 2 (sizes) is missing" },
		{ "# calls 1\n1:1\n", 3, 1, "not three lines: line 3 (overlaps) is missing" },
		{ "1:1\n# c\n0:1\n# c\n", 5, 1, "not three lines: line 5 (alignments) is missing" },
		{ "1:1\n#\n\n8:1\n", 3, 1, "not three lines: line 3 (overlaps) is empty" },
		{ "1:1\n0:1\n8:1\n# calls 1\n1:1\n", 5, 1, "not three lines: line 5 is one too many" },
		{ "1:1\n0:1\n8:1\n# calls 1\n\n", 5, 1, "not three lines: line 5 is one too many" },
		{ "# a\n1:1\n# b\n2:1\n8:1\n", 4, 1, "overlap '2' is neither 0 nor 1" },
		{ "#\r\n#\r\n1:1\r\n0:1\r\n8:1,3:1\r\n", 5, 5, "alignment '3' is not a power of two" },
		{ "#\n1:0.5,2:0.2,1:0.3\n0:1\n8:1\n", 2, 13, "sizes key 1 is on the line twice" },
		/* '#' starts a comment only as a line's first character */
		{ "1:1,# c\n0:1\n8:1\n", 1, 5, "'# c' is not number:probability" },
		{ " # c\n1:1\n0:1\n8:1\n", 1, 1, "' # c' is not number:probability" },
		{ "1:1\n0:1\n8:1 # c\n", 3, 1, "'8:1 # c' is not number:probability" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		expect_refused("bad_comment", i, &cases[i]);
}

/* A recording's two files: the ending names the kind, whatever the start or the overlap. */
static void test_kind_from_the_ending(void **state)
{
	static const struct {
		const char *name;
		enum dist_kind kind;
	} cases[] = {
		{ "mix.memcpy", DIST_MEMCPY },
		{ "mix.1234.MemCpy", DIST_MEMCPY },
		{ "memmove_like.memcpy", DIST_MEMCPY },
		{ "mix.memmove", DIST_MEMMOVE },
		{ "memcpy_like.memmove", DIST_MEMMOVE },
		{ "memcpy.x", DIST_MEMCPY },      /* the start, as for the shipped names */
		{ "x.memcpy/mix", DIST_MEMMOVE }, /* a directory's name says nothing: the overlap */
		{ "mix.memcpyx", DIST_MEMMOVE },
	};
	struct distribution d;

	(void)state;
	write_text("overlapping.csv", "8:1\n0:0.5,1:0.5\n8:1\n");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/overlapping.csv", tmp);
		read_ok(&d, path, cases[i].name);
		if (d.kind != cases[i].kind)
			fail_msg("%s: kind %d, want %d", cases[i].name, d.kind, cases[i].kind);
		distribution_free(&d);
	}
}

static void test_bad_files(void **state)
{
#define OK23 "\n0:1\n8:1\n"
	static const struct refused cases[] = {
		{ "", 1, 1, "not three lines: line 1 (sizes) is missing" },
		{ "1:1\n", 2, 1, "not three lines: line 2 (overlaps) is missing" },
		{ "1:1\n0:1", 3, 1, "not three lines: line 3 (alignments) is missing" },
		{ "1:1\n0:1\n", 3, 1, "not three lines: line 3 (alignments) is missing" },
		{ "1:1\n\n8:1\n", 2, 1, "not three lines: line 2 (overlaps) is empty" },
		{ "1:1\r\n\r\n8:1\r\n", 2, 1, "not three lines: line 2 (overlaps) is empty" },
		{ "1:1\n0:1\n8:1\n\n", 4, 1, "not three lines: line 4 is one too many" },
		{ "1:1\n0:1\n8:1\n1:1", 4, 1, "not three lines: line 4 is one too many" },
		{ "1:0.5,,2:0.5" OK23, 1, 7, "empty pair" },
		{ "1:0.5," OK23, 1, 7, "empty pair" },
		{ ",1:0.5" OK23, 1, 1, "empty pair" },
		{ "1:0.5,20.5" OK23, 1, 7, "'20.5' is not number:probability" },
		{ "1:0.5,2x:0.5" OK23, 1, 7, "'2x:0.5' is not number:probability" },
		{ "1:0.5,2:0.5x" OK23, 1, 7, "'2:0.5x' is not number:probability" },
		{ "1:0.5,2::0.5" OK23, 1, 7, "'2::0.5' is not number:probability" },
		{ "1:0.5,2:0.5:1" OK23, 1, 7, "'2:0.5:1' is not number:probability" },
		{ "1:0.5, 2:0.5" OK23, 1, 7, "' 2:0.5' is not number:probability" },
		{ "1:0x1p-1" OK23, 1, 1, "'1:0x1p-1' is not number:probability" },
		{ ":1" OK23, 1, 1, "':1' is not number:probability" },
		{ "1:" OK23, 1, 1, "'1:' is not number:probability" },
		{ "1:e5" OK23, 1, 1, "'1:e5' is not number:probability" },
		{ "1:0.5\r,2:0.5" OK23, 1, 1, "'1:0.5?' is not number:probability" },
		{ "1:0.5,2:-0.5" OK23, 1, 9, "probability '-0.5' is negative" },
		{ "1:inf" OK23, 1, 3, "probability 'inf' is not finite" },
		{ "1:NaN" OK23, 1, 3, "probability 'NaN' is not finite" },
		{ "1:1e999" OK23, 1, 3, "probability '1e999' is not finite" },
		{ "1:1,10:-Infinity" OK23, 1, 8, "probability '-Infinity' is not finite" },
		{ "1:0,2:0" OK23, 1, 1, "every probability on the sizes line is 0" },
		{ "1:1\n0:1\n8:0,16:0.0e5\n", 3, 1, "every probability on the alignments line is 0" },
		{ "1.5:1" OK23, 1, 1, "size '1.5' is not a whole number" },
		{ "1:0.5,-1:0.5" OK23, 1, 7, "size '-1' is not a whole number" },
		{ "1e3:1" OK23, 1, 1, "size '1e3' is not a whole number" },
		{ "9223372036854775809:1" OK23, 1, 1, "size '9223372036854775809' is larger than 2^63" },
		{ "18446744073709551616:1" OK23, 1, 1, "size '18446744073709551616' is larger than 2^63" },
		{ "1:1\n0:0.5,2:0.5\n8:1\n", 2, 7, "overlap '2' is neither 0 nor 1" },
		{ "1:1\n0.5:1\n8:1\n", 2, 1, "overlap '0.5' is neither 0 nor 1" },
		{ "1:1\n0:1\n8:0.5,3:0.5\n", 3, 7, "alignment '3' is not a power of two" },
		{ "1:1\n0:1\n0:1\n", 3, 1, "alignment '0' is not a power of two" },
		{ "1:1\n0:1\n8192:1\n", 3, 1, "alignment '8192' is larger than 4096" },
		{ "1:0.5,2:0.2,1:0.3" OK23, 1, 13, "sizes key 1 is on the line twice (first at column 1)" },
		{ "1:0,1:1" OK23, 1, 5, "sizes key 1 is on the line twice" },
		{ "1:1\n0:0.5,0:0.5\n8:1\n", 2, 7, "overlaps key 0 is on the line twice" },
		{ "1:1\n0:1\n8:1,16:1,8:1\n", 3, 10, "alignments key 8 is on the line twice" },
	};
#undef OK23
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		expect_refused("bad", i, &cases[i]);
}

/* What a text editor or a careless tool can put in a file, the parser must name. */
static void test_odd_bytes_and_limits(void **state)
{
	static const char nul[] = "1:1\0,2:1\n0:1\n8:1\n";
	char err[512], want[PATH_MAX + 64], pair[200];
	size_t many = (1u << 18) + 1;
	char *text = malloc(4 * many + 16);
	struct distribution d;
	const char *path;

	(void)state;
	path = write_file("nul.csv", nul, sizeof(nul) - 1);
	assert_int_equal(distribution_read(&d, path, NULL, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s:1:1: '1:1?' is not number:probability", path);
	assert_string_equal(err, want);

	memset(pair, '1', sizeof(pair) - 1);
	pair[sizeof(pair) - 1] = '\0';
	path = write_text("long.csv", pair);
	assert_int_equal(distribution_read(&d, path, NULL, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s:1:1: a pair longer than 128 characters", path);
	assert_string_equal(err, want);

	/* One pair too many: refused at that pair, before the duplicates are looked for */
	assert_non_null(text);
	for (size_t i = 0; i < many; i++)
		memcpy(text + 4 * i, "0:1,", 4);
	strcpy(text + 4 * many - 1, "\n0:1\n8:1\n");
	path = write_text("many.csv", text);
	free(text);
	assert_int_equal(distribution_read(&d, path, NULL, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s:1:%zu: more than 262144 pairs on a line", path,
		 4 * (many - 1) + 1);
	assert_string_equal(err, want);

	/* An endless device is read only as far as its first bad pair */
	assert_int_equal(distribution_read(&d, "/dev/zero", NULL, err, sizeof(err)), -1);
	assert_string_equal(err, "/dev/zero:1:1: a pair longer than 128 characters");
}

static void test_unreadable(void **state)
{
	char err[512], want[PATH_MAX + 64], path[PATH_MAX];
	struct distribution d;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "%s/none.csv", tmp);
	assert_int_equal(distribution_read(&d, path, NULL, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s: cannot open (No such file or directory)", path);
	assert_string_equal(err, want);

	assert_int_equal(distribution_read(&d, tmp, NULL, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s: cannot read (Is a directory)", tmp);
	assert_string_equal(err, want);

	/* A sparse file past 16 MiB is refused before a byte of it is read */
	snprintf(path, sizeof(path), "%s/huge.csv", tmp);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_true(fputs("1:1\n0:1\n8:1\n", f) >= 0);
	assert_int_equal(ftruncate(fileno(f), (16 << 20) + 1), 0);
	fclose(f);
	assert_int_equal(distribution_read(&d, path, NULL, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s: larger than 16 MiB, so not a distribution", path);
	assert_string_equal(err, want);
	assert_int_equal(truncate(path, 16 << 20), 0);
	assert_int_equal(distribution_read(&d, path, NULL, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s:4:1: not three lines: line 4 is one too many", path);
	assert_string_equal(err, want);
}

/* A pipe has no size to look at first: its bytes are counted as they come. */
static void test_endless_pipe(void **state)
{
	char pair[130] = "0:0.", path[64], err[256];
	struct distribution d;
	int fd[2], status;
	pid_t writer;

	(void)state;
	memset(pair + 4, '0', 123);
	strcpy(pair + 127, "1,"); /* 128 characters and a comma: under the pair limits */
	assert_int_equal(pipe(fd), 0);
	writer = fork();
	assert_true(writer >= 0);
	if (writer == 0) {
		close(fd[0]);
		while (write(fd[1], pair, strlen(pair)) > 0)
			;
		_exit(0);
	}
	close(fd[1]);
	snprintf(path, sizeof(path), "/dev/fd/%d", fd[0]);
	assert_int_equal(distribution_read(&d, path, NULL, err, sizeof(err)), -1);
	close(fd[0]); /* the writer's next write fails, and it ends */
	assert_int_equal(waitpid(writer, &status, 0), writer);
	snprintf(pair, sizeof(pair), "%s: larger than 16 MiB, so not a distribution", path);
	assert_string_equal(err, pair);
}

static void expect_names(const char *word, const char *const *names, size_t n)
{
	struct words w = { 0 };

	expand_ok(&w, word);
	assert_int_equal(w.n, n);
	for (size_t i = 0; i < n; i++) {
		struct stat st;

		assert_string_equal(w.names[i], names[i]);
		assert_int_equal(stat(w.paths[i], &st), 0);
	}
	words_free(&w);
}

static void test_expand_words(void **state)
{
	static const char *const memcpys[] = {
		"memcpy_0", "memcpy_1", "memcpy_2", "memcpy_3", "memcpy_4",
		"memcpy_5", "memcpy_6", "memcpy_7", "memcpy_8", "memcpy_fleet",
	};
	static const char *const memmoves[] = {
		"memmove_0", "memmove_1", "memmove_2", "memmove_3", "memmove_4",
		"memmove_5", "memmove_6", "memmove_7", "memmove_8", "memmove_fleet",
	};
	static const char *const fleet[] = { "memcpy_fleet" };
	static const char *const seven[] = { "memmove_7" };
	struct words w = { 0 };
	const char *file;

	(void)state;
	expect_names("memcpy", memcpys, 10);
	expect_names("MemCpy", memcpys, 10);
	expect_names("memmove", memmoves, 10);
	expect_names("fleet", fleet, 1);
	expect_names("FLEET", fleet, 1);
	expect_names("Memcpy_Fleet", fleet, 1);
	expect_names("MEMMOVE_7", seven, 1);
	/* Words accumulate: all is the memcpy ten, then the memmove ten */
	expand_ok(&w, "all");
	expand_ok(&w, "fleet");
	file = write_text("own.csv", "8:1\n0:1\n8:1\n");
	expand_ok(&w, file);
	assert_int_equal(w.n, 22);
	for (size_t i = 0; i < 10; i++) {
		assert_string_equal(w.names[i], memcpys[i]);
		assert_string_equal(w.names[10 + i], memmoves[i]);
	}
	assert_string_equal(w.paths[20], w.paths[9]);
	assert_string_equal(w.names[21], file);
	assert_string_equal(w.paths[21], file);
	words_free(&w);
}

/* -d FILE with no file FILE: FILE.memcpy and FILE.memmove, those that exist, read as two. */
static void test_expand_recording(void **state)
{
	char base[sizeof(tmp) + 8], want[2][sizeof(base) + 16], err[512], twice[512];
	char *words[2] = { base, NULL };
	struct words w = { 0 };
	struct distribution *d;
	size_t n;

	(void)state;
	snprintf(base, sizeof(base), "%s/rec", tmp);
	write_text("rec.memcpy", "8:1\n0:1\n8:1\n# calls 1\n");
	write_text("rec.memmove", "16:1\n0:0.5,1:0.5\n8:1\n# calls 2\n");
	snprintf(want[0], sizeof(want[0]), "%s.memcpy", base);
	snprintf(want[1], sizeof(want[1]), "%s.memmove", base);
	expand_ok(&w, base);
	assert_int_equal(w.n, 2);
	for (size_t i = 0; i < 2; i++) {
		assert_string_equal(w.names[i], want[i]);
		assert_string_equal(w.paths[i], want[i]);
	}
	words_free(&w);

	/* Read as two mixes, each of its own kind */
	if (distribution_load(words, 1, &d, &n, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(n, 2);
	assert_string_equal(d[0].name, want[0]);
	assert_int_equal(d[0].kind, DIST_MEMCPY);
	assert_int_equal(d[0].max_size, 8);
	assert_string_equal(d[1].name, want[1]);
	assert_int_equal(d[1].kind, DIST_MEMMOVE);
	assert_int_equal(d[1].max_size, 16);
	distributions_free(d, n);

	/* One of them named as well: the same mix twice */
	words[1] = want[1];
	assert_int_equal(distribution_load(words, 2, &d, &n, err, sizeof(err)), -1);
	snprintf(twice, sizeof(twice), "--distribution: %s is given twice", want[1]);
	assert_string_equal(err, twice);
	assert_null(d);

	/* Only the memmove file: that one */
	assert_int_equal(unlink(want[0]), 0);
	expand_ok(&w, base);
	assert_int_equal(w.n, 1);
	assert_string_equal(w.names[0], want[1]);
	words_free(&w);

	/* A file named FILE itself is FILE, whatever lies beside it */
	write_text("rec", "32:1\n0:1\n8:1\n");
	expand_ok(&w, base);
	assert_int_equal(w.n, 1);
	assert_string_equal(w.names[0], base);
	words_free(&w);
	assert_int_equal(unlink(base), 0);

	/* A directory called FILE.memmove is no recording */
	assert_int_equal(unlink(want[1]), 0);
	assert_int_equal(mkdir(want[1], 0755), 0);
	assert_int_equal(distribution_expand(base, &w.names, &w.paths, &w.n, err, sizeof(err)), -1);
	assert_int_equal(w.n, 0);
	assert_int_equal(rmdir(want[1]), 0);
}

static void test_expand_bad_words(void **state)
{
	const char *const words[] = { "foo", "memcpy_9", "memcpy_", "memmove_fleets", "",
				      tmp, "/no/such/file.csv" };

	(void)state;
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		struct words w = { 0 };
		char err[512] = "", want[PATH_MAX + 64];

		assert_int_equal(distribution_expand(words[i], &w.names, &w.paths, &w.n, err,
						     sizeof(err)),
				 -1);
		snprintf(want, sizeof(want),
			 "--distribution: '%s' is not a shipped distribution (fleet, memcpy, memmove, "
			 "all, memcpy_0..8, memcpy_fleet, memmove_0..8, memmove_fleet), a readable "
			 "file or a recording (%s.memcpy, %s.memmove)",
			 words[i], words[i], words[i]);
		assert_string_equal(err, want);
		assert_int_equal(w.n, 0);
		words_free(&w);
	}
}

/* COPYPERF_DATADIR wins over every other place, and is read again at each call. */
static void test_datadir_from_the_environment(void **state)
{
	char data[sizeof(tmp) + 8], dir[sizeof(data) + 16], file[256], err[256];
	struct words w = { 0 };
	struct distribution d;
	const char *found;

	(void)state;
	snprintf(data, sizeof(data), "%s/data", tmp);
	snprintf(dir, sizeof(dir), "%s/distributions", data);
	assert_int_equal(mkdir(data, 0755), 0);
	assert_int_equal(mkdir(dir, 0755), 0);
	write_text("data/distributions/Memcpy_0.csv", "12345:1\n0:1\n8:1\n");
	assert_int_equal(setenv("COPYPERF_DATADIR", data, 1), 0);
	assert_string_equal(distribution_dir(), dir);
	expand_ok(&w, "memcpy_0");
	snprintf(file, sizeof(file), "%s/Memcpy_0.csv", dir);
	assert_string_equal(w.paths[0], file);
	read_ok(&d, w.paths[0], w.names[0]);
	assert_int_equal(d.max_size, 12345);
	distribution_free(&d);
	words_free(&w);

	/* A COPYPERF_DATADIR without distributions/: shipped names fail, saying so */
	assert_int_equal(setenv("COPYPERF_DATADIR", dir, 1), 0);
	assert_null(distribution_dir());
	assert_int_equal(distribution_expand("fleet", &w.names, &w.paths, &w.n, err, sizeof(err)),
			 -1);
	snprintf(file, sizeof(file), "--distribution: 'fleet': COPYPERF_DATADIR=%s has no "
		 "distributions/", dir);
	assert_string_equal(err, file);
	assert_int_equal(w.n, 0);

	/* Unset (or empty): the places the command looks in itself, here this tree's data */
	assert_int_equal(setenv("COPYPERF_DATADIR", "", 1), 0);
	found = distribution_dir();
	assert_non_null(found);
	assert_string_not_equal(found, dir);
	snprintf(file, sizeof(file), "%s/Memmove_Fleet.csv", found);
	assert_int_equal(access(file, R_OK), 0);
	assert_int_equal(unsetenv("COPYPERF_DATADIR"), 0);
	assert_ptr_equal(distribution_dir(), found);
	assert_int_equal(setenv("COPYPERF_DATADIR", source_data, 1), 0);
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_shipped_file),
		cmocka_unit_test(test_known_facts),
		cmocka_unit_test(test_loose_but_valid),
		cmocka_unit_test(test_numbers_and_kind),
		cmocka_unit_test(test_comments),
		cmocka_unit_test(test_bad_files_with_comments),
		cmocka_unit_test(test_kind_from_the_ending),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_odd_bytes_and_limits),
		cmocka_unit_test(test_unreadable),
		cmocka_unit_test(test_endless_pipe),
		cmocka_unit_test(test_expand_words),
		cmocka_unit_test(test_expand_recording),
		cmocka_unit_test(test_expand_bad_words),
		cmocka_unit_test(test_datadir_from_the_environment),
	};
	int failed;

	/* This tree's files, not an installed copy that distribution_dir() might find first */
	if (!realpath("data", source_data) || !mkdtemp(tmp)) {
		perror("test_distribution: run from the top of the tree");
		return 1;
	}
	setenv("COPYPERF_DATADIR", source_data, 1);
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	nftw(tmp, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	return failed;
}
