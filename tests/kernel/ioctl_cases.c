/* SPDX-License-Identifier: MIT */
/*
 * Inside the test guest, with the module loaded: every bad request to
 * /dev/copyperf must come back with its error code (and the kernel must
 * not oops; the host reads the kernel log), good ones must verify, a killed
 * caller must let go at once, and concurrent callers must both succeed.
 * Prints one line per case and "N passed, N failed"; exits 1 on a failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "uapi/copyperf_ioctl.h"
#include "routine_by_name.h"

static int passed, failed;
static int fd;
static struct copyperf_version version;
static long page;

static void caught(int sig)
{
	(void)sig;
}

static void result(int ok, const char *name, const char *detail)
{
	if (ok)
		passed++;
	else
		failed++;
	printf("%s %s%s%s\n", ok ? "ok  " : "FAIL", name, ok ? "" : ": ", ok ? "" : detail);
	fflush(stdout);
}

/* An ioctl that must fail with want_errno. */
static void expect_errno(const char *name, unsigned long cmd, void *arg, int want_errno)
{
	char detail[160];
	int rc = ioctl(fd, cmd, arg);
	int got = rc ? errno : 0;

	snprintf(detail, sizeof(detail), "returned %d (%s), expected %s", rc,
		 rc ? strerror(got) : "success", strerror(want_errno));
	result(rc == -1 && got == want_errno, name, detail);
}

static uint32_t routine_index(const char *name)
{
	return routine_by_name(fd, version.n_routines, name, "ioctl_cases");
}

static void *map(size_t len, int prot, int flags)
{
	void *p = mmap(NULL, len, prot, flags | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("ioctl_cases: mmap");
		exit(1);
	}
	return p;
}

/* A measurement that must succeed and verify. */
static int measure_ok(const struct copyperf_measure *req, char *detail, size_t len)
{
	struct copyperf_measure m = *req;

	if (ioctl(fd, COPYPERF_IOC_MEASURE, &m)) {
		snprintf(detail, len, "failed: %s", strerror(errno));
		return 0;
	}
	if (m.result != COPYPERF_RESULT_OK || m.copied != m.total / m.chunk * m.chunk) {
		snprintf(detail, len, "result %u at offset %llu, %llu bytes copied", m.result,
			 (unsigned long long)m.offset, (unsigned long long)m.copied);
		return 0;
	}
	return 1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The errno of opening the device as user nobody: 0 if it opened, -1 if that could not be tried. */
static int open_as_nobody(void)
{
	int status = 0;
	pid_t child = fork();

	if (child == 0) {
		if (setuid(65534))
			_exit(255);
		_exit(open(COPYPERF_DEVICE, O_RDWR) < 0 ? errno : 0);
	}
	if (child < 0 || waitpid(child, &status, 0) != child || !WIFEXITED(status) ||
	    WEXITSTATUS(status) == 255)
		return -1;
	return WEXITSTATUS(status);
}

int main(void)
{
	const uint64_t kernel_address = sizeof(long) == 8 ? 0xffff888000000000ull : 0xc0000000ull;
	struct copyperf_measure base = { 0 }, m;
	struct copyperf_routine_info info;
	uint32_t memcpy_i, to_user, from_user;
	size_t user_len;
	unsigned char *user, *gone, *ro, *shared;
	char detail[200];
	struct stat st;
	int status, got;
	pid_t child;

	page = sysconf(_SC_PAGESIZE);
	status = stat(COPYPERF_DEVICE, &st) == 0;
	if (status)
		snprintf(detail, sizeof(detail), "mode %o, uid %u", (unsigned)(st.st_mode & 07777),
			 (unsigned)st.st_uid);
	else
		snprintf(detail, sizeof(detail), "stat: %s", strerror(errno));
	result(status && S_ISCHR(st.st_mode) && (st.st_mode & 07777) == 0600 && st.st_uid == 0,
	       "the device is root's, mode 0600", detail);
	got = open_as_nobody();
	snprintf(detail, sizeof(detail), "open gave %s", got < 0 ? "no answer" : strerror(got));
	result(got == EACCES, "an unprivileged open is refused by the node's mode", detail);
	/* Even where someone made the node world-writable, the module itself says no. */
	if (chmod(COPYPERF_DEVICE, 0666))
		perror("ioctl_cases: chmod");
	got = open_as_nobody();
	snprintf(detail, sizeof(detail), "open gave %s", got < 0 ? "no answer" : strerror(got));
	result(got == EPERM, "without CAP_SYS_ADMIN, open gives EPERM", detail);
	chmod(COPYPERF_DEVICE, 0600);

	fd = open(COPYPERF_DEVICE, O_RDWR);
	if (fd < 0) {
		perror("ioctl_cases: " COPYPERF_DEVICE);
		return 1;
	}
	status = ioctl(fd, COPYPERF_IOC_VERSION, &version) == 0;
	snprintf(detail, sizeof(detail), "%s: abi %u, %u routines, page size %u",
		 status ? "answered" : strerror(errno), version.abi, version.n_routines,
		 version.page_size);
	result(status && version.abi == COPYPERF_ABI_VERSION && version.n_routines >= 6 &&
		       version.page_size == (uint32_t)page,
	       "version handshake", detail);
#if defined(__x86_64__) || defined(__i386__) || defined(__powerpc__)
	result(version.flags & COPYPERF_CAN_FLUSH, "the module can flush here", "flag missing");
#endif
	memcpy_i = routine_index("memcpy");
	to_user = routine_index("copy_to_user");
	from_user = routine_index("copy_from_user");

	/* Unknown commands and bad argument pointers. */
	expect_errno("unknown ioctl number", _IO(COPYPERF_IOC_MAGIC, 99), NULL, ENOTTY);
	expect_errno("another driver's ioctl", _IOR('T', 2, int), &status, ENOTTY);
	expect_errno("measure with a wrong size",
		     _IOC(_IOC_READ | _IOC_WRITE, COPYPERF_IOC_MAGIC, 2, 8), &base, ENOTTY);
	expect_errno("version to NULL", COPYPERF_IOC_VERSION, NULL, EFAULT);
	expect_errno("routine from NULL", COPYPERF_IOC_ROUTINE, NULL, EFAULT);
	expect_errno("measure from NULL", COPYPERF_IOC_MEASURE, NULL, EFAULT);
	expect_errno("measure from a kernel address", COPYPERF_IOC_MEASURE,
		     (void *)(uintptr_t)kernel_address, EFAULT);
	gone = map(page, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	munmap(gone, page);
	expect_errno("measure from an unmapped page", COPYPERF_IOC_MEASURE, gone, EFAULT);
	memset(&info, 0, sizeof(info));
	info.index = version.n_routines;
	expect_errno("routine index past the end", COPYPERF_IOC_ROUTINE, &info, EINVAL);

	/* The good request each bad one below differs from in one field. */
	base.routine = memcpy_i;
	base.cache = COPYPERF_CACHE_FLUSH;
	base.chunk = 4096;
	base.total = 256 << 10;
	base.buffer = 64 << 10;
	result(measure_ok(&base, detail, sizeof(detail)), "memcpy, a good request", detail);
#define BAD(name, field, value, err)                               \
	do {                                                       \
		m = base;                                          \
		m.field = value;                                   \
		expect_errno(name, COPYPERF_IOC_MEASURE, &m, err); \
	} while (0)
	BAD("unknown routine", routine, version.n_routines, EINVAL);
	BAD("routine -1", routine, UINT32_MAX, EINVAL);
	BAD("unknown cache mode", cache, COPYPERF_CACHE_HOT + 1, EINVAL);
	BAD("chunk 0", chunk, 0, EINVAL);
	BAD("chunk larger than the buffer", chunk, base.buffer + 1, EINVAL);
	BAD("buffer 0", buffer, 0, EINVAL);
	BAD("buffer over the module's maximum", buffer, version.max_buffer + 1, EINVAL);
	BAD("buffer 2^64 - 1", buffer, UINT64_MAX, EINVAL);
	BAD("total smaller than the chunk", total, base.chunk - 1, EINVAL);
	BAD("total over the maximum", total, COPYPERF_MAX_TOTAL + 1, EINVAL);
	BAD("total 2^64 - 1", total, UINT64_MAX, EINVAL);
	BAD("source offset 4096", align_src, COPYPERF_MAX_ALIGN + 1, EINVAL);
	BAD("destination offset 2^32 - 1", align_dst, UINT32_MAX, EINVAL);
	BAD("reserved field set", reserved_in, 1, EINVAL);
	BAD("user buffer given to a kernel routine", user_addr, (uintptr_t)&base, EINVAL);

	/* The command's buffer, for the user copies. */
	user_len = (size_t)(2 * page + base.buffer + COPYPERF_CANARY + page - 1) / page * page;
	user = map(user_len, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	base.routine = to_user;
	base.user_addr = (uintptr_t)user;
	base.user_len = user_len;
	result(measure_ok(&base, detail, sizeof(detail)), "copy_to_user, a good request", detail);
	m = base;
	m.routine = from_user;
	m.align_src = 1;
	m.align_dst = 3;
	result(measure_ok(&m, detail, sizeof(detail)), "copy_from_user at offsets 1:3", detail);
	BAD("user buffer not page aligned", user_addr, (uintptr_t)user + 8, EINVAL);
	BAD("user buffer too short", user_len, (uint64_t)page + base.buffer, EINVAL);
	BAD("user buffer at NULL", user_addr, 0, EFAULT);
	BAD("user buffer unmapped", user_addr, (uintptr_t)gone, EFAULT);
	BAD("user buffer in the kernel", user_addr, kernel_address, EFAULT);
	BAD("user buffer wrapping the address space", user_addr, UINT64_MAX & ~(uint64_t)(page - 1),
	    EFAULT);
	ro = map(user_len, PROT_READ, MAP_PRIVATE);
	BAD("user buffer read-only", user_addr, (uintptr_t)ro, EFAULT);
	base.routine = from_user;
	BAD("user source read-only", user_addr, (uintptr_t)ro, EFAULT);
	shared = map(user_len, PROT_READ | PROT_WRITE, MAP_SHARED);
	memset(shared, 1, user_len);
	BAD("user buffer shared with other processes", user_addr, (uintptr_t)shared, EINVAL);
	/* The page after the walked buffer holds the canaries: the module needs it too. */
	munmap(user + page + base.buffer, page);
	BAD("user buffer with its canary page unmapped", user_addr, (uintptr_t)user, EFAULT);
	munmap(user, user_len);
	user = map(user_len, PROT_READ | PROT_WRITE, MAP_PRIVATE);
	base.user_addr = (uintptr_t)user;
	result(measure_ok(&base, detail, sizeof(detail)), "the module still works afterwards",
	       detail);

	/* Two users at once: serialised, both right. */
	child = fork();
	for (int i = 0; i < 20; i++) {
		m = base;
		m.routine = child ? memcpy_i : from_user;
		if (child) {
			m.user_addr = 0;
			m.user_len = 0;
		}
		if (!measure_ok(&m, detail, sizeof(detail))) {
			if (child == 0)
				_exit(1);
			result(0, "concurrent users", detail);
			break;
		}
	}
	if (child == 0)
		_exit(0);
	result(waitpid(child, &status, 0) == child && WIFEXITED(status) &&
		       WEXITSTATUS(status) == 0,
	       "concurrent users, the other one", "the child's measurements failed");

	/*
	 * A measurement longer than the soft-lockup threshold the guest boots
	 * with (watchdog_thresh=1: 2 s), so a walk that never gives the CPU away
	 * shows in the kernel log. The host is shared: one calibration can come
	 * out slow or fast, so each try is sized from the one before, aiming at
	 * 4 s, until one has run past 2.5 s.
	 */
	{
		double t0, took;
		int tries;

		m = base;
		m.routine = memcpy_i;
		m.user_addr = 0;
		m.user_len = 0;
		m.cache = COPYPERF_CACHE_HOT;
		m.chunk = 64;
		m.total = 4 << 20;
		for (tries = 1;; tries++) {
			double scaled;

			t0 = now();
			status = measure_ok(&m, detail, sizeof(detail));
			took = now() - t0;
			if (!status || took > 2.5 || tries == 5)
				break;
			scaled = (double)m.total * 4.0 / (took > 1e-3 ? took : 1e-3);
			m.total = scaled < COPYPERF_MAX_TOTAL ? (uint64_t)scaled : COPYPERF_MAX_TOTAL;
		}
		if (status)
			snprintf(detail, sizeof(detail), "took %.2f s after %d tries", took, tries);
		result(status && took > 2.5, "a measurement longer than the lockup threshold",
		       detail);
	}

	/* A measurement of 2^40 bytes, killed: the module must let go within a second or two. */
	child = fork();
	if (child == 0) {
		m = base;
		m.total = COPYPERF_MAX_TOTAL;
		ioctl(fd, COPYPERF_IOC_MEASURE, &m);
		_exit(0);
	}
	sleep(1);
	{
		double t0 = now(), waited;

		kill(child, SIGKILL);
		waitpid(child, &status, 0);
		waited = now() - t0;
		snprintf(detail, sizeof(detail), "took %.2f s to die", waited);
		result(WIFSIGNALED(status) && waited < 3.0, "a killed measurement stops at once",
		       detail);
	}
	/* The same, told by a signal the process catches (copyperf's SIGTERM): EINTR at once. */
	child = fork();
	if (child == 0) {
		struct sigaction sa;
		int rc;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = caught;
		sigaction(SIGTERM, &sa, NULL);
		m = base;
		m.total = COPYPERF_MAX_TOTAL;
		rc = ioctl(fd, COPYPERF_IOC_MEASURE, &m);
		_exit(rc == -1 && errno == EINTR ? 0 : 1);
	}
	sleep(1);
	{
		double t0 = now(), waited;

		kill(child, SIGTERM);
		waitpid(child, &status, 0);
		waited = now() - t0;
		snprintf(detail, sizeof(detail), "took %.2f s, exit status %d", waited,
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		result(WIFEXITED(status) && WEXITSTATUS(status) == 0 && waited < 3.0,
		       "a measurement whose process catches SIGTERM ends with EINTR", detail);
	}
	/*
	 * Stopped and continued in the middle (Ctrl-Z, a debugger): no handler ran,
	 * so the measurement is restarted, not cut short with EINTR.
	 */
	child = fork();
	if (child == 0) {
		int rc;

		m = base;
		m.total = 1ull << 30; /* seconds under emulation: still walking when stopped */
		rc = ioctl(fd, COPYPERF_IOC_MEASURE, &m);
		_exit(rc == 0 && m.result == COPYPERF_RESULT_OK && m.copied == m.total ? 0 : 1);
	}
	usleep(300000);
	kill(child, SIGSTOP);
	usleep(300000);
	kill(child, SIGCONT);
	waitpid(child, &status, 0);
	snprintf(detail, sizeof(detail), "exit status %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	result(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "a measurement stopped and continued completes", detail);
	close(fd);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
