/* SPDX-License-Identifier: MIT */
#include <unistd.h>
#include "progress.h"
#include "timing.h"

#define REDRAW_NS 200000000u /* a redraw costs little, but not during every measurement */
#define BAR 24

void progress_start(struct progress *p, FILE *f, int enabled)
{
	p->f = enabled && isatty(fileno(f)) ? f : NULL;
	p->start = p->last = now_ns();
	p->drawn = 0;
}

void progress_update(size_t done, size_t total, void *arg)
{
	struct progress *p = arg;
	uint64_t now = now_ns();
	double elapsed, left;
	char bar[BAR + 1];
	size_t fill;

	if (!p->f || (now - p->last < REDRAW_NS && done < total))
		return;
	p->last = now;
	elapsed = (double)(now - p->start) * 1e-9;
	left = done ? elapsed * (double)(total - done) / (double)done : 0;
	fill = total ? done * BAR / total : BAR;
	for (size_t i = 0; i < BAR; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[BAR] = '\0';
	fprintf(p->f, "\r[%s] %zu/%zu measurements, %.0fs elapsed, about %.0fs left ", bar, done,
		total, elapsed, left);
	fflush(p->f);
	p->drawn = 1;
}

void progress_end(struct progress *p)
{
	if (p->f && p->drawn)
		fprintf(p->f, "\r\033[K");
	p->drawn = 0;
}
