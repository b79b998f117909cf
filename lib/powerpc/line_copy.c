/* SPDX-License-Identifier: MIT */
/*
 * The cache-line copy of copy_32.S's __copy_tofrom_user, in C: align the
 * destination to a line, then per whole line dcbz it (the old contents are
 * never fetched from memory) and copy it word by word while dcbt asks for
 * the source a few lines ahead.  Heads and tails go by the portable copy.
 * Compiled into the library (32- and 64-bit PowerPC) and the kernel module.
 */
#include "line_copy.h"

#ifdef COPYPERF_COUNT_LINES
struct copyperf_line_counts copyperf_line_counts;
#define COUNT(field, k) (copyperf_line_counts.field += (k))
#else
#define COUNT(field, k) ((void)0)
#endif

/* Words per step of the line loop: copy_32.S's COPY_16_BYTES on 32-bit. */
#define STEP_WORDS 4
#define STEP_BYTES (STEP_WORDS * sizeof(cp_word))

int copyperf_ppc_line_usable(size_t line)
{
	return line >= STEP_BYTES && line <= 4096 && !(line & (line - 1));
}

static inline void zero_line(void *p)
{
	/* The clobber keeps the compiler from moving the line's stores above it. */
	__asm__ volatile("dcbz 0,%0" : : "r"(p) : "memory");
	COUNT(dcbz, 1);
}

static inline void prefetch_line(const void *p)
{
	__asm__ volatile("dcbt 0,%0" : : "r"(p));
	COUNT(dcbt, 1);
}

/* Every load before the stores, so the core can overlap the loads' misses. */
static inline void copy_step(cp_word *d, const unsigned char *s)
{
	cp_word w0 = ((const cp_wordu *)s)[0], w1 = ((const cp_wordu *)s)[1];
	cp_word w2 = ((const cp_wordu *)s)[2], w3 = ((const cp_wordu *)s)[3];

	d[0] = w0;
	d[1] = w1;
	d[2] = w2;
	d[3] = w3;
	COUNT(loads, STEP_WORDS);
	COUNT(stores, STEP_WORDS);
}

/*
 * Copies `lines` whole lines to the line-aligned d.  The source holds n >=
 * lines * line bytes; dcbt stays inside them.  Always inlined so that a
 * constant line size unrolls the line into straight loads and stores.
 */
static inline __attribute__((always_inline)) void
copy_lines(unsigned char *d, const unsigned char *s, size_t n, size_t lines, size_t line,
	   size_t ahead)
{
	size_t fetch = 0; /* offset in the source of the next line to prefetch */

	for (size_t i = 0; i < ahead && fetch < n; i++, fetch += line)
		prefetch_line(s + fetch);
	for (size_t off = 0; off < lines * line; off += line) {
		if (ahead && fetch < n) {
			prefetch_line(s + fetch);
			fetch += line;
		}
		zero_line(d + off);
		for (size_t k = 0; k < line; k += STEP_BYTES)
			copy_step((cp_word *)(d + off + k), s + off + k);
	}
}

void *copyperf_ppc_line_copy(void *__restrict dst, const void *__restrict src, size_t n,
			     size_t line, size_t ahead)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	size_t head, lines;

	if (!copyperf_ppc_line_usable(line))
		return copyperf_generic_memcpy(dst, src, n);
	/*
	 * Overlapping (undefined for memcpy, yet done: a struct assigned to
	 * itself): dcbz would zero source bytes not read yet, so move them.
	 */
	if (!copy_ranges_disjoint(d, s, n))
		return copyperf_generic_memmove(dst, src, n);
	head = -(uintptr_t)d & (line - 1);
	if (n < head || n - head < line)
		return copyperf_generic_memcpy(dst, src, n);
	copyperf_generic_memcpy(d, s, head);
	d += head;
	s += head;
	n -= head;
	lines = n / line;
	COUNT(calls, 1);
	COUNT(lines, lines);
	/* The 32-bit cores' 32-byte line and POWER's 128 get their own unrolled loops. */
	if (line == 32)
		copy_lines(d, s, n, lines, 32, ahead);
	else if (line == 128)
		copy_lines(d, s, n, lines, 128, ahead);
	else
		copy_lines(d, s, n, lines, line, ahead);
	d += lines * line;
	s += lines * line;
	copyperf_generic_memcpy(d, s, n - lines * line);
	return dst;
}
