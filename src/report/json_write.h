/* SPDX-License-Identifier: MIT */
/* Writing JSON: the values every document copyperf writes is made of. */
#ifndef COPYPERF_JSON_WRITE_H
#define COPYPERF_JSON_WRITE_H

#include <stddef.h>
#include <stdio.h>
#include "machine.h"

/* A string, quoted and escaped; bytes that are not UTF-8 become U+FFFD. */
void json_string(FILE *f, const char *s);
/* A number, or null where it is not finite: JSON has no NaN. */
void json_number(FILE *f, double v);
/* "key":{"median":..,"min":..,"max":..} */
void json_triple(FILE *f, const char *key, double median, double min, double max);
/* [v0,v1,...] */
void json_ints(FILE *f, const int *v, size_t n);
/* "machine":{...}: the processor, system, caches, NUMA nodes and last level measured. */
void json_machine(FILE *f, const struct machine_info *m);

#endif
