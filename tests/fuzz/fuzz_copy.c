/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target: copyperf_memcpy (disjoint buffers) and copyperf_memmove
 * (one buffer, any overlap) against a byte-at-a-time reference.  The input
 * chooses the size, the offsets and the overlap; its bytes are the data.
 * Buffers are exactly sized heap blocks, so ASan sees any byte read or
 * written outside them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "copyperf.h"

#define MAX_SIZE (64u * 1024)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The meaning of memmove, one byte at a time through a separate buffer. */
static void reference_move(unsigned char *buf, size_t to, size_t from, size_t n,
			   unsigned char *tmp)
{
	for (size_t i = 0; i < n; i++)
		tmp[i] = buf[from + i];
	for (size_t i = 0; i < n; i++)
		buf[to + i] = tmp[i];
}

static void check(int ok)
{
	if (!ok)
		abort(); /* libFuzzer saves the input that got here */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n, from, to, len;
	unsigned char *src, *dst, *buf, *expect, *tmp;

	if (size < 8)
		return 0;
	/* Sizes spread over 0..MAX_SIZE, with small ones as likely as large ones. */
	n = ((size_t)data[0] | (size_t)data[1] << 8 | (size_t)data[2] << 16) >> (data[3] % 19);
	n %= MAX_SIZE + 1;
	from = data[4] % 128;
	to = data[5] % 128 + (data[6] & 1 ? n / (1 + data[7] % 4) : 0); /* overlap, or beyond */
	data += 8;
	size -= 8;
	len = (from > to ? from : to) + n;

	/* Exactly sized (1 byte for none): ASan sees a copy that touches one byte past them. */
	src = malloc(n ? n : 1);
	dst = malloc(n ? n : 1);
	buf = malloc(len ? len : 1);
	expect = malloc(len ? len : 1);
	tmp = malloc(n ? n : 1);
	if (!src || !dst || !buf || !expect || !tmp)
		abort();
	for (size_t i = 0; i < len; i++) /* the input's bytes, repeated, offset by position */
		buf[i] = (unsigned char)((size ? data[i % size] : 0) + i / (size ? size : 1));
	memcpy(expect, buf, len);
	for (size_t i = 0; i < n; i++)
		src[i] = buf[from + i];

	check(copyperf_memcpy(dst, src, n) == dst);
	for (size_t i = 0; i < n; i++)
		check(dst[i] == src[i]);

	/* Forward or backward by which of from/to is larger. */
	reference_move(expect, to, from, n, tmp);
	check(copyperf_memmove(buf + to, buf + from, n) == buf + to);
	check(memcmp(buf, expect, len) == 0);

	free(src);
	free(dst);
	free(buf);
	free(expect);
	free(tmp);
	return 0;
}
