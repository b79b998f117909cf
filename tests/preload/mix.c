/* SPDX-License-Identifier: MIT */
/*
 * The program test-preload records with COPYPERF_RECORD: it makes a call mix
 * known to the last call, which check_mix.py expects to find in the files.
 *   mix known      the mix below, then a checksum of every buffer it wrote
 *   mix moves      memmove calls only (main_moves)
 *   mix none       no copy at all
 *   mix exit N     one copy, then exit(N)
 *   mix _exit      one copy, then _exit(0): nothing is written
 *   mix fork       copies, forks a child that copies and exits, copies again
 *   mix chdir DIR  one copy, then moves to DIR before it exits
 *   mix overflow F a _chk call of family F (memcpy, memmove) whose copy fits
 *                  its destination exactly, which must copy and return the
 *                  destination ("exact fit copied"), then one told its
 *                  destination is a byte shorter than the copy: the C
 *                  library's report and abort, and nothing printed after
 *   mix threads N  N threads one after the other, 3 copies of 13 bytes each;
 *                  prints how much its resident memory grew meanwhile, in KiB
 *   mix signals    2000000 copies of 24 bytes, interrupted every 50 us by a
 *                  signal whose handler copies 40; prints the handler's count
 *   mix late N     as threads N, each also with a thread-exit destructor that
 *                  copies 7 bytes and re-arms itself (as jemalloc's does);
 *                  prints the memory growth and the destructor's copies
 *   mix rawfork    as fork, the child made by _Fork(3), which runs no handler
 *   mix fsize N    a file size limit of 0 bytes, one copy, then exit(N)
 *   mix dlclose SO loads SO (the shim) with dlopen, copies with its memcpy in
 *                  a thread, unloads it, then lets the thread exit
 * Every buffer is 4096-byte aligned, so an offset in it is its alignment.
 * Unless said otherwise a mode copies with memcpy only.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#define WORKERS 4
#define REGION (64u << 10)
#define LARGE_SIZES 600 /* distinct sizes above 4096 in worker 0: more than the 512 kept exactly */

typedef void *(*copy_fn)(void *, const void *, size_t);
typedef void *(*chk_fn)(void *, const void *, size_t, size_t);

void *__memcpy_chk(void *, const void *, size_t, size_t);
void *__memmove_chk(void *, const void *, size_t, size_t);
void *__mempcpy_chk(void *, const void *, size_t, size_t);

/* Calls through these, so the compiler can neither expand nor drop a copy. */
static copy_fn volatile cpy = memcpy, mov = memmove, pcpy = mempcpy;
static chk_fn volatile cpy_chk = __memcpy_chk, mov_chk = __memmove_chk, pcpy_chk = __mempcpy_chk;

static unsigned char src[WORKERS + 1][REGION] __attribute__((aligned(4096)));
static unsigned char dst[WORKERS + 1][REGION] __attribute__((aligned(4096)));
static unsigned char spare[REGION] __attribute__((aligned(4096)));
static sem_t lingering_done;
/*
 * Every thread of the known mix waits here after its copies: none exits
 * before all have their own counters (a thread started after another has
 * exited takes over its counters, and with them the sizes counted exactly).
 */
static pthread_barrier_t all_counted;

static uint64_t checksum(const unsigned char *p, size_t n)
{
	uint64_t h = 1469598103934665603u; /* FNV-1a */

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211u;
	return h;
}

/*
 * Each worker: 250 copies of 7 bytes at alignment 1 and 750 of 100 bytes at
 * 64.  Worker 0 adds LARGE_SIZES distinct sizes 5000 + 37 i, once each;
 * worker 1 five of 4096 and five of 4097; worker 2 three of 5000 (worker 0's
 * first); worker 3 ten of 27648, the middle of the bucket worker 0's last
 * sizes fall in.
 */
static void *worker(void *arg)
{
	unsigned w = (unsigned)(uintptr_t)arg;
	unsigned char *s = src[w], *d = dst[w];

	for (unsigned i = 0; i < 250; i++)
		cpy(d + 1, s + 3 + i % 2 * 2, 7);
	for (unsigned i = 0; i < 750; i++)
		cpy(d + 64, s + 128 + i % 3 * 64, 100);
	for (unsigned i = 0; w == 0 && i < LARGE_SIZES; i++)
		cpy(d, s, 5000 + 37 * (size_t)i);
	for (unsigned i = 0; w == 1 && i < 5; i++) {
		cpy(d, s, 4096);
		cpy(d, s, 4097);
	}
	for (unsigned i = 0; w == 2 && i < 3; i++)
		cpy(d, s, 5000);
	for (unsigned i = 0; w == 3 && i < 10; i++)
		cpy(d, s, 27648);
	pthread_barrier_wait(&all_counted);
	return NULL;
}

/* 100 copies of 11 bytes at alignment 2, then never returns: still running at exit. */
static void *lingering(void *arg)
{
	(void)arg;
	for (unsigned i = 0; i < 100; i++)
		cpy(dst[WORKERS] + 2, src[WORKERS] + 6, 11);
	pthread_barrier_wait(&all_counted);
	sem_post(&lingering_done);
	for (;;)
		pause();
	return NULL;
}

/* Where 128 bytes of spare are all alike: a copy among them gives the same in any order. */
#define SAME 28672u

/*
 * The main thread's calls: memmove's overlaps and edges, mempcpy, the _chk
 * entries, and memcpy-family calls whose ranges overlap, which the recorder
 * counts with memmove's (made where every byte is the same, so that the C
 * library's memcpy, for which they are undefined, gives what the shim's does).
 */
static void main_calls(void)
{
	unsigned char *c = spare;

	for (unsigned i = 0; i < 10; i++)
		mov(c + 8, c, 32);               /* overlapping */
	for (unsigned i = 0; i < 5; i++)
		mov(c + 1024 + 16, c + 1024, 16); /* touching, not overlapping */
	for (unsigned i = 0; i < 3; i++)
		mov(c + 2050, c + 2050, 8);       /* the same range: overlapping */
	for (unsigned i = 0; i < 2; i++)
		cpy(c + 4, c + 32, 0);            /* nothing copied: no overlap */
	for (unsigned i = 0; i < 4; i++)
		pcpy(c + 4096 + 16, c + 4096 + 32 + 4096, 48);
	for (unsigned i = 0; i < 6; i++)
		cpy_chk(c + 12288 + 64, c + 12288 + 128 + 4096, 7, 100);
	for (unsigned i = 0; i < 2; i++)
		mov_chk(c + 20480 + 256, c + 20480 + 260, 20, 100); /* overlapping */
	pcpy_chk(c + 24576 + 520, c + 24576 + 1024 + 4096, 100, 200);
	for (unsigned i = 0; i < 3; i++)
		cpy(c + SAME + 16, c + SAME + 16, 24); /* a struct onto itself */
	for (unsigned i = 0; i < 2; i++)
		pcpy(c + SAME + 8, c + SAME, 32);     /* overlapping, destination above */
	cpy_chk(c + SAME + 64, c + SAME + 72, 16, 100); /* overlapping, destination below */
}

/*
 * memmove only: overlapping with the destination above the source and below
 * it, apart, and past the sizes counted one by one.
 */
static int main_moves(void)
{
	unsigned char *c = spare;

	for (unsigned i = 0; i < REGION; i++)
		spare[i] = (unsigned char)(i * 29 + (i >> 8));
	for (unsigned i = 0; i < 6; i++)
		mov(c + 8, c, 24);
	for (unsigned i = 0; i < 5; i++)
		mov(c + 512, c + 520, 24);
	for (unsigned i = 0; i < 4; i++)
		mov(c + 1024, c + 2048, 24);
	for (unsigned i = 0; i < 3; i++)
		mov_chk(c + 8192, c + 8192 + 64, 5000, 6000);
	printf("spare %016llx\n", (unsigned long long)checksum(spare, REGION));
	return 0;
}

static int known(void)
{
	pthread_t t[WORKERS], linger;

	for (unsigned w = 0; w <= WORKERS; w++)
		for (unsigned i = 0; i < REGION; i++)
			src[w][i] = (unsigned char)(i * 131 + w * 7 + (i >> 9));
	for (unsigned i = 0; i < REGION; i++)
		spare[i] = (unsigned char)(i * 17 + (i >> 7));
	for (unsigned i = SAME; i < SAME + 128; i++)
		spare[i] = 0x5a;
	sem_init(&lingering_done, 0, 0);
	pthread_barrier_init(&all_counted, NULL, WORKERS + 1);
	for (unsigned w = 0; w <= WORKERS; w++) {
		int err = w < WORKERS ? pthread_create(&t[w], NULL, worker, (void *)(uintptr_t)w) :
					pthread_create(&linger, NULL, lingering, NULL);

		if (err != 0) {
			fprintf(stderr, "mix: cannot start thread %u: %s\n", w, strerror(err));
			return 1;
		}
	}
	for (unsigned w = 0; w < WORKERS; w++)
		pthread_join(t[w], NULL);
	while (sem_wait(&lingering_done) != 0)
		;
	main_calls();
	for (unsigned w = 0; w <= WORKERS; w++)
		printf("dst[%u] %016llx\n", w, (unsigned long long)checksum(dst[w], REGION));
	printf("spare %016llx\n", (unsigned long long)checksum(spare, REGION));
	return 0;
}

/* 3 copies of 5 bytes; a child that makes 2 of 9 and exits; 1 more of 5 in the parent. */
static int forks(bool raw)
{
	int status;
	pid_t child;

	for (unsigned i = 0; i < 3; i++)
		cpy(dst[0], src[0], 5);
	fflush(stdout);
	child = raw ? _Fork() : fork(); /* _Fork runs no fork handler */
	if (child < 0)
		return 1;
	if (child == 0) {
		cpy(dst[1], src[1], 9);
		cpy(dst[1], src[1], 9);
		exit(0);
	}
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status))
		return 1;
	cpy(dst[0], src[0], 5);
	printf("%ld\n", (long)child);
	return 0;
}

/* VmRSS from /proc/self/status, in KiB; 0 if unreadable. */
static long resident_kib(void)
{
	char line[256];
	long kib = 0;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld", &kib) == 1)
			break;
	if (f)
		fclose(f);
	return kib;
}

static void *short_lived(void *arg)
{
	for (unsigned i = 0; i < 3; i++)
		cpy(dst[1] + 1, src[1] + 1, 13);
	return arg;
}

/*
 * n threads of start one after the other: how much resident memory grew from
 * the end of the first to the end of the last, in KiB; -1 if one failed.
 */
static long one_after_another(unsigned n, void *(*start)(void *))
{
	long before;
	pthread_t t;

	/* One first, so its stack and the C library's thread set-up are counted in before. */
	if (pthread_create(&t, NULL, start, NULL) != 0 || pthread_join(t, NULL) != 0)
		return -1;
	before = resident_kib();
	for (unsigned i = 1; i < n; i++)
		if (pthread_create(&t, NULL, start, NULL) != 0 || pthread_join(t, NULL) != 0)
			return -1;
	return resident_kib() - before;
}

/* Threads that each copy a little and exit: the recorder must not keep memory for each. */
static int threads(unsigned n)
{
	long grew = one_after_another(n, short_lived);

	if (grew < 0)
		return 1;
	printf("%ld\n", grew);
	return 0;
}

static pthread_key_t rearmed;
static unsigned long late_copies;

/* Copies and asks to run again, as long as the C library calls destructors. */
static void late_destructor(void *arg)
{
	cpy(spare + 256, spare + 512, 7);
	__atomic_fetch_add(&late_copies, 1, __ATOMIC_RELAXED);
	pthread_setspecific(rearmed, arg);
}

static void *short_lived_rearmed(void *arg)
{
	short_lived(arg);
	pthread_setspecific(rearmed, spare);
	return arg;
}

/* Threads whose exit copies after the recorder's own exit handler has run. */
static int late(unsigned n)
{
	long grew;

	if (pthread_key_create(&rearmed, late_destructor) != 0 ||
	    (grew = one_after_another(n, short_lived_rearmed)) < 0)
		return 1;
	printf("%ld %lu\n", grew, late_copies);
	return 0;
}

static void *copy_with(void *fn)
{
	copy_fn f = (copy_fn)fn;

	f(dst[2], src[2], 4);
	usleep(100000); /* the shim is unloaded meanwhile */
	return NULL;
}

/* The shim loaded and unloaded by the program itself, a thread of it still to exit. */
static int unloaded(const char *so)
{
	void *lib = dlopen(so, RTLD_NOW | RTLD_LOCAL);
	void *fn;
	pthread_t t;

	if (lib == NULL || (fn = dlsym(lib, "memcpy")) == NULL)
		return 1;
	if (pthread_create(&t, NULL, copy_with, fn) != 0)
		return 1;
	usleep(20000);
	dlclose(lib);
	if (pthread_join(t, NULL) != 0)
		return 1;
	printf("survived\n");
	return 0;
}

static volatile sig_atomic_t handled;

static void copy_in_handler(int sig)
{
	(void)sig;
	cpy(spare + 64, spare + 128, 40);
	handled++;
}

/* Copies from a signal handler, between and inside the main loop's: never deadlocks or recurses. */
static int signals(void)
{
	/*
	 * Set field by field: clang copies a struct initialized from constants
	 * with a call to memcpy, which the recorder would count among the mix's.
	 */
	static struct sigaction sa;
	struct itimerval every = { { 0, 50 }, { 0, 50 } }, stop = { { 0, 0 }, { 0, 0 } };

	sa.sa_handler = copy_in_handler;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	if (sigaction(SIGALRM, &sa, NULL) != 0 || setitimer(ITIMER_REAL, &every, NULL) != 0)
		return 1;
	for (unsigned i = 0; i < 2000000; i++)
		cpy(dst[0] + 8, src[0] + 8, 24);
	setitimer(ITIMER_REAL, &stop, NULL);
	printf("%ld\n", (long)handled);
	return 0;
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "known";

	if (strcmp(what, "known") == 0)
		return known();
	if (strcmp(what, "none") == 0)
		return 0;
	if (strcmp(what, "moves") == 0)
		return main_moves();
	if (strcmp(what, "fork") == 0 || strcmp(what, "rawfork") == 0)
		return forks(what[0] == 'r');
	if (strcmp(what, "signals") == 0)
		return signals();
	if (strcmp(what, "threads") == 0 && argc > 2)
		return threads((unsigned)atoi(argv[2]));
	if (strcmp(what, "late") == 0 && argc > 2)
		return late((unsigned)atoi(argv[2]));
	if (strcmp(what, "dlclose") == 0 && argc > 2)
		return unloaded(argv[2]);
	if (strcmp(what, "overflow") == 0 && argc > 2) {
		chk_fn chk = strcmp(argv[2], "memmove") == 0 ? mov_chk : cpy_chk;

		memset(dst[0], 0, 64);
		if (chk(dst[0], src[0], 64, 64) != dst[0] || memcmp(dst[0], src[0], 64) != 0)
			return 1;
		printf("exact fit copied\n");
		fflush(stdout);
		chk(dst[0], src[0], 65, 64);
		printf("copied past the destination\n");
		return 0;
	}
	if (strcmp(what, "fsize") == 0 && argc > 2) {
		struct rlimit none = { 0, 0 };

		if (setrlimit(RLIMIT_FSIZE, &none) != 0)
			return 1;
	}
	cpy(dst[0], src[0], 5);
	if ((strcmp(what, "exit") == 0 || strcmp(what, "fsize") == 0) && argc > 2)
		exit(atoi(argv[2]));
	if (strcmp(what, "_exit") == 0)
		_exit(0);
	if (strcmp(what, "chdir") == 0 && argc > 2)
		return chdir(argv[2]) == 0 ? 0 : 1;
	fprintf(stderr, "usage: mix [known | moves | none | exit N | _exit | fork | rawfork | "
			"chdir DIR | threads N | late N | signals | fsize N | dlclose SO]\n");
	return 2;
}
