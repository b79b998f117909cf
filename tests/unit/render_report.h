/* SPDX-License-Identifier: MIT */
/* A writer's output for one report, as a string the caller frees. */
#ifndef COPYPERF_RENDER_REPORT_H
#define COPYPERF_RENDER_REPORT_H

#include <stdio.h>
#include "report/output.h"

static inline char *render_report(void (*writer)(FILE *, const struct report *),
				  const struct report *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	writer(f, r);
	fclose(f);
	return text;
}

#endif
