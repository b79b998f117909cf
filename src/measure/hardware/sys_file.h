/* SPDX-License-Identifier: MIT */
/* One value from a file the kernel shows under /sys or /proc: a number, or a line. */
#ifndef COPYPERF_SYS_FILE_H
#define COPYPERF_SYS_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* The decimal number the file starts with; fallback when it is absent or holds none. */
long long sys_file_number(const char *path, long long fallback);

/* The file's first line, without its newline, into buf; false (buf empty) when absent. */
bool sys_file_line(const char *path, char *buf, size_t len);

#endif
