// SPDX-License-Identifier: GPL-2.0 OR MIT
/* copyperf's PowerPC cache-line copy, compiled from the library's own file. */
#include <powerpc/line_copy.c>
