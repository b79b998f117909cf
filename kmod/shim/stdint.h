/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* See stddef.h: uint64_t and friends come from the kernel's types. */
#include <linux/types.h>
