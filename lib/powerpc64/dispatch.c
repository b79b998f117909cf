/* SPDX-License-Identifier: MIT */
/* 64-bit PowerPC shares the 32-bit cache-line copy: cp_word is a 64-bit GPR there. */
#include "../powerpc/dispatch.c"
