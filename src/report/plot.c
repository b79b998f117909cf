/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "atomic_file.h"
#include "interrupt.h"
#include "output.h"
#include "plot.h"
#include "sizes.h"
#include "stats/stats.h"
#include "xalloc.h"

/* The most lines, or a replay's clusters of bars, that one plot draws. */
#define PLOT_MOST 1000

/* The plot's size; a replay's grows wider with its bars. */
#define PLOT_HEIGHT 680
#define PLOT_WIDTH 1000

static const char *terminal_for(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (dot && !strcmp(dot, ".svg"))
		return "svg dynamic background rgb 'white' font 'sans,12'";
	if (dot && !strcmp(dot, ".png"))
		return "pngcairo background rgb 'white' font 'sans,10'";
	return NULL;
}

/* gnuplot's absolute path from $PATH, or NULL. */
static char *find_gnuplot(void)
{
	const char *path = getenv("PATH");
	char *copy = xstrdup(path ? path : "/usr/bin:/bin", "finding gnuplot"), *cursor = copy, *dir;

	while ((dir = strsep(&cursor, ":")) != NULL) {
		char *full = xcalloc(strlen(dir) + sizeof("/gnuplot") + 1, 1, "finding gnuplot");

		sprintf(full, "%s/gnuplot", *dir ? dir : ".");
		if (access(full, X_OK) == 0) {
			free(copy);
			return full;
		}
		free(full);
	}
	free(copy);
	return NULL;
}

int plot_check(const char *path, char *why, size_t whylen)
{
	struct atomic_file a;
	char *gnuplot, err[512];

	if (!terminal_for(path)) {
		snprintf(why, whylen, "plot: '%s' must end in .svg or .png", path);
		return -1;
	}
	if (!(gnuplot = find_gnuplot())) {
		snprintf(why, whylen,
			 "plot: gnuplot is not installed (on Debian: apt-get install gnuplot-nox)");
		return -1;
	}
	free(gnuplot);
	/* Whether the file can be written at all, before anything is measured. */
	if (atomic_file_open(&a, path, err, sizeof(err))) {
		snprintf(why, whylen, "plot: %s", err);
		return -1;
	}
	atomic_file_discard(&a);
	return 0;
}

/* A byte that would end a script's line, or a datablock's, or mean something else there. */
static bool control(char c)
{
	return (unsigned char)c < 0x20 || c == 0x7f;
}

/* A gnuplot single-quoted string: a quote inside is written twice. */
static void quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(control(*s) ? ' ' : *s, f);
	}
	fputc('\'', f);
}

/* Text inside a double-quoted gnuplot string, where a backslash starts an escape. */
static void double_quoted_text(FILE *f, const char *s)
{
	for (; *s; s++)
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else
			fputc(control(*s) ? ' ' : *s, f);
}

static int by_chunk(const void *x, const void *y)
{
	const struct result_row *a = *(const struct result_row *const *)x;
	const struct result_row *b = *(const struct result_row *const *)y;

	return (a->chunk > b->chunk) - (a->chunk < b->chunk);
}

static int by_threads(const void *x, const void *y)
{
	const struct result_row *a = *(const struct result_row *const *)x;
	const struct result_row *b = *(const struct result_row *const *)y;

	return (a->threads > b->threads) - (a->threads < b->threads);
}

static void title(FILE *f, const struct result_set *s, bool replay)
{
	char total[32], buffer[32], machine[320], line[400];

	format_size(s->total, total, sizeof(total));
	format_size(s->buffer, buffer, sizeof(buffer));
	snprintf(machine, sizeof(machine), "copyperf: %s, %s", s->cpu, s->kernel);
	if (result_set_is_program(s))
		snprintf(line, sizeof(line), "a program without and with the preload shim, %u runs a side",
			 s->repeat);
	else if (replay)
		snprintf(line, sizeof(line), "recorded call mixes replayed, seed %llu%s%s, %u repeats",
			 (unsigned long long)s->seed, result_set_calling(s) ? ", " : "",
			 result_set_calling(s) ? result_set_calling(s) : "", s->repeat);
	else
		snprintf(line, sizeof(line),
			 "cache %s, %s per point, two %s buffers, align %llu:%llu, %u repeats",
			 s->cache, total, buffer, (unsigned long long)s->align_src,
			 (unsigned long long)s->align_dst, s->repeat);
	/* a double-quoted string, so that \n breaks the line: the only escape in it */
	fputs("set title \"", f);
	double_quoted_text(f, machine);
	fputs("\\n", f);
	double_quoted_text(f, line);
	fputs("\"\n", f);
}

/* Tick labels at every chunk size measured: 8 B ... 64 KiB. */
static void xtics(FILE *f, const struct result_set *sets, size_t n_sets)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	for (size_t s = 0; s < n_sets; s++)
		for (size_t i = 0; i < sets[s].n; i++) {
			uint64_t c = sets[s].rows[i].chunk;

			lo = c < lo ? c : lo;
			hi = c > hi ? c : hi;
		}
	if (hi == 0)
		return;
	fprintf(f, "set xrange [%g:%g]\nset xtics (", (double)lo / 1.3, (double)hi * 1.3);
	for (uint64_t c = lo, first = 1; c <= hi && c; c *= 2, first = 0) {
		char label[32];

		format_size(c, label, sizeof(label));
		fprintf(f, "%s'%s' %llu", first ? "" : ", ", label, (unsigned long long)c);
	}
	fputs(")\n", f);
}

/*
 * A line's rows: one routine and space, against chunk size; or, when several
 * thread counts were measured (x_threads), one routine, space and chunk
 * against threads.  An order of lines: 0 exactly when on the same line.
 */
static int line_order(const struct result_row *a, const struct result_row *b, bool x_threads)
{
	int c = strcmp(a->routine, b->routine);

	if (!c)
		c = strcmp(a->space, b->space);
	if (!c && x_threads)
		c = (a->chunk > b->chunk) - (a->chunk < b->chunk);
	return c;
}

/* For qsort of a set's row pointers: by line, then by place in the set. */
static int by_place(const struct result_row *a, const struct result_row *b, int c)
{
	return c ? c : (a > b) - (a < b);
}

static int by_line(const void *x, const void *y)
{
	const struct result_row *a = *(const struct result_row *const *)x;
	const struct result_row *b = *(const struct result_row *const *)y;

	return by_place(a, b, line_order(a, b, false));
}

static int by_line_and_chunk(const void *x, const void *y)
{
	const struct result_row *a = *(const struct result_row *const *)x;
	const struct result_row *b = *(const struct result_row *const *)y;

	return by_place(a, b, line_order(a, b, true));
}

/* A line of a set: its rows, from the first to appear in the set. */
struct line {
	const struct result_row **rows;
	size_t n;
};

static int by_first_row(const void *x, const void *y)
{
	const struct result_row *a = ((const struct line *)x)->rows[0];
	const struct result_row *b = ((const struct line *)y)->rows[0];

	return (a > b) - (a < b);
}

/*
 * The lines of a set (see line_order) in order of their first rows; *rows
 * holds them (free both).  By sorting: a file may hold tens of thousands of rows.
 */
static size_t set_lines(const struct result_set *s, bool x_threads, struct line **lines,
			const struct result_row ***rows)
{
	const struct result_row **r = xcalloc(s->n + 1, sizeof(*r), "the plot");
	struct line *l = xcalloc(s->n + 1, sizeof(*l), "the plot");
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++)
		r[i] = &s->rows[i];
	qsort(r, s->n, sizeof(*r), x_threads ? by_line_and_chunk : by_line);
	for (size_t i = 0; i < s->n; i++) {
		if (!i || line_order(r[i - 1], r[i], x_threads))
			l[n++] = (struct line){ &r[i], 0 };
		l[n - 1].n++;
	}
	qsort(l, n, sizeof(*l), by_first_row);
	*lines = l;
	*rows = r;
	return n;
}

/* The verified rows of a line into out, in the x axis' order; returns how many. */
static size_t series(const struct line *l, const struct result_row **out, bool x_threads)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n; i++)
		if (l->rows[i]->verified)
			out[n++] = l->rows[i];
	qsort(out, n, sizeof(*out), x_threads ? by_threads : by_chunk);
	return n;
}

/* True when the sets' chunk rows were measured on more than one thread count. */
static bool several_thread_counts(const struct result_set *sets, size_t n_sets)
{
	unsigned first = 0, counts[2];

	for (size_t s = 0; s < n_sets; s++) {
		size_t n = result_set_thread_counts(&sets[s], counts, 2);

		if (n > 1 || (n == 1 && first && counts[0] != first))
			return true;
		first = n ? counts[0] : first;
	}
	return false;
}

/*
 * A replay's categories on the x axis: each distribution and working set that
 * some set has a verified row of, in the order they first appear.
 */
struct categories {
	const struct result_row **rows; /* the first such row of each */
	size_t n;
};

static void categories_collect(struct categories *c, const struct result_set *sets, size_t n_sets)
{
	size_t cap = 1;

	for (size_t s = 0; s < n_sets; s++)
		cap += sets[s].n;
	c->n = 0;
	c->rows = xcalloc(cap, sizeof(*c->rows), "the plot");
	for (size_t s = 0; s < n_sets; s++)
		for (size_t i = 0; i < sets[s].n; i++) {
			const struct result_row *r = &sets[s].rows[i];
			size_t k = 0;

			while (k < c->n && !row_same_place(c->rows[k], r))
				k++;
			if (k == c->n && r->verified && c->n <= PLOT_MOST)
				c->rows[c->n++] = r;
		}
}

/* The datablock of one line: chunk (or threads), median, min and max MB/s. */
static void chunk_datablock(FILE *f, const struct result_row **rows, size_t n, bool x_threads)
{
	for (size_t k = 0; k < n; k++) {
		struct summary sum;

		row_speed_summary(rows[k], &sum);
		fprintf(f, "%llu %.6g %.6g %.6g\n",
			(unsigned long long)(x_threads ? rows[k]->threads : rows[k]->chunk),
			sum.median / BYTES_PER_MB, sum.min / BYTES_PER_MB, sum.max / BYTES_PER_MB);
	}
}

/*
 * The datablock of one routine's bars: a line per category, its label, the
 * median, min and max ns per call, or NaN where the routine has no such row.
 */
static void replay_datablock(FILE *f, const struct result_row **rows, size_t n,
			     const struct categories *c)
{
	for (size_t k = 0; k < c->n; k++) {
		const struct result_row *r = NULL;
		char label[256];
		struct summary sum;
		double unit;

		for (size_t i = 0; i < n && !r; i++)
			r = row_same_place(rows[i], c->rows[k]) ? rows[i] : NULL;
		/* a double-quoted column on a line of its own: no quote, no line break inside */
		row_where(c->rows[k], label, sizeof(label));
		for (char *q = label; *q; q++)
			*q = *q == '"' ? '\'' : control(*q) ? ' ' : *q;
		fprintf(f, "\"%s\"", label);
		if (!r) {
			fputs(" NaN NaN NaN\n", f);
			continue;
		}
		/*
		 * the speeds are calls per second: the slowest call time is the lowest
		 * speed's; a program's "calls" are runs, seconds long
		 */
		row_speed_summary(r, &sum);
		unit = row_is_program(r) ? 1 : 1e9;
		fprintf(f, " %.6g %.6g %.6g\n", unit / sum.median, unit / sum.max, unit / sum.min);
	}
}

/*
 * The datablocks go to f at once, the plot command's clauses to plot; returns
 * the lines (a replay's: its series of bars, c its categories).
 */
static size_t lines(FILE *f, FILE *plot, const struct result_set *sets, size_t n_sets,
		    const struct categories *c, bool x_threads)
{
	size_t block = 0;

	for (size_t s = 0; s < n_sets; s++) {
		const struct result_row **rows = xcalloc(sets[s].n + 1, sizeof(*rows), "the plot");
		const struct result_row **by_line_rows;
		struct line *ls;
		size_t n_lines = set_lines(&sets[s], x_threads, &ls, &by_line_rows);

		for (size_t i = 0; i < n_lines; i++) {
			const struct result_row *r = ls[i].rows[0];
			char label[512], chunk[48] = "";
			size_t n;

			if (!(n = series(&ls[i], rows, x_threads)))
				continue;
			if (x_threads) {
				strcpy(chunk, ", chunk ");
				format_size(r->chunk, chunk + strlen(chunk), sizeof(chunk) - strlen(chunk));
			}
			fprintf(f, "$line%zu << EOD\n", block);
			if (c)
				replay_datablock(f, rows, n, c);
			else
				chunk_datablock(f, rows, n, x_threads);
			fputs("EOD\n", f);
			if (n_sets > 1)
				snprintf(label, sizeof(label), "%s (%s%s, %s)", r->routine, r->space,
					 chunk, sets[s].source);
			else
				snprintf(label, sizeof(label), "%s (%s%s)", r->routine, r->space, chunk);
			fprintf(plot, "%s$line%zu using ", block ? ", \\\n     " : "plot ", block);
			if (c)
				fputs(block ? "2:3:4 title " : "2:3:4:xtic(1) title ", plot);
			else
				fputs("1:2:3:4 with yerrorlines lw 1.5 pt 7 ps 0.6 title ", plot);
			quoted(plot, label);
			block++;
		}
		free(rows);
		free(ls);
		free(by_line_rows);
	}
	return block;
}

/* Throughput against chunk size, a line per routine, on a log2 axis. */
static void chunk_axes(FILE *f, const char *path, const struct result_set *sets, size_t n_sets)
{
	fprintf(f, "set terminal %s size %d,%d\n", terminal_for(path), PLOT_WIDTH, PLOT_HEIGHT);
	fputs("set logscale x 2\nset xlabel 'chunk size'\n"
	      "set ylabel 'throughput [MB/s, 2^20 B/s]: median, min-max bars'\n"
	      "set yrange [0:*]\nset grid\nset key below horizontal samplen 3 spacing 1.1 height 1\n"
	      "set bars small\n",
	      f);
	xtics(f, sets, n_sets);
}

/* How many lines (see line_order) the sets hold: at most the lines drawn. */
static size_t count_lines(const struct result_set *sets, size_t n_sets, bool x_threads)
{
	size_t n = 0;

	for (size_t s = 0; s < n_sets; s++) {
		const struct result_row **rows;
		struct line *ls;

		n += set_lines(&sets[s], x_threads, &ls, &rows);
		free(ls);
		free(rows);
	}
	return n;
}

/* Aggregate throughput against the number of threads copying, a line per routine and chunk. */
static void threads_axes(FILE *f, const char *path, const struct result_set *sets, size_t n_sets)
{
	unsigned most = 1, counts[256];

	for (size_t s = 0; s < n_sets; s++) {
		size_t n = result_set_thread_counts(&sets[s], counts, 256);

		most = n && counts[n - 1] > most ? counts[n - 1] : most;
	}
	fprintf(f, "set terminal %s size %d,%d\n", terminal_for(path), PLOT_WIDTH, PLOT_HEIGHT);
	fprintf(f, "set xlabel 'threads copying at once'\nset xrange [0.5:%u.5]\nset xtics 1\n"
		   "set ylabel 'aggregate throughput [MB/s, 2^20 B/s]: median, min-max bars'\n"
		   "set yrange [0:*]\nset grid\nset key below horizontal samplen 3 spacing 1.1 "
		   "height 1\nset bars small\n", most);
}

/*
 * A replay: the time per call of each category, clustered bars of the routines
 * side by side from 0 (a log axis would make the bars' lengths meaningless).
 * The picture widens so that every bar keeps about 12 pixels; the categories'
 * labels turn when they no longer fit side by side.
 */
static void replay_axes(FILE *f, const char *path, const struct result_set *sets, size_t n_sets,
			const struct categories *c)
{
	bool program = true;

	for (size_t s = 0; s < n_sets; s++)
		program = program && result_set_is_program(&sets[s]);
	double cluster = ((double)count_lines(sets, n_sets, false) + 1.5) * 12;
	int width = (int)(120 + cluster * (double)c->n);

	width = width > PLOT_WIDTH ? width : PLOT_WIDTH;
	fprintf(f, "set terminal %s size %d,%d\n", terminal_for(path), width, PLOT_HEIGHT);
	fputs("set style data histogram\nset style histogram errorbars gap 1.5 lw 1\n"
	      "set style fill solid 0.75 border -1\nset datafile missing NaN\n", f);
	if (program)
		fputs("set xlabel 'program'\nset ylabel 'time per run [s]: median, min-max bars'\n", f);
	else
		fputs("set xlabel 'distribution and working set'\n"
		      "set ylabel 'time per call [ns]: median, min-max bars'\n", f);
	fputs("set yrange [0:*]\nset grid ytics\n"
	      "set key below horizontal samplen 3 spacing 1.1 height 1\n", f);
	/* category k is centred on k, its bars at most 1 wide */
	fprintf(f, "set xrange [-0.6:%zu.6]\nset xtics nomirror%s\n", c->n - 1,
		(width - 120) / (double)c->n < 130 ? " rotate by 45 right" : "");
}

/* The terminal is the target's (path, by its name); gnuplot draws on its standard output. */
static void script(FILE *f, const struct result_set *sets, size_t n_sets, const char *path)
{
	char *command = NULL;
	size_t len = 0, n;
	FILE *plot;
	struct categories c = { NULL, 0 };
	bool replay = false, x_threads;

	for (size_t s = 0; s < n_sets; s++)
		replay = replay || result_set_is_replay(&sets[s]);
	x_threads = !replay && several_thread_counts(sets, n_sets);

	if (replay) {
		categories_collect(&c, sets, n_sets);
		replay_axes(f, path, sets, n_sets, &c);
	} else if (x_threads) {
		threads_axes(f, path, sets, n_sets);
	} else {
		chunk_axes(f, path, sets, n_sets);
	}
	fputs("set termoption noenhanced\n", f);
	title(f, &sets[0], replay);
	plot = open_memstream(&command, &len);
	if (!plot)
		out_of_memory("the plot");
	n = lines(f, plot, sets, n_sets, replay ? &c : NULL, x_threads);
	free(c.rows);
	if (fclose(plot) || !command)
		out_of_memory("the plot");
	if (n)
		fprintf(f, "%s\n", command);
	free(command);
	fputs("set output\n", f);
}

static int any_verified(const struct result_set *sets, size_t n_sets)
{
	for (size_t s = 0; s < n_sets; s++)
		for (size_t i = 0; i < sets[s].n; i++)
			if (sets[s].rows[i].verified)
				return 1;
	return 0;
}

/*
 * Writes the script to gnuplot's input while its output, the picture, goes to
 * out, both at once (neither pipe may fill while the other waits).  Returns
 * the bytes of the picture.
 */
static size_t exchange(int to, int from, const char *text, size_t len, FILE *out)
{
	struct pollfd p[2] = { { to, POLLOUT, 0 }, { from, POLLIN, 0 } };
	size_t sent = 0, got = 0;
	char buf[16384];

	fcntl(to, F_SETFL, fcntl(to, F_GETFL) | O_NONBLOCK);
	while (p[1].fd >= 0) {
		if (sent == len && p[0].fd >= 0) {
			close(to);
			p[0].fd = -1; /* poll passes over it */
		}
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[0].fd >= 0 && p[0].revents) {
			ssize_t w = write(to, text + sent, len - sent);

			if (w > 0) {
				sent += (size_t)w;
			} else if (errno != EAGAIN && errno != EINTR) { /* gnuplot gone */
				close(to);
				p[0].fd = -1;
			}
		}
		if (p[1].revents) {
			ssize_t r = read(from, buf, sizeof(buf));

			if (r > 0) {
				got += fwrite(buf, 1, (size_t)r, out);
			} else if (r == 0 || (errno != EINTR && errno != EAGAIN)) {
				close(from);
				p[1].fd = -1;
			}
		}
	}
	if (p[0].fd >= 0)
		close(to);
	if (p[1].fd >= 0)
		close(from);
	return got;
}

/*
 * Feeds the script to gnuplot on a pipe (no script file, no shell) and writes
 * the picture it prints into out: gnuplot ignores its own write errors, and a
 * full disk must not leave half a picture in place of the old one.
 */
static int run_gnuplot(const struct result_set *sets, size_t n_sets, const char *path, FILE *out,
		       char *why, size_t whylen)
{
	char *gnuplot, *text = NULL;
	size_t len = 0, got;
	int in[2], from[2], status;
	pid_t pid;
	FILE *f = open_memstream(&text, &len);
	void (*sigpipe)(int);

	/* The whole script first: out of memory then ends the run before gnuplot has started. */
	if (!f)
		out_of_memory("the plot");
	script(f, sets, n_sets, path);
	if (fclose(f) || !text)
		out_of_memory("the plot");
	gnuplot = find_gnuplot();
	if (!gnuplot || pipe(in)) {
		free(gnuplot);
		free(text);
		snprintf(why, whylen, "plot: cannot start gnuplot: %s", strerror(errno));
		return -1;
	}
	if (pipe(from)) {
		snprintf(why, whylen, "plot: cannot start gnuplot: %s", strerror(errno));
		close(in[0]);
		close(in[1]);
		free(gnuplot);
		free(text);
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(from[1], 1);
		close(in[0]);
		close(in[1]);
		close(from[0]);
		close(from[1]);
		execl(gnuplot, "gnuplot", (char *)NULL);
		_exit(127);
	}
	free(gnuplot);
	close(in[0]);
	close(from[1]);
	if (pid < 0) {
		int saved = errno;

		snprintf(why, whylen, "plot: cannot start gnuplot: %s", strerror(errno));
		close(in[1]);
		close(from[0]);
		free(text);
		if (saved == ENOMEM || saved == EAGAIN)
			out_of_memory("the plot");
		return -1;
	}
	/* A gnuplot that dies early must be reported below, not kill us with SIGPIPE. */
	sigpipe = signal(SIGPIPE, SIG_IGN);
	got = exchange(in[1], from[0], text, len, out);
	free(text);
	signal(SIGPIPE, sigpipe);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) || !got) {
		snprintf(why, whylen, "plot: gnuplot failed drawing '%s' (its messages are above)",
			 path);
		return -1;
	}
	return 0;
}

/* More lines, or bars to a cluster, than anyone can read (and than gnuplot draws in time). */
static bool too_many(const struct result_set *sets, size_t n_sets, char *why, size_t whylen,
		     const char *path)
{
	struct categories c = { NULL, 0 };
	size_t lines = count_lines(sets, n_sets, true);
	bool replay = false;

	for (size_t s = 0; s < n_sets; s++)
		replay = replay || result_set_is_replay(&sets[s]);
	if (replay)
		categories_collect(&c, sets, n_sets);
	free(c.rows);
	if (lines <= PLOT_MOST && c.n <= PLOT_MOST)
		return false;
	snprintf(why, whylen, "plot: more than %d %s to draw into '%s'", PLOT_MOST,
		 lines > PLOT_MOST ? "lines" : "distributions and working sets", path);
	return true;
}

/* gnuplot's picture goes into the atomic file's temporary file, which then replaces path. */
int plot_write(const struct result_set *sets, size_t n_sets, const char *path, char *why,
	       size_t whylen)
{
	struct atomic_file a;
	char err[512];

	if (!any_verified(sets, n_sets)) {
		snprintf(why, whylen, "plot: no verified results to draw into '%s'", path);
		return PLOT_NOTHING_TO_DRAW;
	}
	if (too_many(sets, n_sets, why, whylen, path))
		return PLOT_NOTHING_TO_DRAW;
	if (atomic_file_open(&a, path, err, sizeof(err))) {
		snprintf(why, whylen, "plot: %s", err);
		return -1;
	}
	if (run_gnuplot(sets, n_sets, path, a.f, why, whylen)) {
		atomic_file_discard(&a);
		return -1;
	}
	if (interrupt_signal()) {
		atomic_file_discard(&a);
		snprintf(why, whylen, "plot: stopped by %s; '%s' not written", interrupt_name(), path);
		return PLOT_INTERRUPTED;
	}
	if (atomic_file_commit(&a, err, sizeof(err))) {
		snprintf(why, whylen, "plot: %s", err);
		return -1;
	}
	return 0;
}
