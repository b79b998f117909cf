/* SPDX-License-Identifier: MIT */
/*
 * make bench: copyperf_memcpy against the C library's memcpy, side by side in
 * one process, each called through a function pointer, interleaved (the order
 * alternates every round), ROUNDS rounds; medians, spread and ratios for the
 * three cases the library's speed targets name:
 *   sweep  - the seed's walk: chunks of 8 B..64 KiB through 64 KiB buffers, hot
 *   l1     - the same bytes copied again and again (L1-resident)
 *   large  - single copies of 8..256 MiB, pages pre-faulted, caches evicted before each
 *   warm   - 4..32 MiB copied again and again (what stays in the LLC): where
 *            non-temporal stores start to pay; run it with COPYPERF_NT_THRESHOLD
 *            low and high to see the crossover
 * Usage: copybench [sweep|l1|large|warm ...] [-r ROUNDS] [-c ROUTINE]  (exit 2 on bad input)
 * Without a case: sweep, l1 and large, with a verdict on each target.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include "copyperf.h"

#define MAX_ROUNDS 101
#define SEED_BUFFER (64u * 1024)
#define SWEEP_BYTES (4u << 20) /* per measurement: the walk repeated */
#define L1_BYTES (8u << 20)

typedef void *(*copy_fn)(void *, const void *, size_t);

struct contender {
	const char *name;
	copy_fn fn;
};

static struct contender contenders[2] = {
	{ "memcpy", memcpy },
	{ "copyperf_memcpy", copyperf_memcpy },
};
static unsigned rounds = 15;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *map(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		fprintf(stderr, "copybench: cannot map %zu bytes\n", len);
		exit(1);
	}
	memset(p, 0x5a, len); /* pre-fault: page faults are not what is measured */
	return p;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct stat3 {
	double median, min, max;
};

static struct stat3 summarize(double *v, unsigned n)
{
	struct stat3 s;

	qsort(v, n, sizeof(*v), cmp_double);
	s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	s.min = v[0];
	s.max = v[n - 1];
	return s;
}

/* One measurement: returns seconds for `bytes` copied by the case at `size`. */
typedef double (*measure_fn)(copy_fn fn, size_t size, void *ctx);

struct buffers {
	unsigned char *src, *dst;
	unsigned char *junk; /* large: written before each sample, so every copy starts cold */
};

#define JUNK_BYTES (128u << 20) /* four times this machine's 32 MiB L3 */

/* The seed's walk: chunk after chunk through the 64 KiB buffers, wrapping, data hot. */
static double measure_sweep(copy_fn fn, size_t size, void *ctx)
{
	struct buffers *b = ctx;
	copy_fn volatile call = fn;
	size_t count = SWEEP_BYTES / size, off = 0;
	double t0 = now();

	for (size_t i = 0; i < count; i++) {
		call(b->dst + off, b->src + off, size);
		off += size;
		if (off + size > SEED_BUFFER)
			off = 0;
	}
	return now() - t0;
}

static double measure_l1(copy_fn fn, size_t size, void *ctx)
{
	struct buffers *b = ctx;
	copy_fn volatile call = fn;
	size_t count = L1_BYTES / size;
	double t0 = now();

	for (size_t i = 0; i < count; i++)
		call(b->dst, b->src, size);
	return now() - t0;
}

static double measure_large(copy_fn fn, size_t size, void *ctx)
{
	struct buffers *b = ctx;
	copy_fn volatile call = fn;
	double t0;

	/*
	 * Interleaved contenders would otherwise inherit each other's cache
	 * state (one leaves dst in L3, the other evicts it): evict everything.
	 */
	memset(b->junk, (int)size, JUNK_BYTES);
	t0 = now();
	call(b->dst, b->src, size);
	return now() - t0;
}

/*
 * The same copy WARM_BLOCK times in a row, so that what it leaves in the
 * cache is what the next one finds; the first of the block is not counted.
 */
#define WARM_BLOCK 4
static double measure_warm(copy_fn fn, size_t size, void *ctx)
{
	struct buffers *b = ctx;
	copy_fn volatile call = fn;
	double t0 = 0;

	for (unsigned i = 0; i < WARM_BLOCK; i++) {
		if (i == 1)
			t0 = now();
		call(b->dst, b->src, size);
	}
	return (now() - t0) / (WARM_BLOCK - 1);
}

/* Runs one case over its sizes; prints a table; returns the geometric mean of the ratios. */
static double run_case(const char *title, measure_fn measure, void *ctx, const size_t *sizes,
		       size_t n_sizes, size_t bytes_per_sample, double *min_ratio)
{
	double samples[2][MAX_ROUNDS], log_sum = 0;

	printf("\n%s (%u rounds, interleaved; GB/s = 1e9 B/s, median [min-max])\n", title, rounds);
	printf("%10s  %26s  %26s  %7s\n", "size", contenders[0].name, contenders[1].name, "ratio");
	*min_ratio = INFINITY;
	for (size_t i = 0; i < n_sizes; i++) {
		size_t size = sizes[i];
		size_t bytes = bytes_per_sample ? bytes_per_sample / size * size : size;
		struct stat3 s[2];
		double ratio;

		for (unsigned c = 0; c < 2; c++)
			measure(contenders[c].fn, size, ctx); /* warm-up */
		for (unsigned r = 0; r < rounds; r++)
			for (unsigned k = 0; k < 2; k++) {
				unsigned c = (r + k) % 2; /* A B, B A, A B ... */

				samples[c][r] = measure(contenders[c].fn, size, ctx);
			}
		for (unsigned c = 0; c < 2; c++)
			s[c] = summarize(samples[c], rounds);
		ratio = s[0].median / s[1].median;
		log_sum += log(ratio);
		if (ratio < *min_ratio)
			*min_ratio = ratio;
		printf("%10zu", size);
		for (unsigned c = 0; c < 2; c++)
			printf("  %8.2f [%7.2f-%7.2f]", bytes / s[c].median / 1e9, bytes / s[c].max / 1e9,
			       bytes / s[c].min / 1e9);
		printf("  %6.3fx\n", ratio);
	}
	printf("%10s  geometric mean of the ratios %.3fx, lowest %.3fx\n", "", exp(log_sum / (double)n_sizes),
	       *min_ratio);
	return exp(log_sum / (double)n_sizes);
}

static int verdict(const char *what, int ok)
{
	printf("  %-60s %s\n", what, ok ? "met" : "NOT MET");
	return ok;
}

static int bench_sweep(void)
{
	size_t sizes[14];
	struct buffers b = { map(SEED_BUFFER), map(SEED_BUFFER), NULL };
	double lowest, gm;

	for (unsigned i = 0; i < 14; i++)
		sizes[i] = (size_t)8 << i;
	gm = run_case("sweep: the seed's walk, chunks 8 B-64 KiB through 64 KiB buffers, hot cache",
		      measure_sweep, &b, sizes, 14, SWEEP_BYTES, &lowest);
	return verdict("sweep: >= 1.00x at every size", lowest >= 1.0) &
	       verdict("sweep: geometric mean >= 1.03x", gm >= 1.03);
}

static int bench_l1(void)
{
	static const size_t sizes[] = { 2113, 3000, 4096, 8192, 16384 };
	struct buffers b = { map(16384), map(16384), NULL };
	double lowest, gm, first, unused;

	gm = run_case("l1: the same bytes copied again and again (L1-resident)", measure_l1, &b,
		      sizes, 5, L1_BYTES, &lowest);
	first = run_case("l1: 2113 B again, on its own", measure_l1, &b, sizes, 1, L1_BYTES, &unused);
	return verdict("l1: >= 1.30x at 2113 B", first >= 1.30) &
	       verdict("l1: geometric mean >= 1.15x, none below 1.00x", gm >= 1.15 && lowest >= 1.0);
}

static int bench_large(void)
{
	static const size_t mib[] = { 8, 16, 32, 64, 128, 256 };
	size_t sizes[6];
	struct buffers b = { map(256u << 20), map(256u << 20), map(JUNK_BYTES) };
	double ratios[6], lowest;
	int ok = 1;

	for (unsigned i = 0; i < 6; i++) {
		sizes[i] = mib[i] << 20;
		run_case(i == 0 ? "large: single copies, caches evicted before each" : "large, continued",
			 measure_large, &b, &sizes[i], 1, 0, &ratios[i]);
	}
	for (unsigned i = 0; i < 6; i++) {
		char what[80];
		double goal = mib[i] == 64 || mib[i] == 128 ? 1.25 : 1.00;

		snprintf(what, sizeof(what), "large: %zu MiB >= %.2fx", mib[i], goal);
		ok &= verdict(what, ratios[i] >= goal);
	}
	(void)lowest;
	munmap(b.src, 256u << 20);
	munmap(b.dst, 256u << 20);
	munmap(b.junk, JUNK_BYTES);
	return ok;
}

static int bench_warm(void)
{
	static const size_t mib[] = { 4, 8, 16, 32 };
	size_t sizes[4];
	struct buffers b = { map(32u << 20), map(32u << 20), NULL };
	double lowest;

	for (unsigned i = 0; i < 4; i++)
		sizes[i] = mib[i] << 20;
	run_case("warm: the same copy again and again (per copy, blocks of 3 after one untimed)",
		 measure_warm, &b, sizes, 4, 0, &lowest);
	munmap(b.src, 32u << 20);
	munmap(b.dst, 32u << 20);
	return 1; /* informative: no target */
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(void);
	} cases[] = { { "sweep", bench_sweep }, { "l1", bench_l1 }, { "large", bench_large },
		      { "warm", bench_warm } };
	enum { N_CASES = sizeof(cases) / sizeof(cases[0]) };
	int want[N_CASES] = { 0 }, any = 0, ok = 1;

	for (int i = 1; i < argc; i++) {
		int found = 0;

		if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
			char *end;
			unsigned long r = strtoul(argv[++i], &end, 10);

			if (*end || r < 3 || r > MAX_ROUNDS) {
				fprintf(stderr, "copybench: -r %s: rounds must be 3..%d\n", argv[i], MAX_ROUNDS);
				return 2;
			}
			rounds = (unsigned)r;
			continue;
		}
		if (strcmp(argv[i], "-c") == 0 && i + 1 < argc) {
			const struct copyperf_routine *r = copyperf_routine_find(argv[++i]);

			if (r == NULL || !copyperf_routine_available(r)) {
				fprintf(stderr, "copybench: -c %s: no such routine on this CPU\n", argv[i]);
				return 2;
			}
			contenders[1].name = r->name;
			contenders[1].fn = r->fn;
			continue;
		}
		for (unsigned c = 0; c < N_CASES; c++)
			if (strcmp(argv[i], cases[c].name) == 0)
				want[c] = found = any = 1;
		if (!found) {
			fprintf(stderr, "copybench: %s: not a case (sweep, l1, large, warm) or option (-r N, -c ROUTINE)\n",
				argv[i]);
			return 2;
		}
	}
	printf("copyperf_memcpy: %s\n", copyperf_describe());
	for (unsigned c = 0; c < N_CASES; c++)
		if (any ? want[c] : c < 3) /* warm only when asked for */
			ok &= cases[c].run();
	return ok ? 0 : 1;
}
