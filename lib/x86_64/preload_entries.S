/* SPDX-License-Identifier: MIT */
/*
 * The preload shim's memcpy and memmove on x86-64, and their _FORTIFY_SOURCE
 * entries: a ladder itself under the C library's names, so that a program's
 * call reaches the copy as it reaches glibc's, with no jump more. A shim
 * entry that called the library would add a taken jump to every copy, which
 * a copy of a few bytes in a loop pays in full (BENCHMARKS.md, "Through the
 * preload shim"). A shim is built from this file for each ladder: by default
 * the AVX-512 one (avx512_ladder.inc); with COPYPERF_PRELOAD_VARIANT (avx2,
 * sse2) and COPYPERF_PRELOAD_VECTORS (its vectors, vec_ladder.inc) that
 * variant's, for CPUs without AVX-512 or without AVX2, installed under
 * glibc-hwcaps/x86-64-v3/ or x86-64-v2/ beside the first, where the dynamic
 * loader takes it for a shim preloaded by its name alone on such a CPU (the
 * Makefile's PRELOAD_LEVELS).
 *
 * An ifunc would add nothing, but the dynamic loader resolves the references
 * of a library linked with -z now (most of Debian's) before it relocates a
 * preloaded object, so it would run the shim's resolver unrelocated, and
 * says so on stderr. Instead each entry starts with a gate, a jump to its
 * way out (blocks.inc, LADDER_ENTRY), which the shim's constructor opens
 * where the library has chosen the routine whose ladder this is
 * (copyperf_preload_direct_copy below) and no calls are being recorded
 * (copyperf_preload_gates, lib/preload.c). Until then, and otherwise, each
 * entry jumps to the routine the library chose, or, while calls are
 * recorded, to the shim's C entry of its family, which shows the call to the
 * recorder first.
 * Both entries copy as memmove does: the shim's memcpy is also
 * memcpy@GLIBC_2.2.5, a memmove for programs older than 2.14.
 */
#include "blocks.inc"
#ifdef COPYPERF_PRELOAD_VARIANT
#include "vec_ladder.inc"
#else
#include "avx512_ladder.inc"
#endif

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
#ifdef COPYPERF_PRELOAD_VARIANT
/* The variant's names: OF_VARIANT(copyperf_memmove_,) is copyperf_memmove_avx2 for avx2. */
#define PASTE(a, b, c) a##b##c
#define PASTED(a, b, c) PASTE(a, b, c)
#define OF_VARIANT(before, after) PASTED(before, COPYPERF_PRELOAD_VARIANT, after)
#define DIRECT_COPY OF_VARIANT(copyperf_memmove_,)
VEC_LADDER memcpy, OF_VARIANT(copyperf_x86_, _memmove_large), OF_VARIANT(copyperf_x86_forward_,), 1, \
	COPYPERF_PRELOAD_VECTORS, copyperf_preload_memcpy
VEC_LADDER memmove, OF_VARIANT(copyperf_x86_, _memmove_large), OF_VARIANT(copyperf_x86_forward_,), 1, \
	COPYPERF_PRELOAD_VECTORS, copyperf_preload_memmove
#else
#define DIRECT_COPY copyperf_memmove_avx512
SIZE_TESTED memcpy, copyperf_x86_avx512_memmove_large, 1, copyperf_preload_memcpy
SIZE_TESTED memmove, copyperf_x86_avx512_memmove_large, 1, copyperf_preload_memmove
LADDER_DATA
#endif
CHECKED __memcpy_chk, memcpy
CHECKED __memmove_chk, memmove

/* The routine whose ladder the entries are. */
	.section .data.rel.ro, "aw"
	.p2align 3
	.globl	copyperf_preload_direct_copy
	.hidden	copyperf_preload_direct_copy
copyperf_preload_direct_copy:
	.quad	DIRECT_COPY

/* The entries' gates (blocks.inc, LADDER_ENTRY), then zeros. */
	.globl	copyperf_preload_gates
	.hidden	copyperf_preload_gates
copyperf_preload_gates:
	GATE memcpy
	GATE memmove
	.quad	0, 0, 0

	.section .note.GNU-stack, "", @progbits
