// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The planner's rules: which CPUs a VNF may have at each level and which
 * housekeeping may use, and which VNFs need a core at all; shared by the
 * placing (plan.c) and what it says when a VNF cannot have its level
 * (plan_explain.c). */
#include <string.h>

#include "plan_priv.h"

/* A CPU housekeeping may use: not nohz_full, not isolated, not another
 * chain's VNF core, no VNF of this chain on it unless it shares
 * housekeeping, no isolated VNF core beside it. */
bool plan_hk_eligible(const struct planner *pl, int c)
{
	const struct calvin_topology *t = pl->t;

	return calvin_cpumask_isset(&pl->usable, c) && !calvin_cpumask_isset(&t->nohz_full, c) &&
	       !calvin_cpumask_isset(&pl->isolated, c) && !calvin_cpumask_isset(&pl->held_vnf, c) &&
	       !calvin_cpumask_isset(&pl->placed, c) && !pl->core_isolated[t->core[c]];
}

int calvin_plan_host_of(const struct calvin_chain_spec *spec, unsigned int i)
{
	const struct calvin_host_spec *h = calvin_spec_host(spec, spec->vnfs[i].host);

	if (!strcmp(spec->vnfs[i].host, CALVIN_LOCAL_HOST) || !spec->vnfs[i].host[0])
		return 0;
	return h ? (int)(h - spec->hosts) + 1 : -1;
}

bool plan_on_host(const struct planner *pl, unsigned int i)
{
	return calvin_plan_host_of(pl->spec, i) == pl->host;
}

int plan_nic_of(const struct planner *pl, unsigned int vnf)
{
	return pl->nic_node ? pl->nic_node[vnf] : -1;
}

/* A core nobody uses, apart from SMT siblings. */
static bool free_core(const struct planner *pl, int c)
{
	return calvin_cpumask_isset(&pl->usable, c) && c != pl->hk && !pl->load[c] &&
	       !calvin_cpumask_isset(&pl->held, c);
}

bool plan_may_isolate(const struct planner *pl, unsigned int vnf, int c, bool numa)
{
	int nic = plan_nic_of(pl, vnf);

	return free_core(pl, c) && (calvin_cpumask_isset(&pl->isolated, c) || pl->run_time_ok) &&
	       !pl->core_busy[pl->t->core[c]] && (!numa || nic < 0 || pl->t->node[c] == nic);
}

bool plan_may_dedicate(const struct planner *pl, int c)
{
	return free_core(pl, c) && !pl->core_isolated[pl->t->core[c]];
}

/* Under libvirt each VM's vCPU 1 runs its VNFs, kernel ones included:
 * the first VNF of a node asks a core for its VM; the others on that node
 * run beside it (*follows). Elsewhere only user VNFs need cores: they poll. */
bool calvin_plan_needs_core(const struct calvin_chain_spec *spec, unsigned int i, bool *follows)
{
	bool vm = spec->backend == CALVIN_BACKEND_LIBVIRT;

	*follows = vm && i > 0 &&
		   !strcmp(calvin_vnf_node(&spec->vnfs[i]), calvin_vnf_node(&spec->vnfs[i - 1]));
	return !*follows && (vm || spec->vnfs[i].space == CALVIN_USER);
}
