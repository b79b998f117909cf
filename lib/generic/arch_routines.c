/* SPDX-License-Identifier: MIT */
/* Architectures without a directory of their own add no routines. */
#include "../internal.h"

const struct copyperf_routine copyperf_arch_routines[1];
const size_t copyperf_arch_routine_count;
