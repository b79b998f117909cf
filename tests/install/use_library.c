/* SPDX-License-Identifier: MIT */
/* A user's program built against an installed libcopyperf through pkg-config. */
#include <stdio.h>
#include <string.h>
#include <copyperf.h>

int main(void)
{
	char src[300], dst[300];
	const struct copyperf_routine *r = copyperf_routine_find("copyperf_memcpy");

	for (size_t i = 0; i < sizeof(src); i++)
		src[i] = (char)(i * 7 + 1);
	if (copyperf_memcpy(dst, src, sizeof(src)) != dst || memcmp(dst, src, sizeof(src)))
		return 1;
	memmove(src + 1, src, 200);
	if (copyperf_memmove(dst + 1, dst, 200) != dst + 1 || memcmp(dst, src, sizeof(src)))
		return 1;
	if (!r || !copyperf_routine_available(r))
		return 1;
	printf("libcopyperf %s, %zu routines\n", copyperf_version(), copyperf_routine_count());
	return 0;
}
