/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>
#include "sys_file.h"

long long sys_file_number(const char *path, long long fallback)
{
	FILE *f = fopen(path, "r");
	long long v;

	if (!f)
		return fallback;
	if (fscanf(f, "%lld", &v) != 1)
		v = fallback;
	fclose(f);
	return v;
}

bool sys_file_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	bool got = f && fgets(buf, (int)len, f);

	if (f)
		fclose(f);
	if (!got)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return got;
}
