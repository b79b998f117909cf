// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The command's test pattern, so module and command verify copies alike. */
#include <pattern.c>
