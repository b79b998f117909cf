/* SPDX-License-Identifier: MIT */
/*
 * Inside the debug-kernel guest, with the module loaded: hostile callers of
 * /dev/copyperf.  The host judges the kernel log (KASAN, UBSAN, lockdep,
 * kmemleak); this program judges the answers.
 *
 *   ioctl_storm storm COUNT [SEED]  two processes at once, COUNT random
 *       requests each: random fields, sizes and buffers (unmapped, read-only,
 *       misaligned, shared, file-backed on tmpfs, huge pages, a request that
 *       cannot be read or written back).  A request the ABI forbids must give
 *       EINVAL; any other answer must be a known error or a verified copy.
 *   ioctl_storm failnth             each allocation a measurement makes fails
 *       in turn (/proc/thread-self/fail-nth): ENOMEM or a verified copy, then
 *       the module still works.
 *   ioctl_storm churn SECONDS MODULE.ko   one process opens, asks the version
 *       and closes, again and again, while another unloads the module whenever
 *       nobody holds it and loads it again: an open may only find no module, an
 *       unload only be refused as busy, a reload must work.
 *   ioctl_storm race SECONDS        the caller's own threads change its buffers
 *       during a walk: a source byte of copy_from_user once, which must not
 *       give OK; a destination byte of copy_to_user and the canary after it
 *       for SECONDS, where every answer must be OK or a failure naming a byte
 *       the thread changed, and the kernel log stay clean.
 *
 * Prints what failed and "N passed, N failed"; exits 1 on a failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "uapi/copyperf_ioctl.h"
#include "measure/engine/pattern.h"
#include "routine_by_name.h"

/* Each kind of user buffer a request may name spans this much, huge pages included. */
#define REGION (4u << 20)
#define HUGE_PAGE (2u << 20)

static int passed, failed;
static long page;
static struct copyperf_version version;
static uint32_t *routine_direction, *routine_flags;

static void result(int ok, const char *name, const char *detail)
{
	if (ok) {
		passed++;
		return;
	}
	/* A broken module fails most of a storm: its first failures say enough. */
	if (++failed <= 20) {
		printf("FAIL %s: %s\n", name, detail);
		fflush(stdout);
	}
}

static int open_device(void)
{
	int fd = open(COPYPERF_DEVICE, O_RDWR);

	if (fd < 0) {
		perror("ioctl_storm: " COPYPERF_DEVICE);
		exit(1);
	}
	return fd;
}

static void learn_routines(int fd)
{
	if (ioctl(fd, COPYPERF_IOC_VERSION, &version)) {
		perror("ioctl_storm: version");
		exit(1);
	}
	routine_direction = calloc(version.n_routines, sizeof(*routine_direction));
	routine_flags = calloc(version.n_routines, sizeof(*routine_flags));
	if (!routine_direction || !routine_flags) {
		fprintf(stderr, "ioctl_storm: out of memory\n");
		exit(1);
	}
	for (uint32_t i = 0; i < version.n_routines; i++) {
		struct copyperf_routine_info info = { .index = i };

		if (ioctl(fd, COPYPERF_IOC_ROUTINE, &info)) {
			perror("ioctl_storm: routine");
			exit(1);
		}
		routine_direction[i] = info.direction;
		routine_flags[i] = info.flags;
	}
}

static uint32_t find_routine(int fd, const char *name)
{
	return routine_by_name(fd, version.n_routines, name, "ioctl_storm");
}

/* A region of `len` bytes, or NULL when this kernel cannot give it (no huge pages). */
static void *region(int prot, int flags, int file)
{
	void *p = mmap(NULL, REGION, prot, flags | (file < 0 ? MAP_ANONYMOUS : 0), file, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (prot & PROT_WRITE)
		memset(p, 0x5a, REGION);
	return p;
}

/* The user buffers a random request picks from; NULL entries are left out. */
enum { ANON, READ_ONLY, SHARED, TMPFS_SHARED, TMPFS_PRIVATE, HUGE, HOLED, UNMAPPED, N_KINDS };
static const char *const kind_names[N_KINDS] = {
	"anonymous", "read-only", "shared", "tmpfs shared", "tmpfs private", "huge pages",
	"holed", "unmapped",
};
static unsigned char *kinds[N_KINDS];

static void map_buffers(void)
{
	char path[] = "/tmp/ioctl_storm.XXXXXX";
	int file = mkstemp(path);

	if (file < 0 || ftruncate(file, REGION)) {
		perror("ioctl_storm: a tmpfs file");
		exit(1);
	}
	unlink(path);
	kinds[ANON] = region(PROT_READ | PROT_WRITE, MAP_PRIVATE, -1);
	kinds[READ_ONLY] = region(PROT_READ, MAP_PRIVATE, -1);
	kinds[SHARED] = region(PROT_READ | PROT_WRITE, MAP_SHARED, -1);
	kinds[TMPFS_SHARED] = region(PROT_READ | PROT_WRITE, MAP_SHARED, file);
	kinds[TMPFS_PRIVATE] = region(PROT_READ | PROT_WRITE, MAP_PRIVATE, file);
	kinds[HUGE] = region(PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_HUGETLB, -1);
	kinds[HOLED] = region(PROT_READ | PROT_WRITE, MAP_PRIVATE, -1);
	kinds[UNMAPPED] = region(PROT_READ | PROT_WRITE, MAP_PRIVATE, -1);
	for (int k = 0; k < N_KINDS; k++)
		if (!kinds[k]) {
			fprintf(stderr, "ioctl_storm: cannot map the %s buffer: %s\n", kind_names[k],
				strerror(errno));
			exit(1);
		}
	munmap(kinds[HOLED] + REGION / 2, (size_t)page);
	munmap(kinds[UNMAPPED], REGION);
}

static uint64_t rng;

/* xorshift64*: the same seed, the same storm. */
static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

/* Mostly sizes a measurement can take, sometimes the edges and beyond. */
static uint64_t random_size(uint64_t usual)
{
	switch (below(16)) {
	case 0:
		return 0;
	case 1:
		return rnd();
	case 2:
		return version.max_buffer + 1 + below(2);
	case 3:
		return 1 + below(REGION);
	default:
		return 1 + below(usual);
	}
}

/* The user_len a layout needs: a page, the user side's offset, the buffer, the canaries. */
static uint64_t layout_len(const struct copyperf_measure *m)
{
	uint32_t align = m->align_src > m->align_dst ? m->align_src : m->align_dst;

	if (m->routine < version.n_routines)
		align = routine_direction[m->routine] == COPYPERF_USER_TO_KERNEL ? m->align_src :
										    m->align_dst;
	return (uint64_t)page + align + m->buffer + COPYPERF_CANARY;
}

static void random_request(struct copyperf_measure *m)
{
	memset(m, 0, sizeof(*m));
	m->routine = below(8) ? below(version.n_routines) : (uint32_t)rnd();
	m->cache = below(8) ? below(COPYPERF_CACHE_HOT + 1) : (uint32_t)rnd();
	m->buffer = random_size(64 << 10);
	m->chunk = below(8) ? 1 + below(m->buffer ? m->buffer : 1) : random_size(64 << 10);
	m->total = below(8) ? m->chunk * (1 + below(32)) : random_size(1 << 20);
	m->align_src = below(8) ? below(COPYPERF_MAX_ALIGN + 1) : (uint32_t)rnd();
	m->align_dst = below(8) ? below(COPYPERF_MAX_ALIGN + 1) : (uint32_t)rnd();
	m->reserved_in = below(32) ? 0 : rnd() | 1;
	/*
	 * At most a few thousand calls and 8 MiB: tiny chunks over a large total, or
	 * flushes of large buffers at every call, would take minutes under emulation.
	 */
	if (m->chunk && m->total >= m->chunk && m->total <= COPYPERF_MAX_TOTAL &&
	    (m->total / m->chunk > 4096 || m->total > (8u << 20))) {
		uint64_t calls = (8u << 20) / m->chunk;

		m->total = m->chunk * (1 + below(calls < 4096 ? calls : 4096));
	}
	if (m->routine < version.n_routines &&
	    routine_direction[m->routine] == COPYPERF_KERNEL_TO_KERNEL && below(8))
		return;
	switch (below(16)) {
	case 0:
		m->user_addr = 0;
		break;
	case 1:
		m->user_addr = rnd(); /* anywhere, the kernel's half too */
		break;
	case 2:
		m->user_addr = (uintptr_t)kinds[ANON] + 1 + below((uint64_t)page - 1);
		break;
	default:
		m->user_addr = (uintptr_t)kinds[below(N_KINDS)];
		break;
	}
	m->user_len = below(8) ? layout_len(m) : random_size(REGION);
}

/* What the ABI refuses whatever the buffers: the module must say EINVAL. */
static int forbidden(const struct copyperf_measure *m)
{
	if (m->reserved_in || m->routine >= version.n_routines || m->cache > COPYPERF_CACHE_HOT)
		return 1;
	if (!m->buffer || m->buffer > version.max_buffer || !m->chunk || m->chunk > m->buffer)
		return 1;
	if (m->total < m->chunk || m->total > COPYPERF_MAX_TOTAL)
		return 1;
	if (m->align_src > COPYPERF_MAX_ALIGN || m->align_dst > COPYPERF_MAX_ALIGN)
		return 1;
	if (routine_direction[m->routine] == COPYPERF_KERNEL_TO_KERNEL)
		return m->user_addr || m->user_len;
	return m->user_addr % (uint64_t)page != 0 || m->user_len < layout_len(m);
}

/* The kind of buffer at a request's user_addr: one of kinds[], or N_KINDS for anywhere else. */
static int kind_of(const struct copyperf_measure *m)
{
	for (int k = 0; k < N_KINDS; k++)
		if (m->user_addr == (uintptr_t)kinds[k])
			return k;
	return N_KINDS;
}

/*
 * What an allowed request must give: 0 (a verified copy), an errno, or -1 where
 * it depends on what else is mapped.  Only private anonymous memory the caller
 * can write, every page of it present, is measured in (ABI header).
 */
static int expected(const struct copyperf_measure *m)
{
	uint32_t dir = routine_direction[m->routine];
	uint64_t end;
	int kind = kind_of(m);

	if (dir == COPYPERF_KERNEL_TO_KERNEL)
		return 0;
	if (m->user_addr == 0)
		return EFAULT;
	end = layout_len(m);
	if (kind == N_KINDS || end > REGION)
		return -1;
	switch (kind) {
	case SHARED:
	case TMPFS_SHARED:
		return EINVAL;
	case READ_ONLY:
	case UNMAPPED:
		return EFAULT;
	case HOLED:
		return end > REGION / 2 ? EFAULT : 0;
	default:
		return 0;
	}
}

/* Verified copies per kind of buffer (the last: kernel memory only), for the summary. */
static long copies[N_KINDS + 1];

static void describe(char *out, size_t len, const struct copyperf_measure *m, const char *what)
{
	snprintf(out, len,
		 "%s: routine %u cache %u chunk %llu total %llu buffer %llu align %u:%u "
		 "user %#llx+%llu reserved %#llx",
		 what, m->routine, m->cache, (unsigned long long)m->chunk,
		 (unsigned long long)m->total, (unsigned long long)m->buffer, m->align_src,
		 m->align_dst, (unsigned long long)m->user_addr, (unsigned long long)m->user_len,
		 (unsigned long long)m->reserved_in);
}

/*
 * Judges one answer: EINVAL for what the ABI forbids, else what expected() says;
 * a measurement whose answer cannot be written back is EFAULT.
 */
static void judge(const struct copyperf_measure *req, const struct copyperf_measure *out,
		  int rc, int err, int request_readable, int answer_writable)
{
	char detail[400], what[80];
	int ok;

	if (!request_readable) {
		ok = rc == -1 && err == EFAULT;
	} else if (forbidden(req)) {
		ok = rc == -1 && err == EINVAL;
	} else if (!answer_writable) {
		ok = rc == -1 && (expected(req) == 0 ? err == EFAULT :
				  expected(req) == -1 ? err == EFAULT || err == EINVAL :
				  err == expected(req));
	} else if (rc == 0) {
		ok = (routine_flags[req->routine] & COPYPERF_ROUTINE_SELFTEST) ||
		     (out->result == COPYPERF_RESULT_OK &&
		      out->copied == req->total / req->chunk * req->chunk);
		ok = ok && expected(req) <= 0;
		if (ok)
			copies[routine_direction[req->routine] == COPYPERF_KERNEL_TO_KERNEL ?
				       N_KINDS : kind_of(req)]++;
	} else {
		ok = expected(req) == -1 ? err == EFAULT || err == EINVAL : err == expected(req);
	}
	if (rc == 0)
		snprintf(what, sizeof(what), "result %u, %llu copied", out->result,
			 (unsigned long long)out->copied);
	else
		snprintf(what, sizeof(what), "%s", strerror(err));
	describe(detail, sizeof(detail), req, what);
	result(ok, "storm", detail);
}

/* COUNT random requests through fd; the request itself sometimes unreadable or unwritable. */
static void storm(int fd, long count)
{
	struct copyperf_measure *ro = mmap(NULL, (size_t)page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
					   -1, 0);

	if (ro == MAP_FAILED) {
		perror("ioctl_storm: mmap");
		exit(1);
	}

	for (long i = 0; i < count; i++) {
		struct copyperf_measure req, *arg = &req, out;
		int rc, err, readable = 1;

		random_request(&req);
		out = req;
		switch (below(32)) {
		case 0:
			arg = NULL;
			readable = 0;
			break;
		case 1:
			arg = (struct copyperf_measure *)(void *)kinds[UNMAPPED];
			readable = 0;
			break;
		case 2: /* readable, but the answer cannot be written back */
			mprotect(ro, (size_t)page, PROT_READ | PROT_WRITE);
			*ro = req;
			mprotect(ro, (size_t)page, PROT_READ);
			arg = ro;
			break;
		default:
			arg = &out;
			break;
		}
		rc = ioctl(fd, COPYPERF_IOC_MEASURE, arg);
		err = rc ? errno : 0;
		judge(&req, &out, rc, err, readable, arg != ro);
		if (below(64) == 0) {
			struct copyperf_routine_info info = { .index = (uint32_t)below(version.n_routines + 2) };

			rc = ioctl(fd, COPYPERF_IOC_ROUTINE, &info);
			result(info.index < version.n_routines ? rc == 0 : rc == -1 && errno == EINVAL,
			       "storm: routine info", "wrong answer");
		}
	}
}

static int run_storm(long count, uint64_t seed)
{
	int fd = open_device(), status = 0;
	pid_t child;

	learn_routines(fd);
	printf("storm: %ld requests from each of two processes, seed %llu\n", count,
	       (unsigned long long)seed);
	fflush(stdout);
	child = fork();
	if (child < 0) {
		perror("ioctl_storm: fork");
		return 1;
	}
	/* The child on its own descriptor, the parent on the one it opened. */
	if (child == 0) {
		close(fd);
		fd = open_device();
	}
	/* Mapped after the fork: each process its own huge pages, no copy-on-write between them. */
	map_buffers();
	rng = seed * 2 + (child == 0) + 1;
	storm(fd, count);
	/* A module that refused everything would pass the checks above: some must have copied. */
	printf("storm: verified copies: kernel memory %ld", copies[N_KINDS]);
	for (int k = 0; k < N_KINDS; k++)
		printf(", %s %ld", kind_names[k], copies[k]);
	printf("\n");
	result(copies[N_KINDS] && copies[ANON] && copies[TMPFS_PRIVATE] && copies[HUGE] &&
		       copies[HOLED],
	       "storm: copies in kernel memory and in each kind of buffer that allows them",
	       "some had none");
	if (child == 0) {
		printf("storm, second process: %d passed, %d failed\n", passed, failed);
		_exit(failed ? 1 : 0);
	}
	result(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "storm: the second process", "it failed or died");
	close(fd);
	return 0;
}

/* Sets this thread's fail-nth: the nth fault-injection point from the next system call fails. */
static void set_fail_nth(int nth_fd, unsigned int n)
{
	char text[16];
	int len = snprintf(text, sizeof(text), "%u", n);

	if (pwrite(nth_fd, text, (size_t)len, 0) != len) {
		perror("ioctl_storm: /proc/thread-self/fail-nth");
		exit(1);
	}
}

/* Whether the point set by set_fail_nth was reached (the count read back is 0). */
static int fail_nth_reached(int nth_fd)
{
	char text[16] = "";

	if (pread(nth_fd, text, sizeof(text) - 1, 0) <= 0) {
		perror("ioctl_storm: /proc/thread-self/fail-nth");
		exit(1);
	}
	return atoi(text) == 0;
}

/* Every allocation of one measurement made to fail in turn, until one runs with none failing. */
static void fail_each_allocation(int fd, int nth_fd, const char *name,
				 const struct copyperf_measure *req)
{
	char detail[400];
	unsigned int n;

	for (n = 1; n < 1000; n++) {
		struct copyperf_measure m = *req;
		int rc, err, reached;

		set_fail_nth(nth_fd, n);
		rc = ioctl(fd, COPYPERF_IOC_MEASURE, &m);
		err = rc ? errno : 0;
		reached = fail_nth_reached(nth_fd);
		set_fail_nth(nth_fd, 0);
		if (rc == 0 && m.result != COPYPERF_RESULT_OK) {
			snprintf(detail, sizeof(detail), "%s, allocation %u failed: result %u", name,
				 n, m.result);
			result(0, "failnth", detail);
			return;
		}
		if (rc && (!reached || err != ENOMEM)) {
			snprintf(detail, sizeof(detail), "%s, allocation %u %s: %s", name, n,
				 reached ? "failed" : "did not fail", strerror(err));
			result(0, "failnth", detail);
			return;
		}
		if (!reached)
			break;
	}
	snprintf(detail, sizeof(detail), "%s: still failing after %u allocations", name, n);
	result(n < 1000, "failnth", detail);
	printf("failnth: %s: %u allocation points, each failing cleanly\n", name, n - 1);
	fflush(stdout);
}

/* Writes a fault-injection setting under /sys/kernel/debug (debugfs mounted). */
static void set_knob(const char *path, const char *value)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(value, f) < 0 || fclose(f)) {
		fprintf(stderr, "ioctl_storm: %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

/*
 * Slab and page allocations that may sleep count too (by default only atomic
 * ones and pages of order 1 and up do), and without the stack dump each
 * injected failure would print, which the host would take for a kernel problem.
 */
static void count_every_allocation(void)
{
	set_knob("/sys/kernel/debug/failslab/ignore-gfp-wait", "N");
	set_knob("/sys/kernel/debug/failslab/verbose", "0");
	set_knob("/sys/kernel/debug/fail_page_alloc/ignore-gfp-wait", "N");
	set_knob("/sys/kernel/debug/fail_page_alloc/min-order", "0");
	set_knob("/sys/kernel/debug/fail_page_alloc/verbose", "0");
}

static int run_failnth(void)
{
	static const char *const names[] = { "memcpy", "copy_to_user", "copy_from_user" };
	int fd = open_device(), nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);

	if (nth_fd < 0) {
		perror("ioctl_storm: /proc/thread-self/fail-nth (CONFIG_FAULT_INJECTION)");
		return 1;
	}
	learn_routines(fd);
	map_buffers();
	count_every_allocation();
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		/* A buffer within kmalloc's reach, and one past it (vmalloc). */
		static const uint64_t buffers[] = { 64 << 10, 3 << 20 };

		for (size_t b = 0; b < 2; b++) {
			struct copyperf_measure m = {
				.cache = COPYPERF_CACHE_FLUSH, .chunk = 4096, .buffer = buffers[b],
				.total = buffers[b],
			};
			char name[64];
			uint32_t r = find_routine(fd, names[i]);

			m.routine = r;
			if (routine_direction[r] != COPYPERF_KERNEL_TO_KERNEL) {
				m.user_addr = (uintptr_t)kinds[ANON];
				m.user_len = REGION;
			}
			snprintf(name, sizeof(name), "%s, %llu KiB", names[i],
				 (unsigned long long)(buffers[b] >> 10));
			fail_each_allocation(fd, nth_fd, name, &m);
		}
	}
	close(nth_fd);
	close(fd);
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Opens, asks the version and closes until `end`: only a missing module may stop an open. */
static void open_close_until(double end)
{
	long opened = 0, absent = 0;

	while (now() < end) {
		struct copyperf_version v;
		int fd = open(COPYPERF_DEVICE, O_RDWR);

		if (fd < 0) {
			/* Unloaded, or going: the node is gone or its module is. */
			if (errno != ENOENT && errno != ENODEV && errno != ENXIO) {
				result(0, "churn: open", strerror(errno));
				break;
			}
			absent++;
			continue;
		}
		opened++;
		if (ioctl(fd, COPYPERF_IOC_VERSION, &v) || v.abi != COPYPERF_ABI_VERSION)
			result(0, "churn: version", strerror(errno));
		close(fd);
	}
	printf("churn: %ld opens, %ld found no module\n", opened, absent);
	result(opened > 0, "churn: opens", "never opened the device");
}

/*
 * Unloads the module whenever nobody holds it and loads it again at once,
 * while a child opens and closes it and the caller runs measurements: each
 * unload is refused (in use) or done, each reload works.
 */
static int run_churn(double seconds, const char *ko)
{
	double end = now() + seconds;
	long unloads = 0, refused = 0;
	int status = 0, ko_fd = open(ko, O_RDONLY | O_CLOEXEC);
	pid_t child;

	if (ko_fd < 0) {
		perror(ko);
		return 1;
	}
	child = fork();
	if (child == 0) {
		open_close_until(end);
		_exit(failed ? 1 : 0);
	}
	while (now() < end) {
		if (syscall(SYS_delete_module, "copyperf", O_NONBLOCK) == 0) {
			unloads++;
			if (syscall(SYS_finit_module, ko_fd, "", 0)) {
				result(0, "churn: reload", strerror(errno));
				break;
			}
		} else if (errno == EWOULDBLOCK || errno == EBUSY) {
			refused++;
		} else {
			result(0, "churn: unload", strerror(errno));
			break;
		}
		usleep(20000);
	}
	result(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "churn: the opening process", "it failed or died");
	printf("churn: %ld unloads, %ld refused\n", unloads, refused);
	/* Both sides of the race, or it was not one. */
	result(unloads > 0 && refused > 0, "churn: unloads both done and refused", "one never happened");
	close(ko_fd);
	return 0;
}

/*
 * A walk over a 1 MiB buffer whose page, buffer and canary fill whole pages, so
 * that a check running past the canary leaves the module's mapping at once.
 */
#define RACE_BUFFER ((1u << 20) - COPYPERF_CANARY)
/* Deep in the walk: a check that finds it wrong has most of the pass to undo before it. */
#define RACE_AT (RACE_BUFFER - 4096)

static unsigned char *race_user; /* the command's buffer: page, walked buffer, canary */
static double race_end;
static useconds_t flip_after;
static volatile int flipped;

/* The source race_source's walk covers, and the byte it flips: the last. */
#define FLIP_BUFFER (64u << 10)
#define FLIP_AT (FLIP_BUFFER - 1)

/*
 * Flips the walked source's last byte once, flip_after into a copy_from_user
 * walk.  Most flips land while a pass is checked, before the check reaches
 * that byte: the pass disagrees with the source there and stops the walk,
 * yet the copy it left is right by itself; only a look at the source tells
 * that the walk was not the one asked for.
 */
static void *flip_source(void *arg)
{
	(void)arg;
	usleep(flip_after);
	race_user[page + FLIP_AT] ^= 0xff;
	flipped = 1;
	return NULL;
}

/*
 * Turns the destination's byte RACE_AT wrong and right, and sets the canary
 * after the walk to what the source holds there (a check that did not stop
 * at the walk's end would read on through it), until race_end.  Each state
 * is held in a loop of its own: under emulation a thread is interrupted only
 * between blocks of translated code, and on one CPU (the debug guest brings
 * up one) a byte set and reset in one block would never be seen wrong.
 */
static void *change_destination(void *arg)
{
	volatile unsigned char *d = race_user + page;
	unsigned char right = pattern_byte(COPYPERF_PATTERN_BIAS + RACE_AT);

	(void)arg;
	while (now() < race_end) {
		for (int i = 0; i < COPYPERF_CANARY; i++)
			d[RACE_BUFFER + i] = pattern_byte(COPYPERF_PATTERN_BIAS + RACE_BUFFER + i);
		for (int i = 0; i < 1000; i++)
			d[RACE_AT] = (unsigned char)~right;
		for (int i = 0; i < 1000; i++)
			d[RACE_AT] = right;
	}
	return NULL;
}

static pthread_t start_thread(void *(*fn)(void *))
{
	pthread_t t;
	int err = pthread_create(&t, NULL, fn, NULL);

	if (err) {
		fprintf(stderr, "ioctl_storm: a thread: %s\n", strerror(err));
		exit(1);
	}
	return t;
}

/* A copy_from_user source byte flipped once mid-walk: the copy cannot be reported right. */
static void race_source(int fd)
{
	struct copyperf_measure req = {
		.routine = find_routine(fd, "copy_from_user"), .cache = COPYPERF_CACHE_FLUSH,
		.chunk = 4096, .buffer = FLIP_BUFFER, .total = 64 << 20,
		.user_addr = (uintptr_t)race_user, .user_len = REGION,
	}, m = req;
	const unsigned char *flip = race_user + page + FLIP_AT;
	unsigned char unflipped = pattern_byte(COPYPERF_PATTERN_BIAS + FLIP_AT);
	int landed = 0;
	double t0 = now();
	char detail[160];

	result(ioctl(fd, COPYPERF_IOC_MEASURE, &m) == 0 && m.result == COPYPERF_RESULT_OK,
	       "race: copy_from_user untouched", "not a verified copy");
	flip_after = (useconds_t)((now() - t0) * 1e6 / 4);
	for (int i = 0; i < 4; i++) {
		pthread_t t;
		int rc, mid_walk;

		m = req;
		flipped = 0;
		t = start_thread(flip_source);
		rc = ioctl(fd, COPYPERF_IOC_MEASURE, &m);
		/* Before the answer and after the module's fill, which would have undone it. */
		mid_walk = flipped && *flip != unflipped;
		pthread_join(t, NULL);
		if (!mid_walk)
			continue;
		landed++;
		snprintf(detail, sizeof(detail), "rc %d, result %u, ns %llu, copied %llu", rc,
			 m.result, (unsigned long long)m.ns, (unsigned long long)m.copied);
		result(rc == 0 && m.result != COPYPERF_RESULT_OK && !m.ns && !m.copied,
		       "race: a source byte changed mid-walk is not OK, nothing timed", detail);
	}
	result(landed > 0, "race: a flip landed mid-walk", "none did");
}

/*
 * A true answer: OK with every chunk copied, or a failure at the byte the thread
 * turns wrong or in the canary it sets, with ns and copied 0 (the ABI).
 */
static int race_answer_true(int rc, const struct copyperf_measure *m)
{
	if (rc)
		return 0;
	if (m->result == COPYPERF_RESULT_OK)
		return m->copied == m->total;
	if (m->ns || m->copied)
		return 0;
	if (m->result == COPYPERF_RESULT_WRONG_BYTE)
		return m->offset == RACE_AT;
	return m->result == COPYPERF_RESULT_WROTE_PAST && m->offset >= RACE_BUFFER &&
	       m->offset < RACE_BUFFER + COPYPERF_CANARY;
}

static int race_fd;
static struct copyperf_measure race_req;
static long race_walks, race_results[COPYPERF_RESULT_WROTE_PAST + 1];
static int race_back; /* the last walk returned */

/* copy_to_user walks over the changing destination until race_end, each answer judged. */
static void *walk_destination(void *arg)
{
	char detail[160];

	(void)arg;
	while (now() < race_end) {
		struct copyperf_measure m = race_req;
		int rc = ioctl(race_fd, COPYPERF_IOC_MEASURE, &m);

		snprintf(detail, sizeof(detail), "%s, result %u at %llu, ns %llu, copied %llu",
			 rc ? strerror(errno) : "ok", m.result, (unsigned long long)m.offset,
			 (unsigned long long)m.ns, (unsigned long long)m.copied);
		result(race_answer_true(rc, &m), "race: copy_to_user, its destination changed",
		       detail);
		race_walks++;
		if (!rc && m.result <= COPYPERF_RESULT_WROTE_PAST)
			race_results[m.result]++;
	}
	race_back = 1;
	return NULL;
}

static int run_race(double seconds)
{
	struct copyperf_measure m;
	pthread_t changer, walker;

	race_fd = open_device();
	learn_routines(race_fd);
	race_user = region(PROT_READ | PROT_WRITE, MAP_PRIVATE, -1);
	if (!race_user) {
		perror("ioctl_storm: mmap");
		exit(1);
	}
	race_source(race_fd);
	race_req = (struct copyperf_measure){
		.routine = find_routine(race_fd, "copy_to_user"), .cache = COPYPERF_CACHE_FLUSH,
		.chunk = RACE_BUFFER, .buffer = RACE_BUFFER, .total = 8ull * RACE_BUFFER,
		.user_addr = (uintptr_t)race_user, .user_len = REGION,
	};
	race_end = now() + seconds;
	changer = start_thread(change_destination);
	/* In a thread of its own: killed by an oops, it still ends, and the join returns. */
	walker = start_thread(walk_destination);
	pthread_join(walker, NULL);
	pthread_join(changer, NULL);
	printf("race: %ld copy_to_user walks: %ld OK, %ld a wrong byte, %ld a changed canary\n",
	       race_walks, race_results[COPYPERF_RESULT_OK],
	       race_results[COPYPERF_RESULT_WRONG_BYTE], race_results[COPYPERF_RESULT_WROTE_PAST]);
	result(race_back, "race: every copy_to_user walk returned", "the kernel killed one");
	/* A walker killed in the module still holds its lock: a measurement would wait forever. */
	if (!race_back)
		return 0;
	m = race_req;
	result(ioctl(race_fd, COPYPERF_IOC_MEASURE, &m) == 0 && m.result == COPYPERF_RESULT_OK,
	       "race: copy_to_user once the thread has stopped", "not a verified copy");
	close(race_fd);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	int rc;

	page = sysconf(_SC_PAGESIZE);
	if (strcmp(mode, "storm") == 0 && argc >= 3)
		rc = run_storm(atol(argv[2]),
			       argc > 3 ? strtoull(argv[3], NULL, 0) : (uint64_t)time(NULL));
	else if (strcmp(mode, "failnth") == 0)
		rc = run_failnth();
	else if (strcmp(mode, "churn") == 0 && argc == 4)
		rc = run_churn(atof(argv[2]), argv[3]);
	else if (strcmp(mode, "race") == 0 && argc == 3)
		rc = run_race(atof(argv[2]));
	else {
		fprintf(stderr, "usage: ioctl_storm storm COUNT [SEED] | failnth | churn SECONDS MODULE.ko"
			" | race SECONDS\n");
		return 2;
	}
	printf("%s: %d passed, %d failed\n", mode, passed, failed);
	/* A mode that could not run (no fail-nth, say) or checked nothing has not passed. */
	if (rc || !passed)
		fprintf(stderr, "ioctl_storm %s: %s\n", mode, rc ? "could not run" : "checked nothing");
	return failed || rc || !passed ? 1 : 0;
}
