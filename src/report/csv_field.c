/* SPDX-License-Identifier: MIT */
/* One CSV field, quoted where it must be (RFC 4180). */
#include <string.h>
#include "csv_field.h"

void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}
