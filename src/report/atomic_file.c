/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "atomic_file.h"
#include "xalloc.h"

/* The temporary files that exist, for atomic_file_remove_temps: -o and --plot at most. */
#define MAX_TEMPS 4
static char *volatile temps[MAX_TEMPS];
static bool cleanup_registered;

static void temps_set(const char *old, char *now)
{
	for (size_t i = 0; i < MAX_TEMPS; i++)
		if (temps[i] == old) {
			temps[i] = now;
			return;
		}
}

void atomic_file_remove_temps(void)
{
	for (size_t i = 0; i < MAX_TEMPS; i++)
		if (temps[i])
			unlink(temps[i]);
}

static int fail(struct atomic_file *a, char *err, size_t errlen, const char *fmt, ...)
{
	int saved = errno;
	size_t n;
	va_list ap;

	if (saved == ENOMEM) { /* as every other allocation that fails: one line, exit 2 */
		atomic_file_discard(a);
		out_of_memory("writing the output file");
	}
	n = (size_t)snprintf(err, errlen, "cannot write '%s': ", a->target);
	if (n < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - n, fmt, ap);
		va_end(ap);
	}
	atomic_file_discard(a);
	errno = saved;
	return -1;
}

/* The mode a new file gets from fopen: 0666 without the umask. */
static mode_t new_file_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

/*
 * A temporary file beside final, open for writing, with the mode and (where
 * allowed: root's run) the owner of the file it replaces, or a new file's mode.
 */
static int open_temp(struct atomic_file *a, const struct stat *old, char *err, size_t errlen)
{
	char *dir = xstrdup(a->final, "the output file's name");
	char *base = xstrdup(a->final, "the output file's name");
	int fd;

	if (asprintf(&a->temp, "%s/.%s.XXXXXX", dirname(dir), basename(base)) < 0)
		out_of_memory("the output file's name");
	free(dir);
	free(base);
	fd = mkostemp(a->temp, O_CLOEXEC);
	if (fd < 0) {
		free(a->temp);
		a->temp = NULL;
		return fail(a, err, errlen, "%s", strerror(errno));
	}
	temps_set(NULL, a->temp);
	if (!cleanup_registered) /* exit() before the rename (out of memory, say) leaves none behind */
		cleanup_registered = atexit(atomic_file_remove_temps) == 0;
	if (old && fchown(fd, old->st_uid, old->st_gid) && errno != EPERM) {
		close(fd);
		return fail(a, err, errlen, "%s", strerror(errno));
	}
	if (fchmod(fd, old ? old->st_mode & 07777 : new_file_mode()) ||
	    !(a->f = fdopen(fd, "w"))) {
		close(fd);
		return fail(a, err, errlen, "%s", strerror(errno));
	}
	a->path = a->temp;
	return 0;
}

/*
 * The file a name that does not exist yet stands for: the name itself, or,
 * through symbolic links that lead nowhere yet, the name the last one gives
 * (the link stays a link, as when its file exists).  NULL with errno set
 * where the links loop.
 */
static char *dangling_target(const char *target)
{
	char *name = xstrdup(target, "the output file's name");
	struct stat st;

	for (int hops = 0; lstat(name, &st) == 0 && S_ISLNK(st.st_mode); hops++) {
		char link[4096], *next, *dir;
		ssize_t n = readlink(name, link, sizeof(link) - 1);

		if (hops == 40 || n < 0) {
			free(name);
			errno = n < 0 ? errno : ELOOP;
			return NULL;
		}
		link[n] = '\0';
		if (link[0] == '/') {
			next = xstrdup(link, "the output file's name");
		} else { /* from the link's own directory */
			dir = dirname(name);
			if (asprintf(&next, "%s/%s", dir, link) < 0)
				out_of_memory("the output file's name");
		}
		free(name);
		name = next;
	}
	return name;
}

int atomic_file_open(struct atomic_file *a, const char *target, char *err, size_t errlen)
{
	struct stat st;

	memset(a, 0, sizeof(*a));
	a->target = target;
	if (stat(target, &st) == 0 && !S_ISREG(st.st_mode)) {
		a->path = target;
		a->f = fopen(target, "w");
		return a->f ? 0 : fail(a, err, errlen, "%s", strerror(errno));
	}
	/* Through a symbolic link, the file it names is replaced, not the link. */
	a->final = realpath(target, NULL);
	if (a->final)
		return stat(a->final, &st) ? fail(a, err, errlen, "%s", strerror(errno))
					   : open_temp(a, &st, err, errlen);
	if (errno == ENOMEM)
		out_of_memory("the output file's name");
	if (errno != ENOENT)
		return fail(a, err, errlen, "%s", strerror(errno));
	a->final = dangling_target(target);
	if (!a->final)
		return fail(a, err, errlen, "%s", strerror(errno));
	return open_temp(a, NULL, err, errlen);
}

/* The directory entry too, so the rename survives a crash. */
static void sync_dir(const char *file)
{
	char *copy = strdup(file);
	int fd = copy ? open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(copy);
}

int atomic_file_commit(struct atomic_file *a, char *err, size_t errlen)
{
	FILE *f = a->f;
	int failed;

	a->f = NULL;
	failed = fflush(f) != 0 || ferror(f);
	if (failed) {
		fclose(f);
		return fail(a, err, errlen, "%s", strerror(errno ? errno : EIO));
	}
	/* A terminal or a pipe cannot be synced: in place, only the close is checked. */
	if (a->temp && fsync(fileno(f))) {
		fclose(f);
		return fail(a, err, errlen, "%s", strerror(errno));
	}
	if (fclose(f))
		return fail(a, err, errlen, "%s", strerror(errno));
	if (a->temp && rename(a->temp, a->final))
		return fail(a, err, errlen, "%s", strerror(errno));
	if (a->temp) {
		temps_set(a->temp, NULL);
		sync_dir(a->final);
	}
	free(a->temp);
	free(a->final);
	memset(a, 0, sizeof(*a));
	return 0;
}

void atomic_file_discard(struct atomic_file *a)
{
	if (a->f)
		fclose(a->f);
	if (a->temp) {
		temps_set(a->temp, NULL);
		unlink(a->temp);
	}
	free(a->temp);
	free(a->final);
	memset(a, 0, sizeof(*a));
}
