/* SPDX-License-Identifier: MIT */
#include <fcntl.h>
#include <unistd.h>
#include "text.h"

char *copyperf_text_put(char *p, char *end, const char *s)
{
	while (*s && p < end)
		*p++ = *s++;
	*p = '\0';
	return p;
}

char *copyperf_text_put_uint(char *p, char *end, uint64_t v)
{
	char digits[24], *d = digits + sizeof(digits) - 1;

	*d = '\0';
	do
		*--d = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	return copyperf_text_put(p, end, d);
}

int copyperf_text_read(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got;

	if (fd < 0)
		return -1;
	got = read(fd, buf, len - 1);
	close(fd);
	if (got <= 0)
		return -1;
	buf[got] = '\0';
	return 0;
}
