// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The host as the planner sees it (struct calvin_topology, see plan.h): a
 * base description to fill, the CPUs of a core or a NUMA node, the CPUs a
 * VNF may use, and the housekeeping set left by other chains. */
#include <string.h>

#include "plan/plan.h"

void calvin_topology_init(struct calvin_topology *t, unsigned int nr_cpus)
{
	unsigned int c;

	memset(t, 0, sizeof(*t));
	t->nr_cpus = nr_cpus < CALVIN_MAX_CPUS ? nr_cpus : CALVIN_MAX_CPUS;
	for (c = 0; c < CALVIN_MAX_CPUS; c++) {
		t->core[c] = (int)c;
		t->node[c] = -1;
		if (c < t->nr_cpus)
			calvin_cpumask_set(&t->online, c);
	}
	t->affinity = t->online;
	t->cpuset = t->online;
}

static unsigned int cpus_where(const struct calvin_topology *t, const int *of, int v,
			       struct calvin_cpumask *out)
{
	int c;

	memset(out, 0, sizeof(*out));
	for (c = 0; c < (int)t->nr_cpus; c++)
		if (of[c] == v && calvin_cpumask_isset(&t->online, c))
			calvin_cpumask_set(out, (unsigned int)c);
	return calvin_cpumask_count(out);
}

unsigned int calvin_topology_core_cpus(const struct calvin_topology *t, int core,
				       struct calvin_cpumask *out)
{
	return cpus_where(t, t->core, core, out);
}

unsigned int calvin_topology_node_cpus(const struct calvin_topology *t, int node,
				       struct calvin_cpumask *out)
{
	return cpus_where(t, t->node, node, out);
}

/* The default affinity of every task leaves isolcpus= CPUs out (the kernel
 * moves init to the housekeeping CPUs), and a cgroup v2 isolated partition
 * takes its CPUs out of its parent's cpuset: neither keeps a VNF from being
 * placed there (by affinity, or by joining the partition). */
void calvin_plan_usable(const struct calvin_topology *t, struct calvin_cpumask *out)
{
	struct calvin_cpumask s;

	calvin_cpumask_or(&s, &t->affinity, &t->isolcpus);
	calvin_cpumask_and(&s, &s, &t->cpuset);
	calvin_cpumask_or(&s, &s, &t->partitions);
	calvin_cpumask_and(out, &s, &t->online);
}

void calvin_plan_housekeeping_now(const struct calvin_topology *t, struct calvin_cpumask *hk)
{
	struct calvin_cpumask left = *hk;
	unsigned int i;

	for (i = 0; i < t->nr_holds; i++)
		if (t->holds[i].kind != CALVIN_HOLD_HOUSEKEEPING && t->holds[i].cpu >= 0)
			calvin_cpumask_clear(&left, (unsigned int)t->holds[i].cpu);
	if (!calvin_cpumask_empty(&left))
		*hk = left;
}
