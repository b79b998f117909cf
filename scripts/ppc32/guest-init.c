/* SPDX-License-Identifier: MIT */
/*
 * /init of the 32-bit PowerPC test guest, a static C program because Debian
 * ships no powerpc busybox: the same contract as scripts/kernel/guest-init.sh.
 * Mounts proc, sysfs and devtmpfs, loads every module in /guest, runs /guest/run
 * with init's arguments (the kernel command line after "--"), its output on
 * the results device (copyperf_out=/dev/... on the command line), then writes
 *   copyperf-guest-status N
 *   ==== dmesg
 *   <the whole kernel log>
 * and powers off.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define SYSLOG_ACTION_READ_ALL 3
#define SYSLOG_ACTION_SIZE_BUFFER 10

static FILE *out;

/* Loads /guest/<name>.ko for each module there; returns how many failed. */
static int load_modules(void)
{
	DIR *dir = opendir("/guest");
	struct dirent *e;
	int failures = 0;

	if (!dir) {
		fprintf(out, "init: /guest: %s\n", strerror(errno));
		return 1;
	}
	while ((e = readdir(dir))) {
		size_t len = strlen(e->d_name);
		char path[300];
		int fd;

		if (len < 4 || strcmp(e->d_name + len - 3, ".ko"))
			continue;
		snprintf(path, sizeof(path), "/guest/%s", e->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || syscall(SYS_finit_module, fd, "", 0)) {
			fprintf(out, "init: insmod %s: %s\n", path, strerror(errno));
			failures++;
		}
		if (fd >= 0)
			close(fd);
	}
	closedir(dir);
	return failures;
}

/* Runs /guest/run with argv[1..]; its exit status, or 255 when it could not run. */
static int run(char **argv)
{
	pid_t pid;
	int status;

	fflush(out);
	pid = fork();
	if (pid == 0) {
		dup2(fileno(out), 1);
		dup2(fileno(out), 2);
		argv[0] = "/guest/run";
		execv(argv[0], argv);
		fprintf(stderr, "init: /guest/run: %s\n", strerror(errno));
		_exit(255);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 255;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void dump_kernel_log(void)
{
	int size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);
	char *log = size > 0 ? malloc(size) : NULL;
	int got = log ? klogctl(SYSLOG_ACTION_READ_ALL, log, size) : -1;

	fprintf(out, "==== dmesg\n");
	if (got > 0)
		fwrite(log, 1, got, out);
	else
		fprintf(out, "init: cannot read the kernel log: %s\n", strerror(errno));
	free(log);
}

int main(int argc, char **argv)
{
	const char *dev = getenv("copyperf_out");
	int status;

	(void)argc;
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	out = fopen(dev ? dev : "/dev/console", "w");
	if (!out)
		out = fopen("/dev/console", "w");
	if (!out)
		out = stdout; /* the kernel's console, opened for init */
	setvbuf(out, NULL, _IOLBF, 0);
	status = load_modules() ? 254 : run(argv);
	fprintf(out, "copyperf-guest-status %d\n", status);
	dump_kernel_log();
	fflush(out);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
