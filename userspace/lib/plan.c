// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Placement of a chain's nodes on CPUs (see plan.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "topo.h"

int calvin_cpulist_parse(const char *s, bool set[CALVIN_MAX_CPUS])
{
	unsigned long a, b;
	char *end;

	memset(set, 0, CALVIN_MAX_CPUS * sizeof(bool));
	while (*s && *s != '\n') {
		a = strtoul(s, &end, 10);
		if (end == s)
			return -EINVAL;
		b = a;
		if (*end == '-') {
			s = end + 1;
			b = strtoul(s, &end, 10);
			if (end == s)
				return -EINVAL;
		}
		if (a > b || b >= CALVIN_MAX_CPUS)
			return -EINVAL;
		while (a <= b)
			set[a++] = true;
		s = end;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	return 0;
}

/* Under libvirt each VM's vCPU 1 needs a core, so the first VNF of each
 * node takes one and the others on that node run beside it. */
static bool vm_node_start(const struct calvin_chain_spec *spec, unsigned int i)
{
	return spec->backend == CALVIN_BACKEND_LIBVIRT &&
	       (i == 0 || strcmp(calvin_vnf_node(&spec->vnfs[i]), calvin_vnf_node(&spec->vnfs[i - 1])));
}

/* User VNFs busy-poll: a core each. */
static bool needs_core(const struct calvin_chain_spec *spec, unsigned int i)
{
	return spec->vnfs[i].space == CALVIN_USER || vm_node_start(spec, i);
}

static unsigned int nr_needing_cores(const struct calvin_chain_spec *spec)
{
	unsigned int i, n = 0;

	for (i = 0; i < spec->nr_vnfs; i++)
		n += needs_core(spec, i);
	return n;
}

/* Candidate CPUs, highest first (away from the housekeeping CPU). */
static unsigned int candidates(const struct calvin_topology *t, int hk, bool want_isolated,
			       int out[CALVIN_MAX_CPUS])
{
	unsigned int n = 0;
	int c;

	for (c = (int)t->nr_cpus - 1; c >= 0; c--)
		if (t->online[c] && c != hk && (!want_isolated || t->isolated[c]))
			out[n++] = c;
	return n;
}

int calvin_plan_make(const struct calvin_chain_spec *spec, const struct calvin_topology *t,
		     struct calvin_plan *p, char *err, size_t errlen)
{
	unsigned int need = nr_needing_cores(spec), have, i, k = 0;
	int cpus[CALVIN_MAX_CPUS], c, online = 0;

	memset(p, 0, sizeof(*p));
	p->policy = spec->placement;
	p->housekeeping = -1;
	for (c = 0; c < (int)t->nr_cpus; c++)
		if (t->online[c]) {
			if (p->housekeeping < 0)
				p->housekeeping = c;
			online++;
		}
	for (i = 0; i < CALVIN_MAX_VNFS; i++)
		p->vnf_cpu[i] = -1;
	if (p->housekeeping < 0) {
		snprintf(err, errlen, "no online CPU found");
		return -ENODEV;
	}
	if (spec->placement == CALVIN_PLACE_SHARED || need == 0)
		return 0;
	/* one CPU only: it has to be shared with housekeeping */
	have = online > 1 ? candidates(t, p->housekeeping, spec->placement == CALVIN_PLACE_ISOLATED,
				       cpus)
			  : 0;
	if (have < need) {
		if (!spec->allow_sharing) {
			snprintf(err, errlen,
				 "placement %s needs %u %score%s for %s besides housekeeping "
				 "CPU %d, this host has %u; set 'allow-sharing: true' or "
				 "'placement: shared'%s",
				 calvin_placement_name(spec->placement), need,
				 spec->placement == CALVIN_PLACE_ISOLATED ? "isolated " : "",
				 need > 1 ? "s" : "",
				 spec->backend == CALVIN_BACKEND_LIBVIRT ? "VMs" : "user VNFs",
				 p->housekeeping, have,
				 spec->placement == CALVIN_PLACE_ISOLATED
					 ? ", or isolate CPUs (isolcpus= nohz_full= on the kernel "
					   "command line)"
					 : "");
			return -ENOSPC;
		}
		/* sharing allowed: dedicated but not isolated cores first */
		if (spec->placement == CALVIN_PLACE_ISOLATED && online > 1)
			have = candidates(t, p->housekeeping, false, cpus);
		if (have == 0) {
			cpus[0] = p->housekeeping;
			have = 1;
		}
		p->shared = true;
	}
	for (i = 0; i < spec->nr_vnfs; i++)
		if (needs_core(spec, i))
			p->vnf_cpu[i] = cpus[k++ % have];
		else if (spec->backend == CALVIN_BACKEND_LIBVIRT)
			p->vnf_cpu[i] = p->vnf_cpu[i - 1];
	return 0;
}
