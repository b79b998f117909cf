/* SPDX-License-Identifier: MIT */
/*
 * Writes a recorded call mix in fleetbench's format (FORMAT.md of the
 * fleetbench distributions):
 *   line 1  size:probability,...       ascending sizes, non-zero ones only
 *   line 2  0:p,1:q                    disjoint, overlapping: always both
 *   line 3  alignment:probability,...  1, 2, 4 ... 64, non-zero ones only
 *   line 4  # calls N                  the calls counted, which copyperf -d
 *                                      reads as a comment
 * The probabilities are rounded; N gives back each size's count (its
 * probability times N) and says how many calls the mix stands on.
 * It runs at exit inside somebody else's program, maybe while other threads
 * still copy: raw open/write/rename, static buffers, no stdio, no malloc.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h> /* rename(2) only */
#include <string.h>
#include <unistd.h>
#include "record_file.h"
#include "text.h"

/* The file being written, buffered: one write(2) per 8 KiB. */
static struct {
	int fd;
	int err; /* the first write's errno, 0 if none failed */
	size_t len;
	char buf[8192];
} out;

static void out_flush(void)
{
	size_t done = 0;

	while (done < out.len && !out.err) {
		ssize_t w = write(out.fd, out.buf + done, out.len - done);

		if (w > 0)
			done += (size_t)w;
		else if (w < 0 && errno != EINTR)
			out.err = errno;
		else if (w == 0)
			out.err = EIO;
	}
	out.len = 0;
}

/* One byte at a time: a copying loop here could be compiled into a call to memcpy. */
static void out_char(char c)
{
	out.buf[out.len++] = c;
	if (out.len == sizeof(out.buf))
		out_flush();
}

static void out_u64(uint64_t v)
{
	char d[21];
	const char *end = copyperf_text_put_uint(d, d + 20, v);

	for (const char *c = d; c < end; c++)
		out_char(*c);
}

/*
 * count / total rounded to 9 significant digits (within 5e-9 of it, relative),
 * as a plain decimal ("0.000125", "1", "0"): the digits "%.9g" prints, but
 * never an exponent, and a point whatever the program's locale says; the
 * reader takes any number strtod takes.
 */
static void out_probability(uint64_t count, uint64_t total)
{
	double scaled;
	uint64_t digits;
	int zeros = 0; /* zeros between the point and the first digit */
	char d[9];

	if (count == 0 || count >= total) {
		out_char(count ? '1' : '0');
		return;
	}
	scaled = (double)count / (double)total * 1e9;
	while (scaled < 1e8) {
		scaled *= 10;
		zeros++;
	}
	digits = (uint64_t)(scaled + 0.5);
	if (digits >= 1000000000) { /* rounded up to the next power of ten */
		digits /= 10;
		if (--zeros < 0) {
			out_char('1');
			return;
		}
	}
	for (int i = 8; i >= 0; i--, digits /= 10)
		d[i] = (char)('0' + digits % 10);
	out_char('0');
	out_char('.');
	while (zeros-- > 0)
		out_char('0');
	for (int last = 8; last >= 0; last--) {
		if (d[last] == '0')
			continue; /* trailing zeros */
		for (int i = 0; i <= last; i++)
			out_char(d[i]);
		break;
	}
}

/* One "value:probability" of a line; the first of a line has no comma before it. */
static void out_entry(bool *first, uint64_t value, uint64_t count, uint64_t total)
{
	if (!*first)
		out_char(',');
	*first = false;
	out_u64(value);
	out_char(':');
	out_probability(count, total);
}

static void out_lines(const struct record_mix *mix)
{
	uint64_t pointers = 0, overlap = mix->overlap < mix->calls ? mix->overlap : mix->calls;
	bool first = true;

	for (unsigned n = 0; n <= RECORD_SMALL_MAX; n++)
		if (mix->small[n])
			out_entry(&first, n, mix->small[n], mix->calls);
	for (size_t i = 0; i < mix->n_large; i++)
		out_entry(&first, mix->large[i].size, mix->large[i].count, mix->calls);
	out_char('\n');

	first = true;
	out_entry(&first, 0, mix->calls - overlap, mix->calls);
	out_entry(&first, 1, overlap, mix->calls);
	out_char('\n');

	/*
	 * Threads still copying while this runs may have counted a pointer
	 * since their calls were summed: each line is a ratio of its own counts.
	 */
	for (unsigned i = 0; i < RECORD_ALIGNS; i++)
		pointers += mix->align[i];
	first = true;
	for (unsigned i = 0; i < RECORD_ALIGNS; i++)
		if (mix->align[i])
			out_entry(&first, (uint64_t)1 << i, mix->align[i], pointers);
	out_char('\n');

	for (const char *c = "# calls "; *c; c++)
		out_char(*c);
	out_u64(mix->calls);
	out_char('\n');
	out_flush();
}

/*
 * Appends s to buf[*len], each %p in it as pid unless pid is NULL; false when
 * it does not fit with its terminating NUL.
 */
static bool append(char *buf, size_t size, size_t *len, const char *s, const char *pid)
{
	for (; *s; s++) {
		if (pid && s[0] == '%' && s[1] == 'p') {
			if (!append(buf, size, len, pid, NULL))
				return false;
			s++;
			continue;
		}
		if (*len + 1 >= size) {
			buf[*len] = '\0'; /* what fits, for a message */
			return false;
		}
		buf[(*len)++] = *s;
	}
	buf[*len] = '\0';
	return true;
}

bool record_name(char *buf, size_t size, const char *name, const char *suffix)
{
	char pid[21];
	size_t len = 0;

	copyperf_text_put_uint(pid, pid + sizeof(pid) - 1, (uint64_t)getpid());
	return append(buf, size, &len, name, pid) && append(buf, size, &len, suffix, pid);
}

void record_say(const char *first, ...)
{
	static char line[2 * PATH_MAX + 200];
	size_t len = 0;
	va_list ap;

	append(line, sizeof(line) - 1, &len, "copyperf: COPYPERF_RECORD: ", NULL);
	va_start(ap, first);
	for (const char *part = first; part; part = va_arg(ap, const char *))
		append(line, sizeof(line) - 1, &len, part, NULL);
	va_end(ap);
	line[len++] = '\n';
	if (write(STDERR_FILENO, line, len) < 0)
		return; /* nowhere left to say it */
}

int record_cannot_write(const char *shown, int err)
{
	const char *why = strerrordesc_np(err);

	record_say("cannot write '", shown, "': ", why ? why : "unknown error", (char *)NULL);
	return -1;
}

int record_file_write(const struct record_mix *mix, const char *path, const char *shown)
{
	static char tmp[PATH_MAX + 32];
	int err;

	/* Beside path, so rename(2) replaces it in one step; the pid keeps writers apart. */
	if (!record_name(tmp, sizeof(tmp), path, ".tmp.%p"))
		return record_cannot_write(shown, ENAMETOOLONG);
	/* O_EXCL and O_NOFOLLOW: never write through a link planted in a shared directory. */
	out.fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (out.fd < 0 && errno == EEXIST && unlink(tmp) == 0) /* left by a process killed here */
		out.fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (out.fd < 0)
		return record_cannot_write(shown, errno);
	out.err = 0;
	out.len = 0;
	out_lines(mix);
	err = out.err;
	if (close(out.fd) != 0 && !err)
		err = errno;
	if (!err && rename(tmp, path) != 0)
		err = errno;
	if (err) {
		unlink(tmp);
		return record_cannot_write(shown, err);
	}
	return 0;
}
