/* SPDX-License-Identifier: MIT */
/*
 * COPYPERF_RECORD=FILE (record.h): the preload shim's calls counted, and
 * written at exit as two call mixes (record_file.c): FILE.memcpy holds the
 * memcpy family's calls, FILE.memmove the memmove family's, each file written
 * only when its family made a call.
 *
 * A memcpy-family call whose ranges overlap is counted with memmove's: it is
 * undefined for memcpy, so a memcpy mix (replayed between two buffers, for
 * routines that need not allow overlap) cannot hold it, and only a routine
 * with memmove's contract can replay it.  Compilers make such calls when
 * they copy a struct onto itself, and programs linked before glibc 2.14 call
 * memcpy where they mean memmove.  So FILE.memcpy never overlaps.
 *
 * Counting takes no lock and makes no system call after a thread's first
 * copy: each thread counts into a block of its own, mmap'd on that first copy
 * (never malloc, which may copy and so come back here) and pushed onto a
 * global list with one compare-and-swap, so the writer finds every thread's,
 * those still running and those that have exited: blocks are never freed,
 * but a new thread takes over an exited thread's block (block_adopt).
 * The block pointer is initial-exec TLS: the shim is preloaded, so it lives
 * in the static TLS block and reading it is one load off the thread pointer,
 * with no __tls_get_addr and no allocation.  Most calls are counted by the
 * hook inlined in the shim (record.h); this file counts the rest.
 *
 * Sizes 0..4096 are counted each in its own counter.  Each block keeps, for
 * each family, the first LARGE_EXACT distinct sizes above 4096 it sees in a
 * small hash table, exactly; a size it meets after that is counted in its
 * eighth of an octave ([m << s, (m + 1) << s) for m = 8..15) and written as
 * that bucket's middle, (m << s) + (1 << (s - 1)): at most 1 << (s - 1) from
 * the true size, that is at most 1/16 (6.25%) of it.  Only a program with more
 * than 512 distinct sizes above 4096 in one family of one block (one
 * thread's, or those of threads that took it over one after the other) sees
 * that error, and only on those sizes.
 *
 * Not counted: calls before this library's constructor (the dynamic loader's
 * and other constructors' that run first), calls after the files are written
 * (later destructors), and calls in a process that never reaches exit(3) or a
 * return from main: _exit(2), exec (which replaces the process: its counts
 * are lost, and the new program, given the same environment, records for
 * itself), death by a signal.  A signal handler's copies count as its
 * thread's; where an increment is a load and a store (not on x86-64), one
 * that interrupts a count of the same counter may lose one.
 *
 * Processes: the process that read COPYPERF_RECORD writes FILE's files, and
 * a %p in FILE stands for its pid.  A child of fork(2) starts from no counts
 * (its parent's are its parent's) and writes its files only when FILE has a
 * %p: without one they would overwrite its parent's, and most forked children are
 * a shell's subshells or about to exec (a python3 started through a pyenv
 * shim, itself a shell script, forks some twenty of them).  A program that
 * execs another gives it the environment: the new program records for
 * itself, and the last process to exit has FILE's; FILE=mix.%p keeps them all,
 * a server's workers too.  A vfork(2) child shares its parent's memory until
 * it execs, so the few copies it makes count as the parent's.  A child made
 * without fork(3) (_Fork, the raw system call) runs no fork handler and holds
 * its parent's counts with its own: it writes nothing, and says so.  Threads
 * that call exit(3) at once (undefined in C; glibc 2.36 lets one end the
 * process while another writes) may leave a file unwritten, its .tmp.<pid>
 * behind.  A file size limit (RLIMIT_FSIZE) makes the write fail, not the
 * program die of SIGXFSZ.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "record.h"
#include "record_file.h"

#define LARGE_EXACT 512  /* distinct sizes above RECORD_SMALL_MAX a block counts exactly */
#define LARGE_SLOTS 1024 /* their open-addressing table: never more than half full */
#define BUCKET_MIN_BITS 13 /* the bit length of the first size above 4096 */
#define BUCKETS ((64 - BUCKET_MIN_BITS + 1) * 8)

/* One family's rarer counts. */
struct rare {
	uint64_t overlap;
	size_t large_used;
	struct record_size large[LARGE_SLOTS]; /* size 0: a free slot */
	uint64_t bucket[BUCKETS];
};

/* A thread's counts: the hook's first (record.h), a set per family, then the rarer ones. */
struct block {
	struct record_counts c[RECORD_FAMILIES];
	struct block *next; /* the global list; never unlinked */
	int retired;        /* its thread has exited: a new thread may count on in it */
	struct rare rare[RECORD_FAMILIES];
};

_Static_assert(offsetof(struct block, c) == 0, "copyperf_record_self points at its block");

int copyperf_record_on;
__thread struct record_counts *copyperf_record_self __attribute__((tls_model("initial-exec")));

static struct block *blocks; /* every thread's, newest first */
static unsigned long lost; /* calls not counted: their thread's block could not be mapped */

static pthread_key_t exits;   /* its destructor retires a thread's block */
static bool exits_ok;
/*
 * This thread's block was retired by its exit: copies made by destructors
 * that run after ours (jemalloc's re-arm themselves) take a block for one
 * call at a time, or each pass would take one that no destructor retires.
 */
static __thread bool exited __attribute__((tls_model("initial-exec")));

static pid_t recorder;        /* the process that read COPYPERF_RECORD */
static pid_t counter;         /* the process whose counts the blocks hold */
static char shown[PATH_MAX];  /* FILE as given, for messages */
static char path[PATH_MAX];   /* FILE from the directory we started in */
static int path_err;          /* why path could not be made, or 0 */

/*
 * A block whose thread has exited, taken over whole (the counts add up,
 * whoever made them): a program that starts a thread per task then holds
 * as many blocks as it ever had threads at once, not one per thread ever.
 */
static struct block *block_adopt(void)
{
	for (struct block *b = __atomic_load_n(&blocks, __ATOMIC_ACQUIRE); b; b = b->next) {
		int one = 1;

		if (__atomic_load_n(&b->retired, __ATOMIC_RELAXED) &&
		    __atomic_compare_exchange_n(&b->retired, &one, 0, false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return b;
	}
	return NULL;
}

/*
 * The thread's first call: a retired block, else a new one on the list; the
 * thread's own from then on if keep, else for this call only.
 */
__attribute__((noinline, cold)) static struct block *block_new(bool keep)
{
	int saved = errno; /* the program may be reading errno around its copies */
	struct block *b = block_adopt();

	if (b == NULL) {
		b = mmap(NULL, sizeof(*b), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			 0);
		if (b == MAP_FAILED) {
			errno = saved;
			__atomic_fetch_add(&lost, 1, __ATOMIC_RELAXED);
			return NULL;
		}
		b->next = __atomic_load_n(&blocks, __ATOMIC_RELAXED);
		while (!__atomic_compare_exchange_n(&blocks, &b->next, b, true, __ATOMIC_RELEASE,
						    __ATOMIC_RELAXED))
			;
	}
	if (keep) {
		/* Set first: a copy made inside pthread_setspecific is counted, not sent back here. */
		copyperf_record_self = b->c;
		if (exits_ok)
			pthread_setspecific(exits, b);
	}
	errno = saved;
	return b;
}

/* At a thread's exit (not the main thread's: it ends in exit, which writes the file). */
static void thread_exits(void *block)
{
	struct block *b = block;

	copyperf_record_self = NULL; /* a later call of this thread takes a block for itself */
	exited = true;
	__atomic_store_n(&b->retired, 1, __ATOMIC_RELEASE);
}

static unsigned bucket_of(uint64_t n)
{
	unsigned bits = 64 - (unsigned)__builtin_clzll(n);

	return (bits - BUCKET_MIN_BITS) * 8 + (unsigned)(n >> (bits - 4)) - 8;
}

static uint64_t bucket_size(unsigned i)
{
	unsigned shift = i / 8 + BUCKET_MIN_BITS - 4;

	return ((uint64_t)(i % 8 + 8) << shift) + ((uint64_t)1 << (shift - 1));
}

/* Out of line, as block_new: copyperf_record then saves fewer registers. */
__attribute__((noinline)) static void count_large(struct rare *b, uint64_t n)
{
	unsigned i = ((uint32_t)n * 2654435769u) >> 22; /* Fibonacci hashing onto 1024 slots */

	for (; b->large[i].size; i = (i + 1) % LARGE_SLOTS) {
		if (b->large[i].size == n) {
			b->large[i].count++;
			return;
		}
	}
	if (b->large_used < LARGE_EXACT) {
		b->large_used++;
		b->large[i].count = 1;
		b->large[i].size = n;
	} else {
		b->bucket[bucket_of(n)]++;
	}
}

void copyperf_record(const void *dst, const void *src, size_t n, enum record_family f)
{
	/* c is the first member of its block: the block is where c is. */
	struct block *b = (struct block *)copyperf_record_self;
	uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
	bool late = b == NULL && exited;
	bool overlap = n && d < s + n && s < d + n;

	if (b == NULL && (b = block_new(!late)) == NULL)
		return;
	if (overlap)
		f = RECORD_MEMMOVE; /* undefined for memcpy: only memmove's contract replays it */
	if (n <= RECORD_SMALL_MAX)
		b->c[f].small[n]++;
	else
		count_large(&b->rare[f], n);
	b->rare[f].overlap += overlap;
	b->c[f].align[copyperf_record_align(dst)][copyperf_record_align(src)]++;
	if (late)
		__atomic_store_n(&b->retired, 1, __ATOMIC_RELEASE);
}

/* The forked child's counts start from none: its parent's are in its parent's file. */
static void forked_child(void)
{
	counter = getpid();
	blocks = NULL;
	copyperf_record_self = NULL;
}

/* FILE relative to where the program started: it may change directory before it exits. */
static void set_path(const char *file)
{
	size_t len = 0;

	for (const char *p = file; *p && len < sizeof(shown) - 1; p++)
		shown[len++] = *p;
	shown[len] = '\0';
	len = 0;
	if (file[0] != '/' && getcwd(path, sizeof(path) - 1) != NULL) {
		while (path[len])
			len++;
		if (len > 0 && path[len - 1] != '/')
			path[len++] = '/';
	}
	for (; *file; file++) {
		if (len == sizeof(path) - 1) {
			path_err = ENAMETOOLONG;
			break;
		}
		path[len++] = *file;
	}
	path[len] = '\0';
}

void copyperf_record_setup(void)
{
	/* Not for set-user-ID programs: the file would be written with their rights. */
	const char *file = secure_getenv("COPYPERF_RECORD");

	if (file == NULL || *file == '\0')
		return;
	set_path(file);
	recorder = counter = getpid();
	pthread_atfork(NULL, NULL, forked_child);
	exits_ok = pthread_key_create(&exits, thread_exits) == 0;
	__atomic_store_n(&copyperf_record_on, 1, __ATOMIC_RELEASE);
}

static void swap_sizes(struct record_size *x, struct record_size *y)
{
	struct record_size t = *x;

	*x = *y;
	*y = t;
}

/* Heapsort by size: no allocation, and a bound on the time whatever the sizes. */
static void sift_down(struct record_size *a, size_t root, size_t n)
{
	for (size_t child; (child = 2 * root + 1) < n; root = child) {
		if (child + 1 < n && a[child + 1].size > a[child].size)
			child++;
		if (a[root].size >= a[child].size)
			return;
		swap_sizes(&a[root], &a[child]);
	}
}

static void sort_sizes(struct record_size *a, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift_down(a, i, n);
	for (size_t end = n; end-- > 1;) {
		swap_sizes(&a[0], &a[end]);
		sift_down(a, 0, end);
	}
}

/*
 * Every block's large sizes of family f, exact and bucketed, in one mmap'd
 * array, sorted and each size once.  NULL with *n 0 when there are none, or
 * no memory (then *n is the entries left out).
 */
static struct record_size *merge_large(struct block *first, enum record_family f, size_t *n)
{
	struct record_size *all;
	size_t cap = 0, len = 0, out = 0;

	for (struct block *b = first; b; b = b->next)
		cap += b->rare[f].large_used + BUCKETS;
	*n = 0;
	if (cap == 0)
		return NULL;
	all = mmap(NULL, cap * sizeof(*all), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	if (all == MAP_FAILED) {
		*n = cap;
		return NULL;
	}
	for (struct block *b = first; b; b = b->next) {
		const struct rare *r = &b->rare[f];

		for (size_t i = 0; i < LARGE_SLOTS && len < cap; i++) {
			if (r->large[i].size && r->large[i].count) {
				all[len].size = r->large[i].size;
				all[len++].count = r->large[i].count;
			}
		}
		for (unsigned i = 0; i < BUCKETS && len < cap; i++) {
			if (r->bucket[i]) {
				all[len].size = bucket_size(i);
				all[len++].count = r->bucket[i];
			}
		}
	}
	sort_sizes(all, len);
	for (size_t i = 0; i < len; i++) {
		if (out > 0 && all[out - 1].size == all[i].size)
			all[out - 1].count += all[i].count;
		else
			all[out++] = all[i];
	}
	*n = out;
	return all;
}

/* Whether name has a %p, which each process replaces with its own id. */
static bool per_process(const char *name)
{
	for (; *name; name++)
		if (name[0] == '%' && name[1] == 'p')
			return true;
	return false;
}

/* Every block's counts of family f in one mix; false if there was no memory to merge them. */
static bool merge(struct record_mix *mix, enum record_family f, uint64_t *small)
{
	struct block *first = __atomic_load_n(&blocks, __ATOMIC_ACQUIRE);
	struct record_size *large = merge_large(first, f, &mix->n_large);

	if (large == NULL && mix->n_large)
		return false;
	mix->large = large;
	mix->small = small;
	for (struct block *b = first; b; b = b->next) {
		const struct record_counts *c = &b->c[f];

		for (unsigned i = 0; i <= RECORD_SMALL_MAX; i++)
			small[i] += c->small[i];
		mix->overlap += b->rare[f].overlap;
		for (unsigned i = 0; i < RECORD_ALIGNS; i++) {
			for (unsigned j = 0; j < RECORD_ALIGNS; j++) {
				mix->align[i] += c->align[i][j];
				mix->align[j] += c->align[i][j];
			}
		}
	}
	for (unsigned i = 0; i <= RECORD_SMALL_MAX; i++)
		mix->calls += small[i];
	for (size_t i = 0; i < mix->n_large; i++)
		mix->calls += large[i].count;
	return true;
}

/* The file names' suffixes, by family: FILE.memcpy, FILE.memmove. */
static const char *const suffix[RECORD_FAMILIES] = { ".memcpy", ".memmove" };

/*
 * Each family's merged mix to FILE and its suffix, when it made a call, or
 * why not.
 */
static void write_mixes(bool forked)
{
	static uint64_t small[RECORD_FAMILIES][RECORD_SMALL_MAX + 1];
	static char file[PATH_MAX], as[PATH_MAX];
	struct record_mix mix[RECORD_FAMILIES] = { { 0 } };
	bool merged[RECORD_FAMILIES];

	if (lost)
		record_say("some threads' calls not counted: no memory for their counters", (char *)NULL);
	for (unsigned f = 0; f < RECORD_FAMILIES; f++)
		merged[f] = merge(&mix[f], f, small[f]);
	if (path_err) { /* FILE itself could not be made: said once, of FILE as given */
		record_name(as, sizeof(as), shown, "");
		record_cannot_write(as, path_err);
		return;
	}
	for (unsigned f = 0; f < RECORD_FAMILIES; f++) {
		if (merged[f] && !mix[f].calls)
			continue;
		if (!record_name(as, sizeof(as), shown, suffix[f]) ||
		    !record_name(file, sizeof(file), path, suffix[f]))
			record_cannot_write(as, ENAMETOOLONG);
		else if (!merged[f])
			record_cannot_write(as, ENOMEM);
		else
			record_file_write(&mix[f], file, as);
	}
	/* A forked child that copied nothing has nothing to say. */
	if (merged[RECORD_MEMCPY] && merged[RECORD_MEMMOVE] && !mix[RECORD_MEMCPY].calls &&
	    !mix[RECORD_MEMMOVE].calls && !forked) {
		record_name(as, sizeof(as), shown, "");
		record_say("no memcpy, memmove or mempcpy call recorded; '", as, "' not written",
			   (char *)NULL);
	}
}

__attribute__((destructor)) static void record_finish(void)
{
	pid_t self = getpid();
	bool forked = self != recorder;
	struct sigaction ignore = { .sa_handler = SIG_IGN }, was;
	bool restore;

	/* Once, and the copies made from here on are not counted. */
	if (!__atomic_exchange_n(&copyperf_record_on, 0, __ATOMIC_ACQ_REL))
		return;
	if (forked && !per_process(path))
		return;
	if (self != counter) {
		record_say("a child made without fork(3) holds its parent's counts; not written",
			   (char *)NULL);
		return;
	}
	/* Past a file size limit a write fails with EFBIG, and the program keeps its exit status. */
	sigemptyset(&ignore.sa_mask);
	restore = sigaction(SIGXFSZ, &ignore, &was) == 0;
	write_mixes(forked);
	if (restore)
		sigaction(SIGXFSZ, &was, NULL);
}
