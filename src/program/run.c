/* SPDX-License-Identifier: MIT */
/* One run of the command, timed: fork, the child's environment and files, exec, wait4. */
#ifndef COPYPERF_NO_DLOPEN
#include <dlfcn.h>
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "program.h"
#include "xalloc.h"

extern char **environ;

static bool executable_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

int program_find(const char *name, char *found, size_t len, char *why, size_t whylen)
{
	const char *path = getenv("PATH");

	if (!*name) {
		snprintf(why, whylen, "the command is an empty string");
		return -1;
	}
	if (strchr(name, '/')) {
		if (!executable_file(name)) {
			snprintf(why, whylen, "%s: %s", name,
				 access(name, F_OK) ? "no such file" : "not an executable file");
			return -1;
		}
		snprintf(found, len, "%s", name);
		return 0;
	}
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *dir = path;; dir = strchr(dir, ':') + 1) {
		size_t n = strcspn(dir, ":");

		if ((size_t)snprintf(found, len, "%.*s%s%s", (int)n, dir, n ? "/" : "./", name) < len &&
		    executable_file(found))
			return 0;
		if (!dir[n])
			break;
	}
	snprintf(why, whylen, "%s: command not found in PATH", name);
	return -1;
}

#ifdef COPYPERF_NO_DLOPEN
/* A static program cannot load it: its ELF header says whether it is a shared object at least. */
int program_shim_loads(const char *path, char *why, size_t whylen)
{
	unsigned char h[18];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, h, sizeof(h)) : -1;

	if (fd < 0) {
		snprintf(why, whylen, "--shim %s: %s", path, strerror(errno));
		return -1;
	}
	close(fd);
	if (n != (ssize_t)sizeof(h) || memcmp(h, "\177ELF", 4) || h[16] != 3 /* ET_DYN */) {
		snprintf(why, whylen, "--shim %s: does not load: not an ELF shared object", path);
		return -1;
	}
	return 0;
}
#else
int program_shim_loads(const char *path, char *why, size_t whylen)
{
	void *h;

	if (access(path, R_OK)) {
		snprintf(why, whylen, "--shim %s: %s", path, strerror(errno));
		return -1;
	}
	/*
	 * Loaded locally, it replaces nothing here; the dynamic loader would only
	 * warn and run the command without it, so the failure is caught first.
	 */
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(why, whylen, "--shim %s: does not load: %s", path, dlerror());
		return -1;
	}
	/* its own: dlsym also finds the ones of the C library it depends on */
	for (int i = 0; i < 2; i++) {
		void *sym = dlsym(h, i ? "memmove" : "memcpy");
		Dl_info where;
		char mine[PATH_MAX], theirs[PATH_MAX];

		if (!sym || !dladdr(sym, &where) || !realpath(path, mine) ||
		    !realpath(where.dli_fname, theirs) || strcmp(mine, theirs)) {
			snprintf(why, whylen, "--shim %s: defines no %s of its own to preload", path,
				 i ? "memmove" : "memcpy");
			dlclose(h);
			return -1;
		}
	}
	dlclose(h);
	return 0;
}
#endif

/*
 * The environment of a run: LD_PRELOAD with the shim first, COPYPERF_RECORD
 * only when asked.  The strings it makes are in owned[0] and owned[1] (NULL
 * where none), the rest are this process's own.
 */
static char **child_environment(const struct program_params *p, bool shim, const char *record_to,
				char *owned[2])
{
	size_t n = 0, k = 0;
	char **env;
	const char *old_preload = NULL;

	while (environ[n])
		n++;
	env = xcalloc(n + 3, sizeof(*env), "the command's environment");
	for (size_t i = 0; i < n; i++) {
		if (!strncmp(environ[i], "LD_PRELOAD=", 11)) {
			old_preload = environ[i] + 11;
			if (!shim)
				env[k++] = environ[i];
		} else if (strncmp(environ[i], "COPYPERF_RECORD=", 16)) {
			env[k++] = environ[i];
		}
	}
	if (shim) {
		size_t len = strlen(p->shim) + (old_preload ? strlen(old_preload) + 1 : 0) + 12;
		char *v = xcalloc(len, 1, "the command's environment");

		snprintf(v, len, "LD_PRELOAD=%s%s%s", p->shim, old_preload && *old_preload ? ":" : "",
			 old_preload ? old_preload : "");
		env[k++] = owned[0] = v;
	}
	if (record_to) {
		size_t len = strlen(record_to) + 17;
		char *v = xcalloc(len, 1, "the command's environment");

		snprintf(v, len, "COPYPERF_RECORD=%s", record_to);
		env[k++] = owned[1] = v;
	}
	env[k] = NULL;
	return env;
}

static void free_environment(char **env, char *owned[2])
{
	free(owned[0]);
	free(owned[1]);
	free(env);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* In the child: fd onto path (NULL: /dev/null), or a message on the error pipe and exit. */
static void child_file(int fd, const char *path, int flags, int error_pipe)
{
	int f = open(path ? path : "/dev/null", flags | O_CLOEXEC, 0644);

	if (f < 0 || dup2(f, fd) < 0) {
		int e = errno;

		if (write(error_pipe, &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(f);
}

int program_run(const struct program_params *p, enum program_side s, const char *record_to,
		const char *out_path, const char *err_path, struct run_time *t, char *why,
		size_t whylen)
{
	bool shim = s == SIDE_WITH && !p->control;
	char *owned[2] = { NULL, NULL };
	char **env = child_environment(p, shim || record_to, record_to, owned);
	int pipe_fd[2], child_errno = 0;
	struct rusage ru;
	double start;
	pid_t pid, got;
	ssize_t n;

	if (pipe2(pipe_fd, O_CLOEXEC)) {
		snprintf(why, whylen, "cannot make a pipe: %s", strerror(errno));
		free_environment(env, owned);
		return -1;
	}
	fflush(NULL);
	start = now();
	pid = fork();
	if (pid < 0) {
		snprintf(why, whylen, "cannot fork: %s", strerror(errno));
		close(pipe_fd[0]);
		close(pipe_fd[1]);
		free_environment(env, owned);
		return -1;
	}
	if (pid == 0) {
		close(pipe_fd[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		signal(SIGXFSZ, SIG_DFL);
		if (p->cpu >= 0) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(p->cpu, &set);
			sched_setaffinity(0, sizeof(set), &set);
		}
		child_file(0, p->stdin_path, O_RDONLY, pipe_fd[1]);
		child_file(1, out_path, O_WRONLY | O_CREAT | O_TRUNC, pipe_fd[1]);
		child_file(2, err_path, O_WRONLY | O_CREAT | O_TRUNC, pipe_fd[1]);
		execve(p->path, p->argv, env);
		child_errno = errno;
		if (write(pipe_fd[1], &child_errno, sizeof(child_errno)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pipe_fd[1]);
	do
		n = read(pipe_fd[0], &child_errno, sizeof(child_errno));
	while (n < 0 && errno == EINTR);
	close(pipe_fd[0]);
	do
		got = wait4(pid, &t->status, 0, &ru);
	while (got < 0 && errno == EINTR);
	t->wall = now() - start;
	free_environment(env, owned);
	if (got < 0) {
		snprintf(why, whylen, "cannot wait for %s: %s", p->argv[0], strerror(errno));
		return -1;
	}
	if (n == (ssize_t)sizeof(child_errno)) {
		snprintf(why, whylen, "%s: cannot be started: %s", p->argv[0], strerror(child_errno));
		return -1;
	}
	t->user = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6;
	t->sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
	return 0;
}
