/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "fresh_process.h"

FILE *fresh_process_start(const char *prog, char *const *argv, pid_t *pid)
{
	int fd[2];
	FILE *out;

	if (pipe(fd) != 0 || (*pid = fork()) < 0) {
		fprintf(stderr, "%s: cannot start a process: %s\n", prog, strerror(errno));
		exit(1);
	}
	if (*pid == 0) {
		dup2(fd[1], STDOUT_FILENO);
		close(fd[0]);
		close(fd[1]);
		execv("/proc/self/exe", argv);
		fprintf(stderr, "%s: cannot run /proc/self/exe: %s\n", prog, strerror(errno));
		_exit(127);
	}
	close(fd[1]);
	if ((out = fdopen(fd[0], "r")) == NULL) {
		fprintf(stderr, "%s: cannot read a process's output: %s\n", prog, strerror(errno));
		exit(1);
	}
	return out;
}

int fresh_process_end(FILE *out, pid_t pid)
{
	int status;

	fclose(out);
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}
