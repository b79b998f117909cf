/* SPDX-License-Identifier: MIT */
/*
 * The forward loop of the large copies (vec_copy.h's copy_large), past the
 * ladders' blocks: copyperf_x86_forward_sse2, _avx2, _avx512 and
 * _avx512_tuned, for n > 8 vectors; correct for a destination below the
 * source even where they overlap. Returns the destination. In assembly
 * because the order of its loads matters: the hardware prefetcher sees the
 * misses in that order.
 *  1. Load the first vector (the head), then the last four (the tail): from
 *     the end down with 64-byte vectors, from their start up with narrower
 *     ones, the faster order for each width.
 *  2. Move the destination up to a vector boundary, and the source with it
 *     (the head covers the bytes skipped).
 *  3. Four vectors a time to the aligned destination, all loads first, while
 *     more than four vectors remain before the end.
 *  4. Store the tail, then the head: loaded before any store, so that an
 *     overlapping destination cannot have overwritten them.
 */
#include "blocks.inc"

/*
 * w: the width; mov, movA: unaligned and aligned moves; h, t0-t3, a-d: the
 * registers; ret: the return (vzeroupper first where the registers are
 * VEX-encoded ymm).
 */
.macro FORWARD name, w, mov, movA, h, t0, t1, t2, t3, a, b, c, d, ret
ENTRY \name
	FORWARD_BODY \w, \mov, \movA, \h, \t0, \t1, \t2, \t3, \a, \b, \c, \d, \ret
END \name
.endm

.macro FORWARD_BODY w, mov, movA, h, t0, t1, t2, t3, a, b, c, d, ret
	mov	%rdi, %rax
	lea	(%rdi,%rdx), %r8		/* the end */
	\mov	(%rsi), \h
.if \w == 64
	\mov	-\w(%rsi,%rdx), \t3
	\mov	-2*\w(%rsi,%rdx), \t2
	\mov	-3*\w(%rsi,%rdx), \t1
	\mov	-4*\w(%rsi,%rdx), \t0
.else
	\mov	-4*\w(%rsi,%rdx), \t0
	\mov	-3*\w(%rsi,%rdx), \t1
	\mov	-2*\w(%rsi,%rdx), \t2
	\mov	-\w(%rsi,%rdx), \t3
.endif
	mov	%edi, %ecx
	and	$\w - 1, %ecx
	sub	$\w, %rcx			/* minus the skew, in -w..-1 */
	sub	%rcx, %rdi
	sub	%rcx, %rsi
	lea	-4*\w(%r8), %r9			/* the loop runs while rdi < r9 */
	cmp	%r9, %rdi
	jae	2f
	.p2align 4
1:	\mov	(%rsi), \a
	\mov	\w(%rsi), \b
	\mov	2*\w(%rsi), \c
	\mov	3*\w(%rsi), \d
	\movA	\a, (%rdi)
	\movA	\b, \w(%rdi)
	\movA	\c, 2*\w(%rdi)
	\movA	\d, 3*\w(%rdi)
	add	$4*\w, %rdi
	add	$4*\w, %rsi
	cmp	%r9, %rdi
	jb	1b
2:	\mov	\t0, -4*\w(%r8)
	\mov	\t1, -3*\w(%r8)
	\mov	\t2, -2*\w(%r8)
	\mov	\t3, -\w(%r8)
	\mov	\h, (%rax)
	\ret
.endm

.macro RET_VZEROUPPER
	vzeroupper
	ret
.endm

	.text
FORWARD copyperf_x86_forward_sse2, 16, movdqu, movdqa, \
	%xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5, %xmm6, %xmm7, %xmm8, ret
FORWARD copyperf_x86_forward_avx2, 32, vmovdqu, vmovdqa, \
	%ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, %ymm6, %ymm7, %ymm8, RET_VZEROUPPER
FORWARD copyperf_x86_forward_avx512, 64, vmovdqu64, vmovdqa64, \
	%zmm16, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22, %zmm23, %zmm24, ret

/*
 * The AVX-512 variants' loop as the tuning says: 64-byte vectors where its
 * loop_vec is 64, else 32-byte ones in the EVEX registers ymm16-ymm24, which
 * leave no upper state dirty (the AVX2 loop's VEX ymm0-ymm8 need a vzeroupper
 * on the way out).
 */
ENTRY copyperf_x86_forward_avx512_tuned
	cmpq	$64, copyperf_x86_tuning+X86_TUNING_LOOP_VEC(%rip)
	je	copyperf_x86_forward_avx512
	FORWARD_BODY 32, vmovdqu64, vmovdqa64, \
	%ymm16, %ymm17, %ymm18, %ymm19, %ymm20, %ymm21, %ymm22, %ymm23, %ymm24, ret
END copyperf_x86_forward_avx512_tuned

	.section .note.GNU-stack, "", @progbits
