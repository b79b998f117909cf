/* SPDX-License-Identifier: MIT */
/*
 * The SSE2 and AVX2 variants' entry points and their ladder of sizes up to
 * the large copy in C (copy_sse2.c, copy_avx2.c), where every block's bytes
 * and branches are the cost: each is laid out here by hand, and
 * tests/lib/layout.sh checks the entries' layout.
 *
 * The steps of copyperf_memcpy_<isa> and copyperf_memmove_<isa>:
 *  1. 64 <= n <= 128, falling through from the entry: 64 bytes from each end
 *     (two 32-byte vectors with AVX2, four 16-byte ones with SSE2).
 *  2. n > 128: with AVX2 up to 256 bytes four 32-byte vectors from each end;
 *     above that, and with SSE2 above 128, a jump to the forward loop below
 *     the tuning's loop_max (blocks.inc, TO_LOOP), else to the large copy in C.
 *  3. n < 64 whose destination crosses a page: the ladder of widths
 *     (LADDER), where no store is made twice, and below 4 bytes the bytes of
 *     step 4; every store that spans the boundary is slow.
 *  4. 4 <= n < 16: four 4-byte moves, the first and last and a middle pair
 *     that moves with the size (MIDDLE_PAIR), so that the sizes most calls of
 *     a mix draw take one path and not one per width; 16 <= n < 64: the same
 *     with 16-byte moves, and the last byte again; 0 <= n < 4: the first,
 *     middle and last bytes (FIRST_MIDDLE_LAST).
 * Every path loads everything before it stores, so memmove takes the same
 * ones as memcpy: the two entries of a variant differ only past the blocks,
 * where memmove copies backward a destination above its source within the
 * copy. Scratch: rax, rcx, rdx, rsi, r8-r11, xmm0-xmm7 (ymm with AVX2,
 * whose paths with ymm end in vzeroupper).
 */
#include "blocks.inc"

/*
 * 4w <= n < 16w, w = 4 or 16: [0,w) [k,k+w) [n-w-k,n-k) [n-w,n), k = w from
 * 2w bytes up (shift: log2(w)). byte: 1 for the last byte again after vector
 * moves (LAST_BYTE_STORE); scratch r9.
 */
.macro MIDDLE_PAIR mov, w, shift, r0, r1, r2, r3, byte=0
	xor	%ecx, %ecx
	cmp	$2*\w, %edx
	seta	%cl
	shl	$\shift, %ecx
	lea	-\w(%rdx), %r8d
	sub	%ecx, %r8d
	\mov	(%rsi), \r0
	\mov	(%rsi,%rcx), \r1
	\mov	(%rsi,%r8), \r2
	\mov	-\w(%rsi,%rdx), \r3
.if \byte
	LAST_BYTE_LOAD %r9d
.endif
	\mov	\r0, (%rdi)
	\mov	\r1, (%rdi,%rcx)
	\mov	\r2, (%rdi,%r8)
	\mov	\r3, -\w(%rdi,%rdx)
.if \byte
	LAST_BYTE_STORE %r9b
.endif
	ret
.endm

/* rax already the destination; 32 <= n < 64 of a destination that crosses a page. */
.macro VEC_SSE2 op
.ifc \op, from_64
	BOTH_ENDS_8 movdqu, 16, %xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5, %xmm6, %xmm7
.else
	BOTH_ENDS_4 movdqu, 16, %xmm0, %xmm1, %xmm2, %xmm3
.endif
	ret
.endm

.macro VEC_AVX2 op
.ifc \op, from_64
	BOTH_ENDS_4 vmovdqu, 32, %ymm0, %ymm1, %ymm2, %ymm3
.else
	BOTH_ENDS_2 vmovdqu, 32, %ymm0, %ymm1
.endif
	vzeroupper
	ret
.endm

/*
 * One entry: name, the large copy in C and the forward loop, move (1 for
 * memmove), isa (sse2 or avx2: VEC_<ISA> moves 64-128 bytes and 32-63 of a
 * crossing destination), xmov (its 16-byte move).
 */
.macro VEC_LADDER name, large, loop, move, isa, xmov
ENTRY \name
	mov	%rdi, %rax
	lea	-64(%rdx), %rcx
	cmp	$64, %rcx
	ja	.L\name\()_not_64_128
	VEC_\isa from_64
	.p2align 6	/* the way to 4-15 bytes on two lines, not three */
.L\name\()_not_64_128:
	cmp	$63, %rdx
	ja	.L\name\()_above_128
	lea	-1(%rdi,%rdx), %rcx	/* the destination's last byte: in d's page? */
	xor	%rdi, %rcx
	test	$0x10, %ch
	jnz	.L\name\()_crossing
	cmp	$16, %edx
	jae	.L\name\()_16_63
	cmp	$4, %edx
	jb	.L\name\()_under_4
	MIDDLE_PAIR mov, 4, 2, %r9d, %r10d, %r11d, %esi
.L\name\()_16_63:
	MIDDLE_PAIR \xmov, 16, 4, %xmm0, %xmm1, %xmm2, %xmm3, 1
.L\name\()_under_4:
	FIRST_MIDDLE_LAST
.L\name\()_crossing:
	cmp	$32, %edx
	jae	.L\name\()_cross_32_63
	cmp	$4, %edx
	jb	.L\name\()_under_4
	LADDER	\name\()_cross, \xmov, %xmm0, %xmm1
.L\name\()_cross_32_63:
	VEC_\isa cross_32_63
.L\name\()_above_128:
	FROM_LOOP_MAX \large
.ifc \isa, AVX2
	cmp	$256, %rdx
	ja	.L\name\()_loop
	BOTH_ENDS_8 vmovdqu, 32, %ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, %ymm6, %ymm7
	vzeroupper
	ret
.L\name\()_loop:
.endif
	TO_LOOP \large, \loop, \move
END \name
.endm

	.text
VEC_LADDER copyperf_memcpy_sse2, copyperf_x86_sse2_memcpy_large, copyperf_x86_forward_sse2, 0, \
	SSE2, movdqu
VEC_LADDER copyperf_memmove_sse2, copyperf_x86_sse2_memmove_large, copyperf_x86_forward_sse2, 1, \
	SSE2, movdqu
VEC_LADDER copyperf_memcpy_avx2, copyperf_x86_avx2_memcpy_large, copyperf_x86_forward_avx2, 0, \
	AVX2, vmovdqu
VEC_LADDER copyperf_memmove_avx2, copyperf_x86_avx2_memmove_large, copyperf_x86_forward_avx2, 1, \
	AVX2, vmovdqu

	.section .note.GNU-stack, "", @progbits
