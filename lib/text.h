/* SPDX-License-Identifier: MIT */
/*
 * Text without stdio or malloc, for the library's code that may run inside
 * somebody else's process as its memcpy (the constructor's warnings, the
 * recorder's file, the sysfs paths): each appends at p, stops at end (where
 * the NUL may still go), and returns the new end of the text.
 */
#ifndef COPYPERF_LIB_TEXT_H
#define COPYPERF_LIB_TEXT_H

#include <stddef.h>
#include <stdint.h>

char *copyperf_text_put(char *p, char *end, const char *s);
/* v in decimal. */
char *copyperf_text_put_uint(char *p, char *end, uint64_t v);
/* The start of the file at path, at most len - 1 bytes, in buf with a NUL after: 0, or -1. */
int copyperf_text_read(const char *path, char *buf, size_t len);

#endif
