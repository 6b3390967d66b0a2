// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Another host's CPUs and NUMA nodes, read through its libvirt:
 * virConnectGetCapabilities() for the topology (userspace/lib/plan/caps.c
 * reads it) and virNodeGetCPUMap() for which CPUs are online now. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "host.h"
#include "lv.h"

int lv_host_topology(const char *uri, struct calvin_topology *t, char *why, size_t len)
{
	unsigned char *map = NULL;
	unsigned int online = 0;
	virConnectPtr conn;
	char *caps;
	int nr, c, err;

	if (lv_open(uri, &conn)) {
		snprintf(why, len, "cannot reach its libvirt: %s", lv_error());
		return -ECONNREFUSED;
	}
	caps = virConnectGetCapabilities(conn);
	if (!caps) {
		snprintf(why, len, "its libvirt gave no capabilities: %s", lv_error());
		return -EIO;
	}
	err = calvin_topology_from_caps(caps, t, why, len);
	free(caps);
	if (err)
		return err;
	nr = virNodeGetCPUMap(conn, &map, &online, 0);
	for (c = 0; map && c < nr && c < CALVIN_MAX_CPUS; c++)
		if (!VIR_CPU_USED(map, c))
			calvin_cpumask_clear(&t->online, c);
	free(map);
	t->affinity = t->online;
	t->cpuset = t->online;
	return 0;
}
