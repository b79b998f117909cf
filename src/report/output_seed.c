/* SPDX-License-Identifier: MIT */
/*
 * The seed's own lines, byte for byte: "memcpy()", then for each chunk
 * chunk:  65536 [B] | transfer:     69.2 [MB/s] | time: 1.849727 [s] | size:  128.000 [MB]
 */
#include <string.h>
#include "output.h"

void seed_line(char *buf, size_t len, uint64_t chunk, double seconds, uint64_t total)
{
	double mb = (double)total / BYTES_PER_MB;

	snprintf(buf, len, "chunk: %6llu [B] | transfer: %8.1f [MB/s] | time: %f [s] | size: %8.3f [MB]",
		 (unsigned long long)chunk, mb / seconds, seconds, mb);
}

void output_seed(FILE *f, const struct report *r)
{
	const char *routine = NULL;

	for (size_t i = 0; i < r->n; i++) {
		const struct point_result *p = &r->results[i];
		char line[200];

		if (!routine || strcmp(routine, p->routine)) {
			fprintf(f, "%s%s()\n", routine ? "\n" : "", p->routine);
			routine = p->routine;
		}
		if (p->verified) {
			double cpb = cycles_per_byte(p);

			seed_line(line, sizeof(line), p->chunk, p->seconds.median, p->total);
			/* --counters extends the seed's line; without them it stays byte for byte */
			if (cpb > 0)
				fprintf(f, "%s | cycles: %.3f [cycles/B] %.2f [B/cycle]\n", line, cpb,
					1 / cpb);
			else
				fprintf(f, "%s\n", line);
		} else {
			fprintf(f, "chunk: %6llu [B] | FAILED: %s\n", (unsigned long long)p->chunk,
				p->error);
		}
	}
}
