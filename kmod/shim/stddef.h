/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The module compiles files of the library and the command as they are;
 * their hosted includes resolve to the kernel's own types here.
 */
#include <linux/stddef.h>
#include <linux/types.h>
