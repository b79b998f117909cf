/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef COPYPERF_NO_DLOPEN
#include <dlfcn.h>
#endif
#include "shared_routine.h"

#define OVERLAP_SUFFIX ":overlap"

bool shared_routine_spec(const char *name)
{
	const char *slash = strrchr(name, '/');

	return slash && strchr(slash, ':');
}

#ifdef COPYPERF_NO_DLOPEN
const struct copyperf_routine *shared_routine_load(const char *spec, char *err, size_t errlen)
{
	snprintf(err, errlen, "'%s': a statically linked copyperf cannot open shared objects", spec);
	return NULL;
}
#else
/* dlerror()'s text on one line: the reason a loader gives may hold a newline. */
static void one_line(char *s)
{
	for (; *s; s++)
		if (*s == '\n' || *s == '\r')
			*s = ' ';
}

const struct copyperf_routine *shared_routine_load(const char *spec, char *err, size_t errlen)
{
	const struct copyperf_routine *known = copyperf_routine_find(spec);
	struct copyperf_routine *r;
	char *file, *symbol, *suffix;
	size_t len = strlen(spec), suffix_len = strlen(OVERLAP_SUFFIX);
	bool overlap = len > suffix_len && strcmp(spec + len - suffix_len, OVERLAP_SUFFIX) == 0;
	void *handle, *fn;
	char *why, desc[512];

	if (known)
		return known;
	file = strdup(spec);
	if (!file) {
		snprintf(err, errlen, "'%s': out of memory", spec);
		return NULL;
	}
	if (overlap) { /* FILE:overlap alone names a symbol 'overlap' */
		file[len - suffix_len] = '\0';
		overlap = strchr(strrchr(file, '/'), ':') != NULL;
		if (!overlap)
			file[len - suffix_len] = ':';
	}
	symbol = strchr(strrchr(file, '/'), ':'); /* the first after the last '/': shared_routine_spec */
	*symbol++ = '\0';
	suffix = strchr(symbol, ':');
	if (!*symbol || suffix) {
		snprintf(err, errlen, "'%s': not FILE:SYMBOL or FILE:SYMBOL:overlap", spec);
		free(file);
		return NULL;
	}
	handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		why = dlerror();
		snprintf(err, errlen, "'%s': cannot open %s: %s", spec, file, why ? why : "unknown reason");
		one_line(err);
		free(file);
		return NULL;
	}
	dlerror();
	fn = dlsym(handle, symbol);
	if (!fn) {
		snprintf(err, errlen, "'%s': %s has no symbol '%s'", spec, file, symbol);
		free(file);
		dlclose(handle);
		return NULL;
	}
	snprintf(desc, sizeof(desc), "%s from %s (%s contract)", symbol, file,
		 overlap ? "memmove's" : "memcpy's");
	r = calloc(1, sizeof(*r));
	if (r) {
		r->name = strdup(spec);
		r->description = strdup(desc);
		r->fn = (copyperf_copy_fn)fn;
		r->flags = overlap ? COPYPERF_OVERLAP_OK : 0;
	}
	free(file);
	if (!r || !r->name || !r->description || copyperf_routine_register(r)) {
		snprintf(err, errlen, "'%s': cannot register it (out of memory, or the registry is full)",
			 spec);
		if (r) {
			free((char *)r->name);
			free((char *)r->description);
			free(r);
		}
		return NULL;
	}
	return r; /* the object stays open: the routine is called until the program ends */
}
#endif

const struct copyperf_routine *shared_routine_named(const char *name, char *err, size_t errlen)
{
	const struct copyperf_routine *r = copyperf_routine_find(name);

	if (r == NULL && shared_routine_spec(name))
		return shared_routine_load(name, err, errlen);
	if (r == NULL || !copyperf_routine_available(r)) {
		snprintf(err, errlen, "%s: no such routine on this CPU", name);
		return NULL;
	}
	return r;
}
