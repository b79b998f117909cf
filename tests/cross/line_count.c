/* SPDX-License-Identifier: MIT */
/*
 * Proves that copyperf_memcpy on PowerPC takes the cache-line path and takes
 * it exactly: built against a library compiled with -DCOPYPERF_COUNT_LINES,
 * it copies every size and alignment around the line boundaries and checks
 * the bytes, the guard bytes and, against counts worked out here from the
 * line size the kernel reports, the lines, dcbz, dcbt, loads and stores the
 * line loop did.  Prints the per-line figures of a 64 KiB copy for
 * BENCHMARKS.md.  Last line: N passed, N failed.
 */
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include "copyperf.h"
#include "../../lib/powerpc/line_copy.h"

#define GUARD 512
#define MAX_N (64 * 1024)

static unsigned char src_buf[GUARD + 4096 + MAX_N + 4096 + GUARD] __attribute__((aligned(4096)));
static unsigned char dst_buf[GUARD + 4096 + MAX_N + 4096 + GUARD] __attribute__((aligned(4096)));
static unsigned passed, failed;

static void check(int ok, const char *what, size_t n, size_t doff, size_t soff)
{
	if (ok) {
		passed++;
		return;
	}
	if (failed++ < 20)
		printf("FAIL: %s (n=%zu dst offset %zu src offset %zu)\n", what, n, doff, soff);
}

/* What the line path must do for n bytes to a destination `doff` past a line boundary. */
static struct copyperf_line_counts expected(size_t n, size_t doff, size_t line)
{
	struct copyperf_line_counts c = { 0 };
	size_t head = (line - doff % line) % line, body, src_lines;

	if (n < head + line)
		return c;
	body = n - head;
	src_lines = (body + line - 1) / line; /* source lines dcbt may touch, to its end */
	c.calls = 1;
	c.lines = body / line;
	c.dcbz = c.lines;
	c.dcbt = c.lines + COPYPERF_PREFETCH_LINES < src_lines ? c.lines + COPYPERF_PREFETCH_LINES
							       : src_lines;
	c.loads = c.stores = c.lines * (line / sizeof(long));
	return c;
}

static void one_copy(size_t n, size_t doff, size_t soff, size_t line)
{
	unsigned char *d = dst_buf + GUARD + doff, *s = src_buf + GUARD + soff;
	struct copyperf_line_counts want = expected(n, doff, line), got;
	int bytes_ok = 1;
	size_t window = GUARD + doff + n + GUARD; /* the copy and a guard zone each side */

	memset(dst_buf, 0x5a, window);
	memset(&copyperf_line_counts, 0, sizeof(copyperf_line_counts));
	if (copyperf_memcpy(d, s, n) != d)
		bytes_ok = 0;
	got = copyperf_line_counts;
	for (size_t i = 0; i < window && bytes_ok; i++) {
		int inside = dst_buf + i >= d && dst_buf + i < d + n;

		bytes_ok = dst_buf[i] == (inside ? s[dst_buf + i - d] : 0x5a);
	}
	check(bytes_ok, "copied bytes or guard bytes wrong", n, doff, soff);
	check(memcmp(&got, &want, sizeof(got)) == 0, "line-path counts differ", n, doff, soff);
	if (memcmp(&got, &want, sizeof(got)) != 0 && failed <= 20)
		printf("  got calls %lu lines %lu dcbz %lu dcbt %lu loads %lu stores %lu,"
		       " want %lu %lu %lu %lu %lu %lu\n",
		       got.calls, got.lines, got.dcbz, got.dcbt, got.loads, got.stores,
		       want.calls, want.lines, want.dcbz, want.dcbt, want.loads, want.stores);
}

int main(void)
{
	size_t line = getauxval(AT_DCACHEBSIZE);
	struct copyperf_line_counts big;

	if (line == 0) {
		printf("FAIL: the kernel reports no data-cache block size: no line path to test\n");
		return 1;
	}
	printf("data-cache block (AT_DCACHEBSIZE): %zu bytes, dcbt %d lines ahead\n", line,
	       COPYPERF_PREFETCH_LINES);
	for (size_t i = 0; i < sizeof(src_buf); i++)
		src_buf[i] = (unsigned char)(i * 7 + i / 251);
	/* Buffers start on a line: dst offsets are offsets from a line boundary. */
	if (((unsigned long)(dst_buf + GUARD)) % line || ((unsigned long)(src_buf + GUARD)) % 4) {
		printf("FAIL: test buffers not aligned as assumed\n");
		return 1;
	}
	for (size_t n = 0; n <= 6 * line + 3; n++)
		for (size_t doff = 0; doff < 2 * line; doff += doff < line + 3 ? 1 : 7)
			for (size_t soff = 0; soff < 8; soff += soff < 4 ? 1 : 3)
				one_copy(n, doff, soff, line);
	for (size_t n = 1024; n <= MAX_N; n *= 4)
		for (size_t doff = 0; doff < line; doff += 3)
			one_copy(n + doff % 5, doff, doff % 4, line);

	one_copy(MAX_N, 0, 0, line);
	big = copyperf_line_counts;
	check(big.lines == MAX_N / line, "a line-aligned 64 KiB copy is all line path", MAX_N, 0, 0);
	printf("64 KiB line-aligned copy: %lu lines of %zu bytes; per line: %.2f dcbz, %.2f dcbt,"
	       " %.2f loads, %.2f stores of %zu bytes\n",
	       big.lines, line, (double)big.dcbz / big.lines, (double)big.dcbt / big.lines,
	       (double)big.loads / big.lines, (double)big.stores / big.lines, sizeof(long));
	printf("%u passed, %u failed\n", passed, failed);
	return failed != 0;
}
