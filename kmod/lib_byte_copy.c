// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The byte loop, compiled from the library's own file (Kbuild needs it here). */

/* The library spells the GCC attribute noinline, which the kernel makes a macro. */
#undef noinline
#include <generic/byte_copy.c>
