/* SPDX-License-Identifier: MIT */
#include <unistd.h>
#include "measure/engine/timing.h"
#include "progress.h"

#define REDRAW_NS 200000000u /* a redraw costs little, but not during every measurement */
#define BAR 20 /* the whole line stays within 80 columns */

void progress_start(struct progress *p, FILE *f, int enabled)
{
	p->f = enabled && isatty(fileno(f)) ? f : NULL;
	p->start = now_ns();
	p->last = 0; /* the first update draws at once: the user sees the run has started */
	p->drawn = 0;
}

/* 42s, 3m07s, 1h02m: short enough for one line, exact enough for a wait. */
static void duration(char *buf, size_t len, double seconds)
{
	unsigned long s = (unsigned long)(seconds + 0.5);

	if (s < 60)
		snprintf(buf, len, "%lus", s);
	else if (s < 3600)
		snprintf(buf, len, "%lum%02lus", s / 60, s % 60);
	else
		snprintf(buf, len, "%luh%02lum", s / 3600, s / 60 % 60);
}

void progress_update(size_t done, size_t total, void *arg)
{
	struct progress *p = arg;
	uint64_t now = now_ns();
	double elapsed, left;
	char bar[BAR + 1], spent[24], remaining[24];
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
	duration(spent, sizeof(spent), elapsed);
	duration(remaining, sizeof(remaining), left);
	/* \033[K: a shorter line leaves nothing of the longer one before it */
	fprintf(p->f, "\r[%s] %zu/%zu measurements, %s elapsed, about %s left\033[K", bar, done,
		total, spent, remaining);
	fflush(p->f);
	p->drawn = 1;
}

void progress_end(struct progress *p)
{
	if (p->f && p->drawn)
		fprintf(p->f, "\r\033[K");
	p->drawn = 0;
}
