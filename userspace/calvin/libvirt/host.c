// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Another host's CPUs and NUMA nodes, read through its libvirt:
 * virConnectGetCapabilities() for the topology (userspace/lib/plan/caps.c
 * reads it), virNodeGetCPUMap() for which CPUs are online now, and the
 * <cputune> of every calvin domain there for the cores other chains hold.
 * Those domains, not this host's journals, say what is held: a chain up
 * from another calvin (another controller host) holds cores there too,
 * and a domain's pins are what its host applies. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "host.h"
#include "lv.h"

/* The holds of every calvin domain but chain own's, defined or running. */
static int read_holds(virConnectPtr conn, const char *own, struct calvin_topology *t, char *why,
		      size_t len)
{
	virDomainPtr *doms = NULL;
	int nr, i, err = 0;
	char *xml;

	nr = virConnectListAllDomains(conn, &doms, 0);
	if (nr < 0) {
		snprintf(why, len, "its libvirt does not list its domains: %s", lv_error());
		return -EIO;
	}
	for (i = 0; i < nr; i++) {
		xml = err ? NULL : virDomainGetXMLDesc(doms[i], 0);
		/* a domain removed since it was listed holds nothing */
		if (xml && calvin_holds_from_domain(xml, own, t, why, len) < 0)
			err = -EINVAL;
		free(xml);
		virDomainFree(doms[i]);
	}
	free(doms);
	return err;
}

int lv_host_topology(const char *uri, const char *own, struct calvin_topology *t, char *why,
		     size_t len)
{
	unsigned char *map = NULL;
	unsigned int online = 0;
	virConnectPtr conn;
	char *caps;
	int nr, c, err;

	err = lv_open_quiet(uri, &conn, why, len);
	if (err == -ECONNREFUSED)
		snprintf(why, len, "cannot reach its libvirt: %s; check that libvirtd runs there",
			 lv_error());
	if (err)
		return err;
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
	return read_holds(conn, own, t, why, len);
}
