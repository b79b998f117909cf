/* SPDX-License-Identifier: MIT */
/*
 * The loops of the large copies (vec_copy.h's copy_large), past the ladders'
 * blocks, for n > 8 vectors; each returns the destination. In assembly
 * because the order of their loads and stores matters: the hardware
 * prefetchers see the misses in that order, and stores to a line in address
 * order. Per width, copyperf_x86_forward_<isa> and copyperf_x86_backward_<isa>
 * (sse2, avx2, avx512; and copyperf_x86_forward_avx512_tuned).
 *
 * The forward loop, correct for a destination below the source even where
 * they overlap:
 *  1. Where the destination lies less than 8 vectors past the source modulo
 *     4 KiB, and not below it within the copy, the backward loop instead.
 *     There each load of a forward loop matches, in the address bits below
 *     4 KiB, a store of the iteration before, still in flight: the processor
 *     takes it for a store the load depends on and holds the load back. Copied
 *     backward, a load's 4 KiB alias is a store not yet made. (The C
 *     library's loop makes the same choice.)
 *  2. Load the first vector (the head), then the last four (the tail): from
 *     the end down with 64-byte vectors, from their start up with narrower
 *     ones, the faster order for each width.
 *  3. Move the destination up to a vector boundary, and the source with it
 *     (the head covers the bytes skipped).
 *  4. Four vectors a time to the aligned destination, all loads first, while
 *     more than four vectors remain before the end.
 *  5. Store the tail, then the head: loaded before any store, so that an
 *     overlapping destination cannot have overwritten them.
 *
 * The backward loop, correct for a destination above the source even where
 * they overlap (memmove), and for any two that do not:
 *  1. Load the last vector (the tail), then the first four (the head).
 *  2. Move the destination's end down to a vector boundary, and the source's
 *     with it (the tail covers the bytes skipped).
 *  3. Four vectors a time down to the aligned end, from the highest, loads
 *     first, while more than four vectors remain above the start.
 *  4. Store the head, then the tail.
 */
#include "alias_span.h"
#include "blocks.inc"

/*
 * w: the width; mov, movA: unaligned and aligned moves; h, t0-t3, a-d: the
 * registers; ret: the return (vzeroupper first where the registers are
 * VEX-encoded ymm); back: the backward loop of the same width.
 */
.macro FORWARD name, back, w, mov, movA, h, t0, t1, t2, t3, a, b, c, d, ret
ENTRY \name
	FORWARD_BODY \back, \w, \mov, \movA, \h, \t0, \t1, \t2, \t3, \a, \b, \c, \d, \ret
END \name
.endm

.macro FORWARD_BODY back, w, mov, movA, h, t0, t1, t2, t3, a, b, c, d, ret
	mov	%rdi, %rcx
	sub	%rsi, %rcx			/* how far the destination lies past the source */
	lea	-1(%rcx), %r9
	and	$X86_ALIAS_SPAN - 1, %r9d
	cmp	$8*\w - 1, %r9d
	jb	3f				/* 1 to 8w - 1 bytes past it, modulo 4 KiB */
0:	mov	%rdi, %rax
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
3:	neg	%rcx				/* how far the source lies past the destination */
	cmp	%rdx, %rcx
	jb	0b				/* the destination below it within the copy: forward */
	jmp	\back
.endm

.macro BACKWARD name, w, mov, movA, t, h0, h1, h2, h3, a, b, c, d, ret
ENTRY \name
	mov	%rdi, %rax
	\mov	-\w(%rsi,%rdx), \t
	\mov	(%rsi), \h0
	\mov	\w(%rsi), \h1
	\mov	2*\w(%rsi), \h2
	\mov	3*\w(%rsi), \h3
	lea	(%rdi,%rdx), %r8		/* the end */
	mov	%r8, %r10
	and	$-\w, %r10			/* the end, down to a vector boundary */
	mov	%r10, %rcx
	sub	%rdi, %rcx
	add	%rcx, %rsi			/* the source's end, moved down with it */
	lea	4*\w(%rdi), %r9			/* the loop runs while r10 > r9 */
	cmp	%r9, %r10
	jbe	2f
	.p2align 4
1:	\mov	-\w(%rsi), \d
	\mov	-2*\w(%rsi), \c
	\mov	-3*\w(%rsi), \b
	\mov	-4*\w(%rsi), \a
	\movA	\d, -\w(%r10)
	\movA	\c, -2*\w(%r10)
	\movA	\b, -3*\w(%r10)
	\movA	\a, -4*\w(%r10)
	sub	$4*\w, %r10
	sub	$4*\w, %rsi
	cmp	%r9, %r10
	ja	1b
2:	\mov	\h0, (%rax)
	\mov	\h1, \w(%rax)
	\mov	\h2, 2*\w(%rax)
	\mov	\h3, 3*\w(%rax)
	\mov	\t, -\w(%r8)
	\ret
END \name
.endm

.macro RET_VZEROUPPER
	vzeroupper
	ret
.endm

	.text
FORWARD copyperf_x86_forward_sse2, copyperf_x86_backward_sse2, 16, movdqu, movdqa, \
	%xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5, %xmm6, %xmm7, %xmm8, ret
FORWARD copyperf_x86_forward_avx2, copyperf_x86_backward_avx2, 32, vmovdqu, vmovdqa, \
	%ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, %ymm6, %ymm7, %ymm8, RET_VZEROUPPER
FORWARD copyperf_x86_forward_avx512, copyperf_x86_backward_avx512, 64, vmovdqu64, vmovdqa64, \
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
	FORWARD_BODY copyperf_x86_backward_avx512_32, 32, vmovdqu64, vmovdqa64, \
	%ymm16, %ymm17, %ymm18, %ymm19, %ymm20, %ymm21, %ymm22, %ymm23, %ymm24, ret
END copyperf_x86_forward_avx512_tuned

BACKWARD copyperf_x86_backward_sse2, 16, movdqu, movdqa, \
	%xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5, %xmm6, %xmm7, %xmm8, ret
BACKWARD copyperf_x86_backward_avx2, 32, vmovdqu, vmovdqa, \
	%ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, %ymm6, %ymm7, %ymm8, RET_VZEROUPPER
BACKWARD copyperf_x86_backward_avx512, 64, vmovdqu64, vmovdqa64, \
	%zmm16, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22, %zmm23, %zmm24, ret

/*
 * The backward loop of the width the AVX-512 variants' tuning chose, for the
 * C copy; the forward loop above, past its own test, jumps to its width's.
 */
ENTRY copyperf_x86_backward_avx512_tuned
	cmpq	$64, copyperf_x86_tuning+X86_TUNING_LOOP_VEC(%rip)
	je	copyperf_x86_backward_avx512
	jmp	copyperf_x86_backward_avx512_32
END copyperf_x86_backward_avx512_tuned
BACKWARD copyperf_x86_backward_avx512_32, 32, vmovdqu64, vmovdqa64, \
	%ymm16, %ymm17, %ymm18, %ymm19, %ymm20, %ymm21, %ymm22, %ymm23, %ymm24, ret

	.section .note.GNU-stack, "", @progbits
