/* SPDX-License-Identifier: MIT */
#ifndef COPYPERF_CSV_FIELD_H
#define COPYPERF_CSV_FIELD_H

#include <stdio.h>

/* s as one CSV field: as it is, or quoted with its quotes doubled where it holds a comma, quote or newline. */
void csv_field(FILE *f, const char *s);

#endif
