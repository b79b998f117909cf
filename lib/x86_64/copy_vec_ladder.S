/* SPDX-License-Identifier: MIT */
/*
 * The SSE2 and AVX2 variants' entry points and their ladder of sizes up to
 * the large copy in C (copy_sse2.c, copy_avx2.c), where every block's bytes
 * and branches are the cost: each is laid out here by hand, and
 * tests/lib/layout.sh checks the entries' layout.
 *
 * The steps of copyperf_memcpy_<isa> and copyperf_memmove_<isa>, v the
 * vector's width (16 bytes with SSE2, 32 with AVX2):
 *  1. v <= n <= 2v, falling through from the entry: a vector from each end,
 *     and the last byte again (blocks.inc, LAST_BYTE_STORE).
 *  2. 2v < n <= 8v: two vectors from each end up to 4v (with SSE2 the last
 *     byte again too: its 33-64 bytes are AVX2's step 1), four from 4v on.
 *     Past 8v (SSE2: 128 bytes, AVX2: 256) a jump to the forward loop, or
 *     to the large copy in C from the tuning's loop_max on (blocks.inc,
 *     FROM_LOOP_MAX, TO_LOOP; with AVX2 tested from 4v on).
 *  3. With AVX2, 16 <= n < 32: a 16-byte move from each end and the last
 *     byte again.
 *  4. 4 <= n < 16: four 4-byte moves, the first and last and a middle pair
 *     that moves with the size (MIDDLE_PAIR), so that the sizes most calls
 *     of a mix draw take one path and not one per width. At n = 4 the four
 *     store the same bytes: where the destination crosses a page, every
 *     store spanning the boundary is slow, so there a move from each end of
 *     4 or 8 bytes stores each byte once.
 *  5. 0 <= n < 4: the first, middle and last bytes (FIRST_MIDDLE_LAST).
 * Where one size comes again and again, its path is as short as the C
 * library's for that size, with no more taken branches: a copy of one size
 * in a loop (a struct, a header) pays for each instruction on its path and
 * gains nothing from merged size classes. Where sizes vary, fewer classes
 * mean fewer mispredicted tests: the C library's ladder tells apart 0, 1,
 * 2-3, 4-7 and 8-15 bytes, steps 4 and 5 take 1-3 and 4-15 on one path each.
 * Every path loads everything before it stores, so memmove takes the same
 * ones as memcpy: the two entries of a variant differ only past the blocks,
 * where memmove copies backward a destination above its source within the
 * copy. Scratch: rax, rcx, rdx, rsi, r8-r11, xmm0-xmm7 (ymm with AVX2,
 * whose paths with ymm end in vzeroupper).
 */
#include "blocks.inc"

/*
 * 4 <= n < 16 (rax already the destination): [0,4) [k,k+4) [n-4-k,n-k)
 * [n-4,n), k = 4 above 8 bytes. The stores go from the last to the first,
 * as the C library's 4-7 byte block orders its two: at 4 bytes all four
 * cover the last byte, and a caller that reads it back at once (a decoder
 * appending to its window) gets it from the store at the destination itself.
 */
.macro MIDDLE_PAIR
	xor	%ecx, %ecx
	cmp	$8, %edx
	seta	%cl
	shl	$2, %ecx
	lea	-4(%rdx), %r8d
	sub	%ecx, %r8d
	mov	-4(%rsi,%rdx), %r9d
	mov	(%rsi,%r8), %r10d
	mov	(%rsi,%rcx), %r11d
	mov	(%rsi), %esi
	mov	%r9d, -4(%rdi,%rdx)
	mov	%r10d, (%rdi,%r8)
	mov	%r11d, (%rdi,%rcx)
	mov	%esi, (%rdi)
	ret
.endm

/* The return of a block of vectors: vzeroupper first after VEX-encoded ymm (v = 32). */
.macro VEC_RET v
.if \v == 32
	vzeroupper
.endif
	ret
.endm

/*
 * One entry: name, the large copy in C and the forward loop, move (1 for
 * memmove), v, vmov and r0-r7: the vector's width, its move and registers.
 * The block of step 1 and the size tests below v share the entry's line;
 * the 4-15 byte block starts a line of its own, the way to it two lines.
 * Past 128 bytes, the size is tested against the tuning's loop_max first.
 */
.macro VEC_LADDER name, large, loop, move, v, vmov, r0, r1, r2, r3, r4, r5, r6, r7
ENTRY \name
	mov	%rdi, %rax
	cmp	$\v, %rdx
	jb	.L\name\()_under_v
	cmp	$2*\v, %rdx
	ja	.L\name\()_above_2v
	BOTH_ENDS_2 \vmov, \v, \r0, \r1, 1
	VEC_RET \v
.L\name\()_under_v:
.if \v == 32
	cmp	$16, %edx
	jae	.L\name\()_16_31
.endif
	cmp	$4, %edx
	jae	.L\name\()_4_15
	FIRST_MIDDLE_LAST
.if \v == 32
.L\name\()_16_31:
	BOTH_ENDS_2 vmovdqu, 16, %xmm0, %xmm1, 1
	ret
.endif
	.p2align 6
.L\name\()_4_15:
	lea	-1(%rdi,%rdx), %rcx	/* the destination's last byte: in d's page? */
	xor	%rdi, %rcx
	test	$0x10, %ch
	jnz	.L\name\()_crossing
	MIDDLE_PAIR
.L\name\()_crossing:
	cmp	$8, %edx
	jae	.L\name\()_crossing_8_15
	BOTH_ENDS_2 movl, 4, %ecx, %r8d
	ret
.L\name\()_crossing_8_15:
	BOTH_ENDS_2 movq, 8, %rcx, %r8
	ret
	.p2align 6
.L\name\()_above_2v:
	cmp	$4*\v, %rdx
	ja	.L\name\()_above_4v
	BOTH_ENDS_4 \vmov, \v, \r0, \r1, \r2, \r3, (\v == 16)
	VEC_RET \v
.L\name\()_above_4v:
.if 4*\v >= 128
	FROM_LOOP_MAX \large
.endif
	cmp	$8*\v, %rdx
	ja	.L\name\()_above_8v
	BOTH_ENDS_8 \vmov, \v, \r0, \r1, \r2, \r3, \r4, \r5, \r6, \r7
	VEC_RET \v
.L\name\()_above_8v:
.if 4*\v < 128
	FROM_LOOP_MAX \large
.endif
	TO_LOOP \large, \loop, \move
END \name
.endm

	.text
#define SSE2_VECTORS 16, movdqu, %xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5, %xmm6, %xmm7
#define AVX2_VECTORS 32, vmovdqu, %ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, %ymm6, %ymm7
VEC_LADDER copyperf_memcpy_sse2, copyperf_x86_sse2_memcpy_large, copyperf_x86_forward_sse2, 0, \
	SSE2_VECTORS
VEC_LADDER copyperf_memmove_sse2, copyperf_x86_sse2_memmove_large, copyperf_x86_forward_sse2, 1, \
	SSE2_VECTORS
VEC_LADDER copyperf_memcpy_avx2, copyperf_x86_avx2_memcpy_large, copyperf_x86_forward_avx2, 0, \
	AVX2_VECTORS
VEC_LADDER copyperf_memmove_avx2, copyperf_x86_avx2_memmove_large, copyperf_x86_forward_avx2, 1, \
	AVX2_VECTORS

	.section .note.GNU-stack, "", @progbits
