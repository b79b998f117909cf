/* SPDX-License-Identifier: MIT */
/* When the AArch64 memcpy zeroes destination blocks with dc zva (memcpy.c, dispatch.c). */
#ifndef COPYPERF_AARCH64_ZVA_POLICY_H
#define COPYPERF_AARCH64_ZVA_POLICY_H

/* Below this, zeroing blocks costs more than the reads it saves. */
#define ZVA_MIN_COPY 1024
/* The blocks the copy handles: whole 64-byte steps, and DCZID_EL0.BS is at most 9 (2 KiB). */
#define ZVA_MIN_BLOCK 64
#define ZVA_MAX_BLOCK 2048

#endif
