/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>
#include "routine_names.h"

void unknown_routine_error(char *err, size_t errlen, const char *kind, const char *name,
			   const char *const *valid, size_t n_valid)
{
	char list[1024] = "";

	for (size_t i = 0; i < n_valid; i++)
		if (strlen(list) + strlen(valid[i]) + 3 < sizeof(list))
			strcat(strcat(list, i ? ", " : ""), valid[i]);
	snprintf(err, errlen, "--routines: unknown %s '%s' (valid: %s)", kind, name, list);
}
