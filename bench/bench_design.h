/* SPDX-License-Identifier: MIT */
/*
 * make bench's design, apart from copybench's parts so that test-unit checks it:
 * the contenders' order in each round, and when a row is below 1.00x.
 */
#ifndef COPYBENCH_DESIGN_H
#define COPYBENCH_DESIGN_H

#include <math.h>

/*
 * The contenders' order in round i.  A contender's time depends on what ran
 * just before it (at 32 MiB the C library ran 8.2 GB/s after copyperf's
 * non-temporal copy, 11.8 after a read of both buffers): rotating one order
 * (A B C, B C A, ...) kept who follows whom, so the A/A control and the
 * first C library ran after different predecessors.  Over each whole cycle
 * of these (its rounds one after another, wrapping) each contender follows
 * each other exactly as often, and never itself; each takes each place about
 * as often (the six orders of three exactly; the twelve of four within two).
 * Over 15 rounds, which are not whole cycles, the counts differ by one.
 */
static const unsigned char bench_orders3[6][3] = {
	{ 0, 1, 2 }, { 0, 2, 1 }, { 2, 1, 0 }, { 1, 0, 2 }, { 1, 2, 0 }, { 2, 0, 1 },
};
static const unsigned char bench_orders4[12][4] = {
	{ 1, 2, 0, 3 }, { 0, 2, 3, 1 }, { 3, 2, 1, 0 }, { 2, 3, 0, 1 }, { 2, 1, 0, 3 }, { 0, 1, 3, 2 },
	{ 0, 1, 3, 2 }, { 3, 0, 2, 1 }, { 0, 3, 1, 2 }, { 1, 3, 2, 0 }, { 2, 0, 3, 1 }, { 2, 3, 1, 0 },
};

/* The contender at place k of round i, for n (3 or 4) contenders. */
static inline unsigned bench_round_order(unsigned n, unsigned i, unsigned k)
{
	return n == 3 ? bench_orders3[i % 6][k] : bench_orders4[i % 12][k];
}

/*
 * When is a row below 1.00x?  When the median of its processes' ratios is
 * below 1.00 at the two decimals the targets are written with (under 0.995),
 * unless the A/A control's median is as low: then the C library measured
 * that far from itself, and the difference is the machine's.  But only a
 * control that measured: one under BENCH_CONTROL_FLOOR is no yardstick (a
 * copy 30% slower would pass beside a control 31% off), and its row is below
 * whatever its ratio; so is a ratio that is no number (a time of 0).  A test
 * of significance is not the rule: beside a noisy control a clear loss looks
 * like a tie, and with many processes a difference far below anything that
 * matters, between two copies running the same instructions, tests
 * significant.
 */
#define BENCH_BELOW 0.995
#define BENCH_CONTROL_FLOOR 0.98

static inline int bench_row_below(double ratio, double control)
{
	if (!isfinite(ratio) || !(ratio > 0))
		return 1;
	return ratio < BENCH_BELOW && (control > ratio || control < BENCH_CONTROL_FLOOR);
}

#endif
