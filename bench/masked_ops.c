/* SPDX-License-Identifier: MIT */
/*
 * What AVX-512 masked moves cost on this CPU, the copies of 0-32 bytes being
 * made of them: a masked 64-byte load and store against plain ones, with all,
 * some and no bytes selected, with the unselected bytes on a second line (it
 * is fetched all the same), and with the unselected bytes in an unmapped
 * page (the fault they do not raise may still cost), and what copyperf_memcpy
 * and copyperf_memmove make of the same edges and of copies of 0 bytes, at
 * readable pointers and at pointers that cannot be read. Each case is a loop of
 * dependent-free moves at one address; ns per move, median of 11 runs.
 * Usage: masked_ops (exit 2 on an argument; 1 without AVX-512BW)
 */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "copyperf.h"
#include "measure/engine/timing.h"
#include "stats/stats.h"

#define MOVES 200000
#define RUNS 11
#define T __attribute__((target("avx512f,avx512bw"), noinline))

enum op { PLAIN, MASKED, LIBRARY, LIBRARY_MOVE };

T static void moves(unsigned char *d, const unsigned char *s, __mmask64 m, enum op op)
{
	for (int i = 0; i < MOVES; i++) {
		__asm__ volatile("" : : "r"(d), "r"(s) : "memory");
		if (op == LIBRARY) /* 8 bytes, or none (mask none) */
			copyperf_memcpy(d, s, m ? 8 : 0);
		else if (op == LIBRARY_MOVE)
			copyperf_memmove(d, s, m ? 8 : 0);
		else if (op == PLAIN)
			_mm512_storeu_si512(d, _mm512_loadu_si512(s));
		else
			_mm512_mask_storeu_epi8(d, m, _mm512_maskz_loadu_epi8(m, s));
	}
}

static double ns_per_move(unsigned char *d, const unsigned char *s, __mmask64 m, enum op op)
{
	double t[RUNS];

	moves(d, s, m, op);
	for (int r = 0; r < RUNS; r++) {
		uint64_t t0 = now_ns();

		moves(d, s, m, op);
		t[r] = (double)(now_ns() - t0) / MOVES;
	}
	return median_of(t, RUNS);
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *map, *a, *b, *edge_src, *edge_dst;
	const __mmask64 all = ~0ull, low8 = 0xff, none = 0;

	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "masked_ops: takes no arguments\n");
		return 2;
	}
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("avx512bw")) {
		fprintf(stderr, "masked_ops: this CPU has no AVX-512BW\n");
		return 1;
	}
	/* [a: one page][b: one page][edge_src page][unmapped][edge_dst page][unmapped] */
	map = mmap(NULL, 6 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED || munmap(map + 3 * page, page) || munmap(map + 5 * page, page)) {
		fprintf(stderr, "masked_ops: cannot map its pages\n");
		return 1;
	}
	memset(map, 1, 3 * page);
	memset(map + 4 * page, 1, page);
	a = map + 64;
	b = map + page + 2048 + 64; /* not at a's page offset: no 4 KiB aliasing between them */
	edge_src = map + 3 * page - 8; /* 8 bytes mapped, the 56 after them not */
	edge_dst = map + 5 * page - 8;
	printf("ns per 64-byte move (load and store), median of %d runs of %d\n", RUNS, MOVES);
	printf("  plain vmovdqu64, aligned               %6.3f\n", ns_per_move(b, a, all, PLAIN));
	printf("  plain vmovdqu64, crossing a line       %6.3f\n", ns_per_move(b + 8, a + 8, all, PLAIN));
	printf("  masked, all 64 bytes                   %6.3f\n", ns_per_move(b, a, all, MASKED));
	printf("  masked, 8 bytes, aligned               %6.3f\n", ns_per_move(b, a, low8, MASKED));
	printf("  masked, 8 bytes, window crossing a line %5.3f\n", ns_per_move(b + 8, a + 8, low8, MASKED));
	printf("  masked, no byte                        %6.3f\n", ns_per_move(b, a, none, MASKED));
	printf("  masked, 8 bytes, the rest unmapped     %6.3f\n",
	       ns_per_move(edge_dst, edge_src, low8, MASKED));
	printf("  masked, no byte, all of it unmapped    %6.3f\n",
	       ns_per_move(edge_dst + 8, edge_src + 8, none, MASKED));
	printf("copyperf_memcpy (%s), ns per call\n", copyperf_describe());
	printf("  8 bytes, aligned                       %6.3f\n", ns_per_move(b, a, low8, LIBRARY));
	printf("  8 bytes, the next page unmapped        %6.3f\n",
	       ns_per_move(edge_dst, edge_src, low8, LIBRARY));
	printf("  0 bytes, aligned                       %6.3f\n", ns_per_move(b, a, none, LIBRARY));
	printf("  0 bytes from NULL                      %6.3f\n", ns_per_move(b, NULL, none, LIBRARY));
	printf("  0 bytes, both one past a mapping's end %6.3f\n",
	       ns_per_move(edge_dst + 8, edge_src + 8, none, LIBRARY));
	/* pointers no object has: a copy of 0 bytes touches neither */
	printf("  0 bytes, both inside unmapped pages    %6.3f\n",
	       ns_per_move(edge_dst + 72, edge_src + 72, none, LIBRARY));
	printf("  0 bytes, both at address 8             %6.3f\n",
	       ns_per_move((unsigned char *)8, (unsigned char *)8, none, LIBRARY));
	printf("copyperf_memmove, ns per call\n");
	printf("  8 bytes, aligned                       %6.3f\n", ns_per_move(b, a, low8, LIBRARY_MOVE));
	printf("  0 bytes, aligned                       %6.3f\n", ns_per_move(b, a, none, LIBRARY_MOVE));
	printf("  0 bytes from NULL                      %6.3f\n", ns_per_move(b, NULL, none, LIBRARY_MOVE));
	printf("  0 bytes, both one past a mapping's end %6.3f\n",
	       ns_per_move(edge_dst + 8, edge_src + 8, none, LIBRARY_MOVE));
	return 0;
}
