/* SPDX-License-Identifier: MIT */
/*
 * A client of /dev/copyperf built against the installed <copyperf_ioctl.h>
 * alone: prints the ABI version it was built for and the measuring request.
 */
#include <stdio.h>
#include <copyperf_ioctl.h>

int main(void)
{
	struct copyperf_version v = { 0 };

	printf("%d %lu %zu\n", COPYPERF_ABI_VERSION, (unsigned long)COPYPERF_IOC_MEASURE, sizeof(v));
	return 0;
}
