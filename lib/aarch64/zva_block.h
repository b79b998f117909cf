/* SPDX-License-Identifier: MIT */
#ifndef COPYPERF_AARCH64_ZVA_BLOCK_H
#define COPYPERF_AARCH64_ZVA_BLOCK_H

#include <stddef.h>

/* Bytes one `dc zva` zeroes, or 1 when dc zva is prohibited. */
size_t copyperf_zva_block(void);

#endif
