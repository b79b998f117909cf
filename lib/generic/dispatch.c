/* SPDX-License-Identifier: MIT */
/* Where no architecture directory chooses a variant, there is one: the portable C copy. */
#include "../internal.h"

const char *copyperf_describe(void)
{
	return "generic variant (portable C, lib/generic): no thresholds";
}
