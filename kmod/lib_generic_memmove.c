// SPDX-License-Identifier: GPL-2.0 OR MIT
/* copyperf's portable memmove, compiled from the library's own file (Kbuild needs it here). */
#include <generic/generic_memmove.c>
