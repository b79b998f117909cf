/* SPDX-License-Identifier: MIT */
/*
 * The AVX-512 copies for programs whose copy sizes vary from call to call:
 * under 64 bytes no size test (avx512_blocks.h, copy_under_64_branchless),
 * the rest as copy_avx512.c. memmove too, since the preload shim's memcpy is
 * a memmove; there the change cost the memmove mixes 2-5% from memory
 * (BENCHMARKS.md, fourteenth session).
 */
#define VEC_ISA avx512_branchless
#include "avx512_blocks.h"
#define VEC_SMALL copy_under_64_branchless
#include "vec_copy.h"
