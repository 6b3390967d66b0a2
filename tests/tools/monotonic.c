// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Test tool: print CLOCK_MONOTONIC in nanoseconds, the clock of the hop
 * records of netns nodes (bpf_ktime_get_ns() in XDP, clock_gettime() in
 * calvin-vnf), so a test can place a moment of its own among them. */
#include <stdio.h>
#include <time.h>

int main(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		return 1;
	printf("%llu\n",
	       (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec);
	return 0;
}
