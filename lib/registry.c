/* SPDX-License-Identifier: MIT */
/*
 * The routine registry: every copy the command can measure, by name.
 * Built-in routines come from fixed tables; programs may append their own.
 */
#include <string.h>
#include "internal.h"
#include "generic/copy_compat.h"

static const struct copyperf_routine builtin_routines[] = {
	{ "memcpy", "the C library's memcpy", memcpy, NULL, 0 },
	{ "memmove", "the C library's memmove", memmove, NULL, COPYPERF_OVERLAP_OK },
	{ "bytes", "a plain loop, one byte load and store at a time", copyperf_byte_copy, NULL, 0 },
	{ "words", "a plain loop, one machine word at a time (destination aligned)",
	  copyperf_word_copy, NULL, 0 },
};

static const struct copyperf_routine library_routines[] = {
	{ "copyperf_memcpy", "libcopyperf's memcpy", copyperf_memcpy, NULL, 0 },
	{ "copyperf_memmove", "libcopyperf's memmove", copyperf_memmove, NULL, COPYPERF_OVERLAP_OK },
	{ "copyperf_generic_memcpy", "libcopyperf's portable C memcpy (also in the kernel module)",
	  copyperf_generic_memcpy, NULL, 0 },
	{ "copyperf_generic_memmove", "libcopyperf's portable C memmove", copyperf_generic_memmove,
	  NULL, COPYPERF_OVERLAP_OK },
};

#define N_BUILTIN (sizeof(builtin_routines) / sizeof(builtin_routines[0]))
#define N_LIBRARY (sizeof(library_routines) / sizeof(library_routines[0]))
#define MAX_REGISTERED 64

static const struct copyperf_routine *registered[MAX_REGISTERED];
static size_t n_registered;

size_t copyperf_routine_count(void)
{
	return N_BUILTIN + copyperf_arch_routine_count + N_LIBRARY + n_registered;
}

const struct copyperf_routine *copyperf_routine_at(size_t i)
{
	if (i < N_BUILTIN)
		return &builtin_routines[i];
	i -= N_BUILTIN;
	if (i < copyperf_arch_routine_count)
		return &copyperf_arch_routines[i];
	i -= copyperf_arch_routine_count;
	if (i < N_LIBRARY)
		return &library_routines[i];
	i -= N_LIBRARY;
	return i < n_registered ? registered[i] : NULL;
}

const struct copyperf_routine *copyperf_routine_find(const char *name)
{
	for (size_t i = 0; i < copyperf_routine_count(); i++) {
		const struct copyperf_routine *r = copyperf_routine_at(i);

		if (strcmp(r->name, name) == 0)
			return r;
	}
	return NULL;
}

int copyperf_routine_available(const struct copyperf_routine *r)
{
	return r->available == NULL || r->available();
}

int copyperf_routine_register(const struct copyperf_routine *r)
{
	if (r == NULL || r->name == NULL || r->fn == NULL || copyperf_routine_find(r->name) ||
	    n_registered == MAX_REGISTERED)
		return -1;
	registered[n_registered++] = r;
	return 0;
}

const char *copyperf_version(void)
{
	return COPYPERF_VERSION;
}
