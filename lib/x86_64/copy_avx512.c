/* SPDX-License-Identifier: MIT */
/* The AVX-512 copy: 64-byte vectors, one cache line per register. */
#define VEC_ISA avx512
#include "avx512_blocks.h"
#define VEC_SMALL copy_under_64
#include "vec_copy.h"
