// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* What the planner says when a VNF does not get what it asked for: a few
 * words in the plan when sharing is allowed, one error line when not. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "plan_priv.h"

/* Append to a line, never past its end. */
static void add(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

/* Could VNF vnf have an isolated core off its NIC's NUMA node? */
static bool numa_only(const struct planner *pl, unsigned int vnf)
{
	int c;

	if (!pl->nic_node || pl->nic_node[vnf] < 0)
		return false;
	for (c = 0; c < (int)pl->t->nr_cpus; c++)
		if (plan_may_isolate(pl, vnf, c, false))
			return true;
	return false;
}

void plan_why_not(const struct planner *pl, unsigned int vnf, enum calvin_grant g, char *buf,
		  size_t len)
{
	char list[CALVIN_CPUS_TEXT_MAX];
	struct calvin_cpumask iso;

	buf[0] = '\0';
	switch (g) {
	case CALVIN_GRANT_ISOLATED:
		calvin_cpumask_and(&iso, &pl->isolated, &pl->usable);
		if (numa_only(pl, vnf))
			add(buf, len, "no isolated core free on NUMA node %d of its NIC",
			    pl->nic_node[vnf]);
		else if (pl->t->remote)
			add(buf, len, "calvin cannot isolate CPUs on another host");
		else if (pl->run_time_ok)
			add(buf, len, "no core left to isolate");
		else
			add(buf, len, "no isolated core left (isolated: %s)",
			    calvin_cpumask_empty(&iso)
				? "none"
				: calvin_cpumask_list(&iso, list, sizeof(list)));
		break;
	case CALVIN_GRANT_DEDICATED:
		add(buf, len, "no core left to dedicate");
		break;
	default:
		add(buf, len, "no VNF core to share");
		break;
	}
}

/* VNFs on the planner's host that need a core: user VNFs, or under
 * libvirt each VM */
static unsigned int user_vnfs(const struct planner *pl)
{
	unsigned int i, n = 0;
	bool follows;

	for (i = 0; i < pl->spec->nr_vnfs; i++)
		n += plan_on_host(pl, i) && calvin_plan_needs_core(pl->spec, i, &follows);
	return n;
}

/* ", N held by chain X" for each other chain holding CPUs we could use. */
static void add_holders(const struct planner *pl, char *err, size_t errlen)
{
	const struct calvin_topology *t = pl->t;
	struct calvin_cpumask cpus;
	unsigned int i, j;

	for (i = 0; i < t->nr_holds; i++) {
		for (j = 0; j < i; j++)
			if (!strcmp(t->holds[j].chain, t->holds[i].chain))
				break;
		if (j < i)
			continue; /* counted with its first hold */
		memset(&cpus, 0, sizeof(cpus));
		for (j = i; j < t->nr_holds; j++)
			if (!strcmp(t->holds[j].chain, t->holds[i].chain) && t->holds[j].cpu >= 0)
				calvin_cpumask_set(&cpus, (unsigned int)t->holds[j].cpu);
		calvin_cpumask_and(&cpus, &cpus, &pl->usable);
		if (!calvin_cpumask_empty(&cpus))
			add(err, errlen, ", %u held by chain %s", calvin_cpumask_count(&cpus),
			    t->holds[i].chain);
	}
}

/* Free cores an isolated VNF may not have only because an SMT sibling is
 * busy. */
static unsigned int smt_blocked(const struct planner *pl)
{
	unsigned int n = 0;
	int c;

	for (c = 0; c < (int)pl->t->nr_cpus; c++)
		n += calvin_cpumask_isset(&pl->usable, c) && c != pl->hk && !pl->load[c] &&
		     !calvin_cpumask_isset(&pl->held, c) &&
		     (pl->run_time_ok || calvin_cpumask_isset(&pl->isolated, c)) &&
		     pl->core_busy[pl->t->core[c]];
	return n;
}

void plan_explain_missing(const struct planner *pl, unsigned int vnf, enum calvin_grant g,
			  char *err, size_t errlen)
{
	const struct calvin_topology *t = pl->t;
	unsigned int need = user_vnfs(pl), n;
	struct calvin_cpumask iso;
	char list[CALVIN_CPUS_TEXT_MAX];

	err[0] = '\0';
	add(err, errlen, "placement %s needs %u %s core%s; %u online",
	    calvin_placement_name(pl->spec->placement), need,
	    g == CALVIN_GRANT_ISOLATED ? "isolated" : "dedicated", need == 1 ? "" : "s",
	    calvin_cpumask_count(&t->online));
	if (!calvin_cpumask_equal(&pl->usable, &t->online))
		add(err, errlen, ", %u allowed (%s)", calvin_cpumask_count(&pl->usable),
		    calvin_cpumask_list(&pl->usable, list, sizeof(list)));
	calvin_cpumask_and(&iso, &pl->isolated, &t->online);
	add(err, errlen, ", %u isolated", calvin_cpumask_count(&iso));
	add_holders(pl, err, errlen);
	n = g == CALVIN_GRANT_ISOLATED ? smt_blocked(pl) : 0;
	if (n)
		add(err, errlen, ", %u SMT sibling%s of busy cores", n, n == 1 ? "" : "s");
	if (g == CALVIN_GRANT_ISOLATED && numa_only(pl, vnf))
		add(err, errlen, ", none free on NUMA node %d of %s's NIC", pl->nic_node[vnf],
		    pl->spec->vnfs[vnf].name);
	add(err, errlen, ", 1 for housekeeping; set 'allow-sharing: true' or 'placement: shared'");
	if (g == CALVIN_GRANT_ISOLATED && pl->t->remote)
		add(err, errlen,
		    ", or 'placement: pinned' (calvin cannot isolate CPUs on another "
		    "host)");
	else if (g == CALVIN_GRANT_ISOLATED && !pl->run_time_ok)
		add(err, errlen, ", or isolate more CPUs (isolcpus= on the kernel command line)");
}

void plan_explain_no_housekeeping(const struct planner *pl, char *err, size_t errlen)
{
	const struct calvin_topology *t = pl->t;
	struct calvin_cpumask s;
	unsigned int n = 0;
	char list[CALVIN_CPUS_TEXT_MAX];
	int c;

	err[0] = '\0';
	if (calvin_cpumask_empty(&pl->usable)) {
		add(err, errlen, "no CPU calvin may use: online %s",
		    calvin_cpumask_list(&t->online, list, sizeof(list)));
		add(err, errlen, ", affinity %s",
		    calvin_cpumask_list(&t->affinity, list, sizeof(list)));
		add(err, errlen, ", cpuset %s; run calvin with CPUs it may use (taskset, cgroup)",
		    calvin_cpumask_list(&t->cpuset, list, sizeof(list)));
		return;
	}
	add(err, errlen, "no CPU for housekeeping: of the %u allowed (%s)",
	    calvin_cpumask_count(&pl->usable),
	    calvin_cpumask_list(&pl->usable, list, sizeof(list)));
	calvin_cpumask_and(&s, &pl->usable, &t->nohz_full);
	add(err, errlen, ", %u are nohz_full", calvin_cpumask_count(&s));
	calvin_cpumask_and(&s, &pl->usable, &pl->isolated);
	add(err, errlen, ", %u isolated", calvin_cpumask_count(&s));
	calvin_cpumask_and(&s, &pl->usable, &pl->held_vnf);
	add(err, errlen, ", %u other chains' VNF cores", calvin_cpumask_count(&s));
	for (c = 0; c < (int)t->nr_cpus; c++)
		n += calvin_cpumask_isset(&pl->usable, c) && pl->core_isolated[t->core[c]];
	if (n)
		add(err, errlen, ", %u on SMT cores with an isolated VNF", n);
	add(err, errlen, "; allow calvin a CPU that is none of these (taskset, cgroup cpuset)");
}
