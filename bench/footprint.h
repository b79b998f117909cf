/* SPDX-License-Identifier: MIT */
/*
 * What no copy with ordinary stores can beat: bringing the lines of both its
 * buffers to the core. Such a copy reads every source line and, before it
 * writes a destination line, reads that too (read for ownership); this reads
 * one word of each line of both and stores nothing. Beside a copy of the same
 * buffers it says how far that copy is from the memory system's limit.
 */
#ifndef COPYBENCH_FOOTPRINT_H
#define COPYBENCH_FOOTPRINT_H

#include <stddef.h>

/* Reads one word of each 64-byte line of src[0, n) and of dst[0, n); returns dst. */
void *footprint_read(void *dst, const void *src, size_t n);

#endif
