// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Placement of a chain's nodes on CPUs (see plan.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

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

static unsigned int nr_user_vnfs(const struct calvin_chain_spec *spec)
{
	unsigned int i, n = 0;

	for (i = 0; i < spec->nr_vnfs; i++)
		n += spec->vnfs[i].space == CALVIN_USER;
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
	unsigned int need = nr_user_vnfs(spec), have, i, k = 0;
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
				 "placement %s needs %u %score%s for user VNFs besides housekeeping "
				 "CPU %d, this host has %u; set 'allow-sharing: true' or "
				 "'placement: shared'%s",
				 calvin_placement_name(spec->placement), need,
				 spec->placement == CALVIN_PLACE_ISOLATED ? "isolated " : "",
				 need > 1 ? "s" : "", p->housekeeping, have,
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
		if (spec->vnfs[i].space == CALVIN_USER)
			p->vnf_cpu[i] = cpus[k++ % have];
	return 0;
}
