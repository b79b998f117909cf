/* SPDX-License-Identifier: MIT */
#include "params.h"

const char *const cache_mode_names[N_CACHE_MODES] = { "flush", "flush-timed", "hot", "cold" };
