/* SPDX-License-Identifier: MIT */
/*
 * The distribution files a run reads: what each -d word names (shipped call mixes by name or
 * family, a file of one's own, or the two files of a recording), and the data directory the
 * shipped ones are found in.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "distribution_files.h"

#define N_SHIPPED 20

static const char valid_words[] = "fleet, memcpy, memmove, all, memcpy_0..8, memcpy_fleet, "
				  "memmove_0..8, memmove_fleet";

/* Shipped file i: Memcpy_0 ... Memcpy_8, Memcpy_Fleet, then the ten Memmove ones alike. */
static void shipped_stem(unsigned i, char *stem, size_t len)
{
	const char *family = i < 10 ? "Memcpy" : "Memmove";

	if (i % 10 < 9)
		snprintf(stem, len, "%s_%u", family, i % 10);
	else
		snprintf(stem, len, "%s_Fleet", family);
}

static int is_type(const char *path, mode_t type)
{
	struct stat st;

	return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == type;
}

/* A directory holds them when every one is there: a half-installed one is passed over. */
static int holds_all(const char *dir)
{
	char path[PATH_MAX], stem[16];

	for (unsigned i = 0; i < N_SHIPPED; i++) {
		shipped_stem(i, stem, sizeof(stem));
		if ((size_t)snprintf(path, sizeof(path), "%s/%s.csv", dir, stem) >= sizeof(path) ||
		    !is_type(path, S_IFREG))
			return 0;
	}
	return 1;
}

/* The places looked in without COPYPERF_DATADIR, in order, and which held them: found once. */
static struct {
	int searched;
	unsigned n, found; /* found: index + 1, or 0 */
	char dirs[3][PATH_MAX];
} search;

static void look_in(const char *dir)
{
	if ((size_t)snprintf(search.dirs[search.n], PATH_MAX, "%s/distributions", dir) < PATH_MAX)
		search.n++;
}

static void search_once(void)
{
	char exe[PATH_MAX];
	ssize_t len;

	if (search.searched)
		return;
	search.searched = 1;
	/* An installed <prefix>/bin/copyperf, wherever the prefix was moved: <prefix>/share */
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = '\0';
		*strrchr(exe, '/') = '\0';
		if (strrchr(exe, '/'))
			*strrchr(exe, '/') = '\0';
		if (strlen(exe) + sizeof("/share/copyperf") <= sizeof(exe)) {
			strcat(exe, "/share/copyperf");
			look_in(exe);
		}
	}
#ifdef COPYPERF_DATADIR_DEFAULT
	look_in(COPYPERF_DATADIR_DEFAULT);
#endif
#ifdef COPYPERF_SOURCE_DATA
	look_in(COPYPERF_SOURCE_DATA); /* a command run from its build tree */
#endif
	for (unsigned i = 0; i < search.n && !search.found; i++)
		if (holds_all(search.dirs[i]))
			search.found = i + 1;
}

/* COPYPERF_DATADIR is read at each call, so a caller (or a test) may change it between them. */
const char *distribution_dir(void)
{
	static char from_env[PATH_MAX];
	const char *env = getenv("COPYPERF_DATADIR");

	if (env && *env)
		return (size_t)snprintf(from_env, sizeof(from_env), "%s/distributions", env) <
				       sizeof(from_env) && is_type(from_env, S_IFDIR) ?
			       from_env :
			       NULL;
	search_once();
	return search.found ? search.dirs[search.found - 1] : NULL;
}

/* Why distribution_dir() is NULL: where it looked. */
static void not_found(const char *word, char *err, size_t errlen)
{
	const char *env = getenv("COPYPERF_DATADIR");
	char looked[3 * PATH_MAX + 8] = "";

	if (env && *env) {
		snprintf(err, errlen, "--distribution: '%s': COPYPERF_DATADIR=%s has no distributions/",
			 word, env);
		return;
	}
	for (unsigned i = 0; i < search.n; i++)
		strcat(strcat(looked, i ? ", " : ""), search.dirs[i]);
	snprintf(err, errlen,
		 "--distribution: '%s': the shipped distributions are in none of %s; set "
		 "COPYPERF_DATADIR to the directory that holds distributions/",
		 word, looked);
}

/* Appends one (name, path) pair; the arrays grow one at a time, as -d words are few. */
static int append(char ***names, char ***paths, size_t *n, const char *name, const char *path)
{
	char **grown_names = realloc(*names, (*n + 1) * sizeof(**names));
	char **grown_paths = grown_names ? realloc(*paths, (*n + 1) * sizeof(**paths)) : NULL;
	char *name_copy = grown_paths ? strdup(name) : NULL;
	char *path_copy = name_copy ? strdup(path) : NULL;

	if (grown_names)
		*names = grown_names;
	if (grown_paths)
		*paths = grown_paths;
	if (!path_copy) {
		free(name_copy);
		return -1;
	}
	(*names)[*n] = name_copy;
	(*paths)[(*n)++] = path_copy;
	return 0;
}

/* The shipped files a word names: [*first, *first + *count).  Returns 0 if it names none. */
static int shipped_range(const char *word, unsigned *first, unsigned *count)
{
	char stem[16];

	*first = 0;
	*count = 10;
	if (!strcasecmp(word, "all"))
		*count = N_SHIPPED;
	else if (!strcasecmp(word, "memmove"))
		*first = 10;
	else if (strcasecmp(word, "memcpy")) {
		*count = 1;
		*first = strcasecmp(word, "fleet") ? N_SHIPPED : 9;
		for (unsigned i = 0; i < N_SHIPPED && *first == N_SHIPPED; i++) {
			shipped_stem(i, stem, sizeof(stem));
			if (!strcasecmp(word, stem))
				*first = i;
		}
	}
	return *first < N_SHIPPED;
}

static int no_memory(char *err, size_t errlen)
{
	snprintf(err, errlen, "--distribution: out of memory");
	return -1;
}

/*
 * A recording: COPYPERF_RECORD=FILE writes FILE.memcpy and FILE.memmove (only those its
 * program called), and -d FILE takes those there are, each a mix of its own named by its
 * path, so that each is replayed with the routines of its contract.  Returns 1 if word
 * names one, 0 if not, -1 with the error set.
 */
static int recording(const char *word, char ***names, char ***paths, size_t *n, char *err,
		     size_t errlen)
{
	static const char *const suffix[] = { ".memcpy", ".memmove" };
	char path[PATH_MAX];
	int found = 0;

	for (unsigned i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		if ((size_t)snprintf(path, sizeof(path), "%s%s", word, suffix[i]) >= sizeof(path) ||
		    !is_type(path, S_IFREG))
			continue;
		if (append(names, paths, n, path, path))
			return no_memory(err, errlen);
		found = 1;
	}
	return found;
}

int distribution_expand(const char *word, char ***names, char ***paths, size_t *n, char *err,
			size_t errlen)
{
	char stem[16], path[PATH_MAX];
	unsigned first, count;
	const char *dir;

	if (!shipped_range(word, &first, &count)) {
		int recorded;

		if (is_type(word, S_IFREG))
			return append(names, paths, n, word, word) ? no_memory(err, errlen) : 0;
		recorded = recording(word, names, paths, n, err, errlen);
		if (recorded)
			return recorded < 0 ? -1 : 0;
		snprintf(err, errlen,
			 "--distribution: '%s' is not a shipped distribution (%s), a readable file "
			 "or a recording (%s.memcpy, %s.memmove)",
			 word, valid_words, word, word);
		return -1;
	}
	dir = distribution_dir();
	if (!dir) {
		not_found(word, err, errlen);
		return -1;
	}
	for (unsigned i = first; i < first + count; i++) {
		shipped_stem(i, stem, sizeof(stem));
		if ((size_t)snprintf(path, sizeof(path), "%s/%s.csv", dir, stem) >= sizeof(path)) {
			snprintf(err, errlen, "--distribution: '%s': %s is too long a path", word,
				 dir);
			return -1;
		}
		for (char *c = stem; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		if (append(names, paths, n, stem, path))
			return no_memory(err, errlen);
	}
	return 0;
}

int distribution_load(char *const *words, size_t n_words, struct distribution **out, size_t *n,
		      char *err, size_t errlen)
{
	char **names = NULL, **paths = NULL;
	size_t found = 0, read = 0;
	int status = 0;

	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < n_words && !status; i++)
		status = distribution_expand(words[i], &names, &paths, &found, err, errlen);
	/* fleet and memcpy_fleet, all and memcpy_3: one mix measured twice would be one point twice */
	for (size_t i = 0; i < found && !status; i++)
		for (size_t k = 0; k < i && !status; k++)
			if (!strcmp(names[k], names[i])) {
				snprintf(err, errlen, "--distribution: %s is given twice", names[i]);
				status = -1;
			}
	if (!status && !(*out = calloc(found + 1, sizeof(**out)))) {
		snprintf(err, errlen, "--distribution: out of memory");
		status = -1;
	}
	for (; read < found && !status; read++)
		status = distribution_read(&(*out)[read], paths[read], names[read], err, errlen);
	for (size_t i = 0; i < found; i++) {
		free(names[i]);
		free(paths[i]);
	}
	free(names);
	free(paths);
	if (status) { /* the one that failed left itself zeroed */
		distributions_free(*out, read);
		*out = NULL;
		return -1;
	}
	*n = found;
	return 0;
}

void distributions_free(struct distribution *d, size_t n)
{
	for (size_t i = 0; d && i < n; i++)
		distribution_free(&d[i]);
	free(d);
}
