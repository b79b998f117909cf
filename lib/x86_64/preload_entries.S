/* SPDX-License-Identifier: MIT */
/*
 * The preload shim's memcpy and memmove on x86-64, and their _FORTIFY_SOURCE
 * entries: the AVX-512 ladder itself (avx512_ladder.inc) under the C
 * library's names, so that a program's call reaches the copy as it reaches
 * glibc's, with no jump more. A shim entry that called the library would add
 * a taken jump to every copy, which a copy of a few bytes in a loop pays in
 * full (BENCHMARKS.md, "Through the preload shim").
 *
 * An ifunc would add nothing, but the dynamic loader resolves the references
 * of a library linked with -z now (most of Debian's) before it relocates a
 * preloaded object, so it would run the shim's resolver unrelocated, and
 * says so on stderr. Instead each entry tests a byte first:
 * copyperf_preload_direct (lib/preload.c), which the shim's constructor sets
 * where the library has chosen the routine whose ladder this is
 * (copyperf_preload_direct_copy below) and no calls are being recorded.
 * Until then, and otherwise, each entry jumps to the routine the library
 * chose, or, while calls are recorded, to the shim's C entry of its family,
 * which shows the call to the recorder first (avx512_ladder.inc,
 * SIZE_TESTED). Both entries copy as memmove does: the shim's memcpy is also
 * memcpy@GLIBC_2.2.5, a memmove for programs older than 2.14.
 */
#include "blocks.inc"
#include "avx512_ladder.inc"

/*
 * __memcpy_chk and __memmove_chk: the destination's size (rcx) checked
 * against n, then the entry of their family.
 */
.macro CHECKED name, entry
	.p2align 4
	.globl	\name
	.type	\name, @function
\name:
	cmp	%rdx, %rcx
	jb	__chk_fail@PLT
	jmp	.L\entry\()_entry
END \name
.endm

	.text
SIZE_TESTED memcpy, copyperf_x86_avx512_memmove_large, 1, copyperf_preload_direct, copyperf_preload_memcpy
SIZE_TESTED memmove, copyperf_x86_avx512_memmove_large, 1, copyperf_preload_direct, copyperf_preload_memmove
CHECKED __memcpy_chk, memcpy
CHECKED __memmove_chk, memmove

LADDER_DATA

/* The routine whose ladder the entries are. */
	.section .data.rel.ro, "aw"
	.p2align 3
	.globl	copyperf_preload_direct_copy
	.hidden	copyperf_preload_direct_copy
copyperf_preload_direct_copy:
	.quad	copyperf_memmove_avx512

	.section .note.GNU-stack, "", @progbits
