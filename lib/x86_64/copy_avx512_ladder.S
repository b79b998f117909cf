/* SPDX-License-Identifier: MIT */
/*
 * The AVX-512 variants' entry points and their ladder of sizes up to the
 * large copy in C (copy_avx512.c), where every block's bytes and branches
 * are the cost: each is laid out here by hand, and tests/lib/layout.sh
 * checks the entries' layout.
 *
 * The steps of copyperf_memcpy_avx512 and copyperf_memmove_avx512:
 *  1. n >= 32: up to 64 bytes one 32-byte move from each end; from 65 to 128
 *     one 64-byte move from each end (two 64-byte moves at 64 bytes would
 *     store every byte twice); then the last byte again in a byte move.
 *  2. 0 <= n < 32: the mask of the first n bytes; for 0 bytes both pointers
 *     moved off the caller's (NO_BYTES_ELSEWHERE); the page test (PAGE_TEST).
 *     Where both pointers pass, a 32-byte load of the source's window (a
 *     plain load: the page test keeps it in the source's page), a masked
 *     store of its first n bytes, and the last byte again in a plain move.
 *     From the entry (a line's start) to its ret this path lies in two lines,
 *     which fetches bring again after each mispredicted size test.
 *  3. Refused (REFUSED): below 4 bytes the first, middle and last bytes,
 *     from 4 to 32 plain moves of the widest width that fits.
 *  4. 129-256 bytes: four 32-byte vectors from each end; 257-512: eight from
 *     the start and two, four or eight from the end (blocks.inc). 32-byte
 *     vectors: a 64-byte access at a random address spans two lines nearly
 *     always, a 32-byte one half the time.
 *  5. 513-1024 bytes where the tuning says (its blocks_max: where the loop
 *     is this variant's own, its head, tail and jumps cost more than blocks),
 *     the same in 64-byte vectors.
 *  6. Above, below the tuning's loop_max: a jump to the forward loop
 *     (forward_loop.S), which the large copy would choose there (blocks.inc,
 *     TO_LOOP); the rest, memmove's backward copies among them, a jump to the
 *     large copy in C. The size is tested against loop_max before step 5.
 * copyperf_memcpy_avx512_branchless and its memmove have no size test up to
 * 64 bytes: two windows loaded and stored masked, the first n bytes of a
 * 32-byte window at the start and, from 33 bytes, the last 32 (where sizes
 * vary from call to call the test at 32 bytes is one the branch predictor
 * cannot learn), and the last byte again.
 *
 * The masked move and the vector moves of 32-128 bytes end with the last
 * byte again (blocks.inc, LAST_BYTE_STORE): a program that reads back what
 * it has just copied, as a decoder reads the last byte it wrote, would
 * otherwise wait for the masked or vector store at every copy.
 *
 * Where the copies' lines come from memory, each instruction on the path
 * costs: the calls are independent, and the fewer of them the reorder buffer
 * holds, the fewer misses are in flight. Step 2 is as short as it can be.
 *
 * Every path loads everything before it stores, so memmove takes the same
 * ones as memcpy: the two entries of a variant differ only past the blocks,
 * where memmove copies backward a destination above its source within the
 * copy. The registers are the caller's scratch: ymm16-ymm31 and zmm16-31
 * (EVEX-only: no dirty upper state for the caller's SSE code, no vzeroupper),
 * k1, rax, rcx, rsi, rdi, r8-r11 (rax holds the destination from the entry
 * on, so that step 2 may move rsi and rdi).
 */
#include "blocks.inc"

/*
 * Copies of 0 bytes touch neither of the caller's pointers: a copy of nothing
 * may be given any pointer (NULL, or one past an object that ends a mapping,
 * or the small non-zero address an empty slice of Rust points to), and a
 * masked move, even of no byte, at a page that is not mapped costs a
 * suppressed fault, tens of nanoseconds. By cmovz on the mask's ZF (bzhi's:
 * n = 0), rsi goes to the middle of .Lno_bytes, read-only zeros never
 * stored to, and rdi into the red zone, 64 bytes below the stack pointer:
 * not the return address's line, whose ret would wait for the masked store
 * to reach the cache (masked stores do not forward), and not the stack's top
 * that a load would find just written by the call. No branch: 0-byte copies
 * are a few per cent of real call mixes, at random among the others, and a
 * branch on them is one no predictor learns.
 * Scratch r11.
 */
.macro NO_BYTES_ELSEWHERE
	cmovz	.Lno_bytes_at(%rip), %rsi
	lea	-64(%rsp), %r11
	cmovz	%r11, %rdi
.endm

/*
 * The page test: for each pointer p, the 32-byte window [p, p + 32) lies in
 * one page, that is p is 0 to 4064 bytes into its page. Then the window lies
 * in the page of the copy's first byte, for 1 byte or more: a page the copy
 * uses, where a load of the window reads no byte it may not and a masked-off
 * byte of the store is not written (0 bytes use no page of the caller's: see
 * NO_BYTES_ELSEWHERE). Near a page's end a masked store whose window crosses
 * into the next page is as slow as a plain store that spans the boundary,
 * even where its bytes there are masked off, and a masked-off byte in a page
 * that is not mapped would cost a suppressed fault: refused. A sum and an XOR
 * per pointer: bit 12 of the XOR is set exactly when p and p + 31 lie in
 * different pages.
 * Scratch ecx, r8d; ZF clear: refused.
 */
.macro PAGE_TEST
	lea	31(%rsi), %ecx
	xor	%esi, %ecx
	lea	31(%rdi), %r8d
	xor	%edi, %r8d
	or	%r8d, %ecx
	test	$0x10, %ch
.endm

/*
 * n >= 32: up to 64 bytes one 32-byte move from each end (FROM_32: plain
 * moves, which a copy of 32 bytes from memory makes faster than the masked
 * path's); 65 to 128 one 64-byte move from each end, above that the jump to
 * ABOVE_128 (FROM_65); both with the last byte again (LAST_BYTE_STORE). rax:
 * the destination. Each starts a line, after REFUSED: a block that a taken
 * branch reaches spans no line boundary where it can help it (one that does
 * ran a cycle a call slower).
 */
.macro FROM_32 name
	.p2align 6
.L\name\()_32_64:
	mov	%rdi, %rax
	BOTH_ENDS_2 vmovdqu64, 32, %ymm16, %ymm17, 1
	ret
.endm

.macro FROM_65 name
	.p2align 6
.L\name\()_65_128:
	cmp	$128, %rdx
	ja	.L\name\()_above_128
	mov	%rdi, %rax
	BOTH_ENDS_2 vmovdqu64, 64, %zmm16, %zmm17, 1
	ret
.endm

/*
 * The calls the page test refused: 0 <= n < 32, or with two windows
 * 0 <= n <= 64. Above 32 the two 32-byte moves; below 4 bytes the first,
 * middle and last; otherwise the ladder. rax: the destination already.
 * REFUSED follows the entry's ret, so that its size tests and the ladder's
 * block of 4-7 bytes lie in the line of the page test's branch: no size class
 * takes more than two taken branches past the entry.
 */
.macro REFUSED name, windows
.L\name\()_refused:
.if \windows == 2
	cmp	$32, %edx
	ja	.L\name\()_32_64
.endif
	cmp	$4, %edx
	jb	.L\name\()_0_3
	LADDER \name, vmovdqu64, %xmm16, %xmm17
	.p2align 6
.L\name\()_0_3:
	FIRST_MIDDLE_LAST
.endm

/* n > 128: steps 4 to 6. large: the C copy; move: 1 for memmove. */
.macro ABOVE_128 name, large, move
	.p2align 6
.L\name\()_above_128:
	mov	%rdi, %rax
	cmp	$256, %rdx
	ja	.L\name\()_above_256
	BOTH_ENDS_8 vmovdqu64, 32, %ymm16, %ymm17, %ymm18, %ymm19, %ymm20, %ymm21, %ymm22, %ymm23
	ret
.L\name\()_above_256:
	cmp	$512, %rdx
	ja	.L\name\()_above_512
	EIGHT_TO_16 \name\()_h, vmovdqu64, 32, %ymm16, %ymm17, %ymm18, %ymm19, %ymm20, %ymm21, %ymm22, %ymm23, %ymm24, %ymm25, %ymm26, %ymm27, %ymm28, %ymm29, %ymm30, %ymm31
.L\name\()_above_512:
	FROM_LOOP_MAX \large
	cmp	copyperf_x86_tuning+X86_TUNING_BLOCKS_MAX(%rip), %rdx
	ja	.L\name\()_loop
	EIGHT_TO_16 \name\()_v, vmovdqu64, 64, %zmm16, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22, %zmm23, %zmm24, %zmm25, %zmm26, %zmm27, %zmm28, %zmm29, %zmm30, %zmm31
.L\name\()_loop:
	TO_LOOP \large, copyperf_x86_forward_avx512_tuned, \move
.endm

/* The size-tested variant: copyperf_memcpy_avx512, copyperf_memmove_avx512. */
.macro SIZE_TESTED name, large, move
ENTRY \name
	cmp	$64, %rdx
	ja	.L\name\()_65_128
	cmp	$32, %dl
	jae	.L\name\()_32_64
	bzhi	%edx, .Lall_ones(%rip), %ecx
	mov	%rdi, %rax
	NO_BYTES_ELSEWHERE
	kmovd	%ecx, %k1
	PAGE_TEST
	jnz	.L\name\()_refused
	vmovdqu64 (%rsi), %ymm16
	LAST_BYTE_LOAD %ecx
	vmovdqu8 %ymm16, (%rdi){%k1}
	LAST_BYTE_STORE %cl
	ret
	REFUSED \name, 1
	FROM_65 \name
	FROM_32 \name
	ABOVE_128 \name, \large, \move
END \name
.endm

/*
 * The branchless variant: up to 64 bytes the first window and the last (at
 * max(n, 32) - 32 from the start: the first again up to 32 bytes), both masked
 * to the first min(n, 32) bytes of their window. The second window lies
 * inside the copy from 33 bytes on: the page test's rule is the first's.
 */
.macro BRANCHLESS name, large, move
ENTRY \name
	cmp	$64, %rdx
	ja	.L\name\()_65_128
	bzhi	%edx, .Lall_ones(%rip), %ecx	/* all 32 bits from 32 bytes on */
	mov	%rdi, %rax
	NO_BYTES_ELSEWHERE
	kmovd	%ecx, %k1
	PAGE_TEST
	jnz	.L\name\()_refused
	LAST_BYTE_LOAD %ecx
	mov	$32, %r11d
	cmp	%r11, %rdx
	cmovae	%rdx, %r11
	vmovdqu64 (%rsi), %ymm16
	vmovdqu64 -32(%rsi,%r11), %ymm17
	vmovdqu8 %ymm16, (%rdi){%k1}
	vmovdqu8 %ymm17, -32(%rdi,%r11){%k1}
	LAST_BYTE_STORE %cl
	ret
	REFUSED \name, 2
	FROM_65 \name
	FROM_32 \name
	ABOVE_128 \name, \large, \move
END \name
.endm

	.text
SIZE_TESTED copyperf_memcpy_avx512, copyperf_x86_avx512_memcpy_large, 0
SIZE_TESTED copyperf_memmove_avx512, copyperf_x86_avx512_memmove_large, 1
BRANCHLESS copyperf_memcpy_avx512_branchless, copyperf_x86_avx512_memcpy_large, 0
BRANCHLESS copyperf_memmove_avx512_branchless, copyperf_x86_avx512_memmove_large, 1

/*
 * What a copy of 0 bytes loads its windows and its last byte from, never
 * stored to: from the middle, since the last byte's load reads the byte
 * before the pointer and a window the 32 after it. And the mask's source.
 */
	.section .rodata
	.p2align 6
.Lno_bytes:
	.zero	64
.Lall_ones:
	.long	-1
	.section .data.rel.ro, "aw"
	.p2align 3
.Lno_bytes_at:
	.quad	.Lno_bytes + 32
	.text

/* For the unit test (test_masked_fits.c): whether PAGE_TEST passes (dst, src): 1 or 0. */
ENTRY copyperf_x86_page_test
	PAGE_TEST
	setz	%al
	movzbl	%al, %eax
	ret
END copyperf_x86_page_test

	.section .note.GNU-stack, "", @progbits
