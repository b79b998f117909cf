/* SPDX-License-Identifier: MIT */
/*
 * Where the ladders in assembly find their fields of copyperf_x86_tuning
 * (struct x86_tuning, x86_copy.h, which checks them): byte offsets, for C and
 * assembly alike. Every field a copy below the string copy's window reads
 * lies in the struct's first cache line, so such a copy reads one line of the
 * tuning whatever way it takes: with its buffers filling the L1, a line more
 * costs them.
 */
#ifndef COPYPERF_X86_TUNING_LAYOUT_H
#define COPYPERF_X86_TUNING_LAYOUT_H

#define X86_TUNING_LOOP_MAX 0
#define X86_TUNING_BLOCKS_MAX 8
#define X86_TUNING_LOOP_VEC 56
#define X86_TUNING_ALIGN 64

#endif
