// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Placement of a chain's VNFs on CPUs (see plan.h).
 *
 * One housekeeping core is chosen first, then each user VNF in chain order
 * gets the best core for the level it asked for; with allow-sharing, a VNF
 * that cannot have its level goes down one level at a time (enum
 * calvin_grant). Among cores that qualify, the planner prefers in order:
 * for an isolated VNF, a core isolated already over one to isolate at run
 * time (its NIC's NUMA node is a must there), for the others a core on its
 * NIC's node; a whole core (no busy SMT sibling); a nohz_full core; the
 * NUMA node of the VNF before it (of housekeeping, for the first); a core
 * that is not isolated, for a VNF that did not ask for one; the highest
 * number (away from CPU 0, where the kernel does most of its own work). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "plan_priv.h"

static void planner_init(struct planner *pl, const struct calvin_chain_spec *spec,
			 const struct calvin_topology *t, const int *nic_node,
			 struct calvin_plan *p)
{
	const struct calvin_hold *h;
	unsigned int i;

	memset(pl, 0, sizeof(*pl));
	pl->spec = spec;
	pl->t = t;
	pl->nic_node = nic_node;
	pl->p = p;
	calvin_plan_usable(t, &pl->usable);
	calvin_cpumask_or(&pl->isolated, &t->isolcpus, &t->partitions);
	/* the admin chose which CPUs to isolate at boot: calvin adds none;
	 * on another host calvin isolates nothing */
	pl->run_time_ok = calvin_cpumask_empty(&t->isolcpus) && !t->remote;
	for (i = 0; i < t->nr_holds; i++) {
		h = &t->holds[i];
		if (h->cpu < 0 || h->cpu >= CALVIN_MAX_CPUS)
			continue;
		calvin_cpumask_set(&pl->held, (unsigned int)h->cpu);
		if (h->kind != CALVIN_HOLD_HOUSEKEEPING)
			calvin_cpumask_set(&pl->held_vnf, (unsigned int)h->cpu);
		pl->core_busy[t->core[h->cpu]]++;
		if (h->isolated)
			pl->core_isolated[t->core[h->cpu]] = true;
	}
	pl->hk = -1;
	pl->last_node = -1;
}

/* The core housekeeping keeps whatever happens: the lowest CPU that may
 * have it, preferring one no other chain's VNF shares. */
static int pick_housekeeping(const struct planner *pl)
{
	int c;

	for (c = 0; c < (int)pl->t->nr_cpus; c++)
		if (plan_hk_eligible(pl, c) && !calvin_cpumask_isset(&pl->held, c))
			return c;
	for (c = 0; c < (int)pl->t->nr_cpus; c++)
		if (plan_hk_eligible(pl, c))
			return c;
	return -1;
}

/* Higher is better; the CPU number breaks ties (higher first). */
static uint64_t score(const struct planner *pl, unsigned int vnf, int c, enum calvin_grant g)
{
	const struct calvin_topology *t = pl->t;
	int nic = plan_nic_of(pl, vnf), want = nic >= 0 ? nic : pl->last_node;
	uint64_t s = 0;

	if (g == CALVIN_GRANT_ISOLATED)
		s |= (uint64_t)calvin_cpumask_isset(&pl->isolated, c) << 5; /* isolated already */
	else
		s |= (uint64_t)(nic >= 0 && t->node[c] == nic) << 5;
	s |= (uint64_t)!pl->core_busy[t->core[c]] << 4;
	s |= (uint64_t)calvin_cpumask_isset(&t->nohz_full, c) << 3;
	s |= (uint64_t)(want >= 0 && t->node[c] == want) << 2;
	/* a pinned VNF leaves isolated cores to chains that ask for them */
	if (g != CALVIN_GRANT_ISOLATED)
		s |= (uint64_t)!calvin_cpumask_isset(&pl->isolated, c) << 1;
	return s << 16 | (uint64_t)c;
}

/* Sharing: the least loaded core, one that is not isolated first. */
static uint64_t share_score(const struct planner *pl, int c)
{
	return (uint64_t)(0xffff - pl->load[c]) << 20 |
	       (uint64_t)!calvin_cpumask_isset(&pl->isolated, c) << 16 | (uint64_t)c;
}

static bool qualifies(const struct planner *pl, unsigned int vnf, int c, enum calvin_grant g)
{
	switch (g) {
	case CALVIN_GRANT_ISOLATED:
		return plan_may_isolate(pl, vnf, c, true);
	case CALVIN_GRANT_DEDICATED:
		return plan_may_dedicate(pl, c);
	case CALVIN_GRANT_SHARED_CORE:
		return calvin_cpumask_isset(&pl->placed, c);
	case CALVIN_GRANT_SHARED:
		return plan_hk_eligible(pl, c) || c == pl->hk;
	default:
		return false;
	}
}

/* The best CPU for VNF vnf at level g, or -1. */
static int pick(const struct planner *pl, unsigned int vnf, enum calvin_grant g)
{
	uint64_t best = 0, s;
	int c, cpu = -1;

	for (c = 0; c < (int)pl->t->nr_cpus; c++) {
		if (!qualifies(pl, vnf, c, g))
			continue;
		s = g >= CALVIN_GRANT_SHARED_CORE ? share_score(pl, c) : score(pl, vnf, c, g);
		if (cpu < 0 || s > best) {
			best = s;
			cpu = c;
		}
	}
	return cpu;
}

static void append_why(struct calvin_vnf_place *v, const char *why)
{
	size_t n = strlen(v->why);

	snprintf(v->why + n, sizeof(v->why) - n, "%s%s", n ? "; " : "", why);
}

/* The VNF that owned cpu gives it up to share it with another one. */
static void unown(struct planner *pl, int cpu)
{
	struct calvin_vnf_place *v;
	unsigned int i;

	for (i = 0; i < pl->p->nr_vnfs; i++) {
		v = &pl->p->vnf[i];
		if (v->cpu != cpu || !v->owns)
			continue;
		v->owns = false;
		v->granted = CALVIN_GRANT_SHARED_CORE;
		append_why(v, "a later VNF shares its core");
	}
}

static void assign(struct planner *pl, unsigned int vnf, enum calvin_grant g, int c)
{
	struct calvin_vnf_place *v = &pl->p->vnf[vnf];
	const struct calvin_topology *t = pl->t;

	v->cpu = c;
	v->granted = g;
	v->owns = g <= CALVIN_GRANT_DEDICATED;
	if (calvin_cpumask_isset(&pl->isolated, c))
		v->isolation = CALVIN_ISOL_NOW;
	else if (g == CALVIN_GRANT_ISOLATED || calvin_cpumask_isset(&pl->p->isolate, c))
		v->isolation = CALVIN_ISOL_RUN_TIME;
	if (g == CALVIN_GRANT_ISOLATED) {
		pl->core_isolated[t->core[c]] = true;
		if (v->isolation == CALVIN_ISOL_RUN_TIME)
			calvin_cpumask_set(&pl->p->isolate, (unsigned int)c);
	}
	if (g == CALVIN_GRANT_SHARED_CORE)
		unown(pl, c);
	if (g != CALVIN_GRANT_SHARED)
		calvin_cpumask_set(&pl->placed, (unsigned int)c);
	if (!pl->load[c]++)
		pl->core_busy[t->core[c]]++;
	pl->last_node = t->node[c];
}

/* Place user VNF i: its level, or with allow-sharing the first one below
 * that the host can give. */
static int place(struct planner *pl, unsigned int i, char *err, size_t errlen)
{
	struct calvin_vnf_place *v = &pl->p->vnf[i];
	enum calvin_grant g;
	char why[CALVIN_WHY_MAX];
	int c = -1;

	for (g = v->asked; g <= CALVIN_GRANT_SHARED; g++) {
		c = pick(pl, i, g);
		if (c >= 0)
			break;
		if (!pl->spec->allow_sharing) {
			plan_explain_missing(pl, i, g, err, errlen);
			return -ENOSPC;
		}
		plan_why_not(pl, i, g, why, sizeof(why));
		append_why(v, why);
	}
	assign(pl, i, g, c);
	return 0;
}

static enum calvin_grant asked_of(enum calvin_placement p)
{
	if (p == CALVIN_PLACE_ISOLATED)
		return CALVIN_GRANT_ISOLATED;
	return p == CALVIN_PLACE_PINNED ? CALVIN_GRANT_DEDICATED : CALVIN_GRANT_SHARED;
}

/* How a placed user VNF waits, from what shares its core (plan.h). */
static enum calvin_plan_wait wait_of(const struct calvin_vnf_place *v)
{
	if (v->owns)
		return CALVIN_PLAN_WAIT_BUSY;
	if (v->granted == CALVIN_GRANT_SHARED_CORE)
		return CALVIN_PLAN_WAIT_YIELD;
	return CALVIN_PLAN_WAIT_WAKEUP;
}

/* VNFs of the chain that take turns on a core with nothing else of
 * calvin's poll it from one process when there are two or more of them
 * and the chain does not ask otherwise (shared-core): each VNF in a node
 * of its own on this host (netns), not each in a VM, and no more than
 * one process may run. A VNF alone of its chain on a core shared with
 * another chain's VNFs keeps yielding. */
static void loop_groups(const struct calvin_chain_spec *spec, struct calvin_plan *p)
{
	unsigned int i, j, n;

	if (spec->shared_core != CALVIN_SHARED_LOOP || spec->backend != CALVIN_BACKEND_NETNS)
		return;
	for (i = 0; i < p->nr_vnfs; i++) {
		if (p->vnf[i].wait != CALVIN_PLAN_WAIT_YIELD || p->vnf[i].host)
			continue;
		for (n = 0, j = 0; j < p->nr_vnfs; j++)
			n += (p->vnf[j].wait == CALVIN_PLAN_WAIT_YIELD ||
			      p->vnf[j].wait == CALVIN_PLAN_WAIT_LOOP) &&
			     p->vnf[j].cpu == p->vnf[i].cpu && !p->vnf[j].host;
		if (n > 1 && n <= CALVIN_PLAN_LOOP_MAX)
			p->vnf[i].wait = CALVIN_PLAN_WAIT_LOOP;
	}
}

/* Housekeeping: every core it may use once the VNFs are placed. */
static void finish(struct planner *pl)
{
	struct calvin_plan *p = pl->p;
	struct calvin_vnf_place *v;
	unsigned int i;
	int c;

	for (c = 0; c < (int)pl->t->nr_cpus; c++)
		if (c == pl->hk || plan_hk_eligible(pl, c))
			calvin_cpumask_set(&p->housekeeping, (unsigned int)c);
	for (i = 0; i < p->nr_vnfs; i++) {
		v = &p->vnf[i];
		if (v->granted == CALVIN_GRANT_SOFTIRQ)
			continue;
		v->wait = wait_of(v);
		p->nr_degraded += v->granted > v->asked;
	}
	loop_groups(pl->spec, p);
}

/* The plan of the VNFs on one host (host: see calvin_plan_host_of()); the
 * others are left as kernel VNFs, for calvin_plan_make_hosts() to fill. */
static int plan_on(const struct calvin_chain_spec *spec, int host, const struct calvin_topology *t,
		   const int *nic_node, struct calvin_plan *p, char *err, size_t errlen)
{
	struct planner pl;
	struct calvin_vnf_place *v;
	unsigned int i;
	bool follows;
	int rc;

	memset(p, 0, sizeof(*p));
	p->policy = spec->placement;
	p->nr_vnfs = spec->nr_vnfs;
	planner_init(&pl, spec, t, nic_node, p);
	pl.host = host;
	pl.hk = pick_housekeeping(&pl);
	if (pl.hk < 0) {
		plan_explain_no_housekeeping(&pl, err, errlen);
		return -ENODEV;
	}
	pl.core_busy[t->core[pl.hk]]++;
	pl.last_node = t->node[pl.hk]; /* a chain's first VNF: near its probe */
	for (i = 0; i < spec->nr_vnfs; i++) {
		v = &p->vnf[i];
		v->cpu = -1;
		v->asked = v->granted = CALVIN_GRANT_SOFTIRQ;
		if (!plan_on_host(&pl, i) || !calvin_plan_needs_core(spec, i, &follows)) {
			if (follows && plan_on_host(&pl, i))
				*v = p->vnf[i - 1];
			continue;
		}
		v->asked = v->granted = asked_of(spec->placement);
		if (spec->placement == CALVIN_PLACE_SHARED)
			continue; /* the baseline: nothing pinned */
		rc = place(&pl, i, err, errlen);
		if (rc)
			return rc;
	}
	finish(&pl);
	return 0;
}

/* VNFs on a host whose CPUs were not read: not pinned, and said so. */
static void unread_host(const struct calvin_chain_spec *spec, int host, struct calvin_plan *p)
{
	struct calvin_vnf_place *v;
	unsigned int i;
	bool follows;

	for (i = 0; i < spec->nr_vnfs; i++) {
		if (calvin_plan_host_of(spec, i) != host)
			continue;
		v = &p->vnf[i];
		memset(v, 0, sizeof(*v));
		v->cpu = -1;
		v->host = host;
		v->asked = v->granted = CALVIN_GRANT_SOFTIRQ;
		if (!calvin_plan_needs_core(spec, i, &follows)) {
			if (follows)
				*v = p->vnf[i - 1];
			continue;
		}
		v->asked = asked_of(spec->placement);
		v->granted = CALVIN_GRANT_SHARED;
		v->wait = CALVIN_PLAN_WAIT_WAKEUP;
		if (v->granted > v->asked)
			snprintf(v->why, sizeof(v->why), "its host's CPUs were not read");
	}
}

/* The VNFs of host from one, into p. */
static void merge(const struct calvin_chain_spec *spec, int host, const struct calvin_plan *one,
		  struct calvin_plan *p)
{
	unsigned int i;

	for (i = 0; i < spec->nr_vnfs; i++)
		if (calvin_plan_host_of(spec, i) == host) {
			p->vnf[i] = one->vnf[i];
			p->vnf[i].host = host;
		}
	if (host) {
		p->remote_housekeeping[host - 1] = one->housekeeping;
		return;
	}
	p->housekeeping = one->housekeeping;
	p->isolate = one->isolate;
}

static bool host_used(const struct calvin_chain_spec *spec, int host)
{
	unsigned int i;

	for (i = 0; i < spec->nr_vnfs; i++)
		if (calvin_plan_host_of(spec, i) == host)
			return true;
	return false;
}

int calvin_plan_make_hosts(const struct calvin_chain_spec *spec,
			   const struct calvin_topology *const *t, const int *nic_node,
			   struct calvin_plan *p, char *err, size_t errlen)
{
	struct calvin_plan one;
	char why[CALVIN_ERR_MAX];
	unsigned int i;
	int h, rc;

	/* this host plans even without VNFs: its probe needs housekeeping */
	rc = plan_on(spec, 0, t[0], nic_node, p, err, errlen);
	for (h = 1; !rc && h <= (int)spec->nr_hosts; h++) {
		if (!host_used(spec, h))
			continue;
		if (!t[h]) {
			unread_host(spec, h, p);
			continue;
		}
		rc = plan_on(spec, h, t[h], nic_node, &one, why, sizeof(why));
		if (rc)
			snprintf(err, errlen, "host %s: %s", spec->hosts[h - 1].name, why);
		else
			merge(spec, h, &one, p);
	}
	if (rc)
		return rc;
	p->nr_degraded = 0;
	for (i = 0; i < spec->nr_vnfs; i++)
		p->nr_degraded += p->vnf[i].granted != CALVIN_GRANT_SOFTIRQ &&
				  p->vnf[i].granted > p->vnf[i].asked;
	return 0;
}

int calvin_plan_make(const struct calvin_chain_spec *spec, const struct calvin_topology *t,
		     const int *nic_node, struct calvin_plan *p, char *err, size_t errlen)
{
	const struct calvin_topology *all[1 + CALVIN_MAX_HOSTS] = { t };

	return calvin_plan_make_hosts(spec, all, nic_node, p, err, errlen);
}
