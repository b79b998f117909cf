/* SPDX-License-Identifier: MIT */
/*
 * The AVX-512 variants' entry points and their copies of up to 128 bytes;
 * larger ones jump to the C copy (copy_avx512.c). In assembly because at
 * these sizes the bytes and branches of the path are the cost: each path
 * here is laid out by hand, and tests/lib/layout.sh checks the layout.
 *
 * The steps of copyperf_memcpy_avx512 and copyperf_memmove_avx512:
 *  1. n > 32: below 64 bytes one 32-byte move from each end; from 64 to 128
 *     one 64-byte move from each end; above, a jump to the C copy.
 *  2. 0 <= n <= 32: the page test (PAGE_TEST); where both pointers pass, one
 *     masked 32-byte move whose mask keeps the first n bytes. The mask comes
 *     from the size test's carry, so that the move need not wait for the page
 *     test. From the entry (a line's start) to its ret this path is 63 bytes,
 *     one line, which one fetch brings again after each mispredicted size
 *     test.
 *  3. Refused (REFUSED): below 4 bytes, and near a page's end, plain moves of
 *     the widest width that fits (LADDER); at a page's start the masked move.
 * copyperf_memcpy_avx512_branchless and its memmove have no size test below
 * 64 bytes: two masked moves, the first n bytes of a 32-byte window at the
 * start and, from 33 bytes, the last 32 (where sizes vary from call to call
 * the test at 32 bytes is one the branch predictor cannot learn).
 *
 * Every path loads everything before it stores, so memmove takes the same
 * ones as memcpy: the two entries of a variant differ only in the C copy they
 * jump to. The registers are the caller's scratch: ymm16-ymm17 and zmm16-17
 * (EVEX-only: no dirty upper state for the caller's SSE code, no vzeroupper),
 * k1, rax, rcx, r8.
 */

/*
 * The page test: for each pointer p, the byte before it and the last byte of
 * its 32-byte window [p, p + 32) lie in one page, that is p is 1 to 4064 bytes
 * into its page. Then the window lies in the page of the copy's first byte
 * or, for 0 bytes, of the byte before the pointer (the last of an object it is
 * one past): pages the copy uses. A masked-off byte is neither read nor
 * written, but one in a page that is not mapped costs a suppressed fault,
 * hundreds of nanoseconds: at NULL, say, or one past an object that ends a
 * page. Near a page's end a masked store whose window crosses into the next
 * page is also as slow as a plain store that spans the boundary, even where
 * its bytes there are masked off. Refused: those near a page's end, and those
 * at a page's start, which the refused path takes back (STARTS_A_PAGE); the
 * copy's size in the rule would take those here, but made the call mixes from
 * memory slower. Two 32-bit sums and an XOR per pointer: bit 12 of the XOR is
 * set exactly when the two bytes lie in different pages.
 * Scratch eax, ecx, r8d; ZF clear: refused.
 */
.macro PAGE_TEST
	lea	-1(%rsi), %eax
	lea	31(%rsi), %ecx
	xor	%ecx, %eax
	lea	-1(%rdi), %ecx
	lea	31(%rdi), %r8d
	xor	%r8d, %ecx
	or	%ecx, %eax
	test	$0x10, %ah
.endm

/*
 * Where the page test refused a pointer at a page's start: both windows lie
 * in the pages of their first bytes (each pointer at most 4064 bytes into its
 * page), which the copy uses when it copies a byte or more. Scratch ecx, r8d;
 * ZF clear: not so.
 */
.macro STARTS_A_PAGE
	lea	31(%rdi), %ecx
	xor	%edi, %ecx
	lea	31(%rsi), %r8d
	xor	%esi, %r8d
	or	%r8d, %ecx
	test	$0x10, %ch
.endm

/*
 * 4 <= n <= 32 in plain moves (rax already the destination), and 0 <= n < 4
 * from .L<name>_under_4: two of the widest width that fits from both ends,
 * and below 4 bytes the first byte and the last two. Where a destination
 * crosses a page every store that spans the boundary is slow: each is made
 * once, and none below 4 bytes (two byte stores on either side of the
 * boundary cost as much as one that spans it).
 */
.macro LADDER name
	cmp	$16, %edx
	jae	.L\name\()_16_32
	cmp	$8, %edx
	jae	.L\name\()_8_15
	movl	(%rsi), %ecx
	movl	-4(%rsi,%rdx), %r8d
	movl	%ecx, (%rdi)
	movl	%r8d, -4(%rdi,%rdx)
	ret
.L\name\()_8_15:
	movq	(%rsi), %rcx
	movq	-8(%rsi,%rdx), %r8
	movq	%rcx, (%rdi)
	movq	%r8, -8(%rdi,%rdx)
	ret
	.p2align 6
.L\name\()_16_32:
	vmovdqu64 (%rsi), %xmm16
	vmovdqu64 -16(%rsi,%rdx), %xmm17
	vmovdqu64 %xmm16, (%rdi)
	vmovdqu64 %xmm17, -16(%rdi,%rdx)
	ret
.L\name\()_under_4:
	mov	%rdi, %rax
	test	%edx, %edx
	jz	1f
	movzbl	(%rsi), %ecx
	cmp	$1, %edx
	je	2f
	movzwl	-2(%rsi,%rdx), %r8d
	movw	%r8w, -2(%rdi,%rdx)
2:	movb	%cl, (%rdi)
1:	ret
.endm

/*
 * n > 32: up to 63 bytes one 32-byte move from each end (FROM_33); 64 to 128
 * one 64-byte move from each end, above that the jump to the C copy
 * (FROM_64). rax: the destination. FROM_64, FROM_33 and REFUSED follow an
 * entry in that order, the first two from a line's start and REFUSED in the
 * rest of FROM_33's line: the jumps to them from the entry's path are short
 * ones, and a block that a taken branch reaches spans no line boundary where
 * it can help it (one that does ran a cycle a call slower).
 */
.macro FROM_33 name
	.p2align 6
.L\name\()_33_63:
	vmovdqu64 (%rsi), %ymm16
	vmovdqu64 -32(%rsi,%rdx), %ymm17
	mov	%rdi, %rax
	vmovdqu64 %ymm16, (%rdi)
	vmovdqu64 %ymm17, -32(%rdi,%rdx)
	ret
.endm

.macro FROM_64 name, above
	.p2align 6
.L\name\()_from_64:
	cmp	$128, %rdx
	ja	\above
	vmovdqu64 (%rsi), %zmm16
	vmovdqu64 -64(%rsi,%rdx), %zmm17
	mov	%rdi, %rax
	vmovdqu64 %zmm16, (%rdi)
	vmovdqu64 %zmm17, -64(%rdi,%rdx)
	ret
.endm

/*
 * The calls the page test refused: 0 <= n <= 32 (k1 the mask of the first n
 * bytes), or with two windows 0 <= n <= 63. Below 4 bytes, and near a page's
 * end, the ladder; a copy that starts a page, the masked move.
 */
.macro REFUSED name, windows
.L\name\()_refused:
	cmp	$4, %edx
	jb	.L\name\()_under_4
.if \windows == 2
	cmp	$32, %edx
	ja	.L\name\()_33_63
.endif
	STARTS_A_PAGE
	jnz	.L\name\()_ladder
	vmovdqu8 (%rsi), %ymm16{%k1}{z}
	vmovdqu8 %ymm16, (%rdi){%k1}
	mov	%rdi, %rax
	ret
	.p2align 6
.L\name\()_ladder:
	mov	%rdi, %rax
	LADDER \name
.endm

.macro ENTRY name
	.p2align 6
	.globl	\name
	.hidden	\name
	.type	\name, @function
\name:
.endm

.macro END name
	.size	\name, . - \name
.endm

/* The size-tested variant: copyperf_memcpy_avx512, copyperf_memmove_avx512. */
.macro SIZE_TESTED name, above
ENTRY \name
	cmp	$63, %rdx
	ja	.L\name\()_from_64
	cmp	$33, %dl
	jae	.L\name\()_33_63
	sbb	%ecx, %ecx		/* all ones: n < 33 */
	bzhi	%edx, %ecx, %ecx
	kmovd	%ecx, %k1
	PAGE_TEST
	jnz	.L\name\()_refused
	vmovdqu8 (%rsi), %ymm16{%k1}{z}
	vmovdqu8 %ymm16, (%rdi){%k1}
	mov	%rdi, %rax
	ret
	FROM_64 \name, \above
	FROM_33 \name
	REFUSED \name, 1
END \name
.endm

/*
 * The branchless variant: below 64 bytes the first window and the last (at
 * max(n, 32) - 32 from the start: the first again up to 32 bytes), both masked
 * to the first min(n, 32) bytes of their window. The second window lies
 * inside the copy from 33 bytes on: the page test's rule is the first's.
 */
.macro BRANCHLESS name, above
ENTRY \name
	cmp	$63, %rdx
	ja	.L\name\()_from_64
	mov	$-1, %ecx
	bzhi	%edx, %ecx, %ecx	/* all 32 bits from 32 bytes on */
	kmovd	%ecx, %k1
	PAGE_TEST
	jnz	.L\name\()_refused
	mov	$32, %eax
	cmp	%rax, %rdx
	cmovae	%rdx, %rax
	vmovdqu8 (%rsi), %ymm16{%k1}{z}
	vmovdqu8 -32(%rsi,%rax), %ymm17{%k1}{z}
	vmovdqu8 %ymm16, (%rdi){%k1}
	vmovdqu8 %ymm17, -32(%rdi,%rax){%k1}
	mov	%rdi, %rax
	ret
	FROM_64 \name, \above
	FROM_33 \name
	REFUSED \name, 2
END \name
.endm

	.text
SIZE_TESTED copyperf_memcpy_avx512, copyperf_x86_avx512_memcpy_above_128
SIZE_TESTED copyperf_memmove_avx512, copyperf_x86_avx512_memmove_above_128
BRANCHLESS copyperf_memcpy_avx512_branchless, copyperf_x86_avx512_memcpy_above_128
BRANCHLESS copyperf_memmove_avx512_branchless, copyperf_x86_avx512_memmove_above_128

/*
 * For the unit test (test_masked_fits.c): whether PAGE_TEST, and
 * STARTS_A_PAGE, pass (dst, src): 1 or 0.
 */
ENTRY copyperf_x86_page_test
	PAGE_TEST
	setz	%al
	movzbl	%al, %eax
	ret
END copyperf_x86_page_test

ENTRY copyperf_x86_starts_a_page
	STARTS_A_PAGE
	setz	%al
	movzbl	%al, %eax
	ret
END copyperf_x86_starts_a_page

	.section .note.GNU-stack, "", @progbits
