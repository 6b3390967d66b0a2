// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* `calvin status`: the plan as applied, read back from the kernel. For
 * each user VNF: its process, the CPUs it may run on and last ran on, its
 * scheduling policy, its cpuset, whether those CPUs are isolated now; and
 * the host's isolation: which CPUs, by what, for which chains. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isolate_priv.h"
#include "placement.h"
#include "util.h"

#define MAX_CHAINS 64

static const char *const mode_word[] = {
	[CALVIN_ISOLATE_NONE] = "none",
	[CALVIN_ISOLATE_V1] = "v1",
	[CALVIN_ISOLATE_V2] = "v2",
};

/* CPUs isolated now, by each mechanism the kernel has. */
struct isolated_now {
	struct calvin_cpumask boot, v2, v1, all;
};

/* A v1 cpuset that balances load adds its CPUs to out (v1 keeps
 * effective_cpus equal to cpus). */
static void balanced(const char *dir, void *out)
{
	char path[PATH_MAX], lb[8];
	struct calvin_cpumask cpus;

	if (pathf(path, sizeof(path), "%s/cpuset.sched_load_balance", dir) ||
	    read_text(path, lb, sizeof(lb)) || strcmp(lb, "1") ||
	    pathf(path, sizeof(path), "%s/cpuset.cpus", dir))
		return;
	read_cpulist(path, &cpus);
	calvin_cpumask_or(out, out, &cpus);
}

static void isolated_now(const struct isolate_host *h, struct isolated_now *n)
{
	struct calvin_cpumask online, lb_cpus = { 0 };
	char path[PATH_MAX], lb[8];

	memset(n, 0, sizeof(*n));
	pathf(path, sizeof(path), "%s/devices/system/cpu/online", h->sys);
	read_cpulist(path, &online);
	pathf(path, sizeof(path), "%s/devices/system/cpu/isolated", h->sys);
	read_cpulist(path, &n->boot);
	if (h->v2_cpuset) {
		pathf(path, sizeof(path), "%s/cpuset.cpus.isolated", h->v2);
		read_cpulist(path, &n->v2);
	}
	if (h->v1[0] && !pathf(path, sizeof(path), "%s/cpuset.sched_load_balance", h->v1) &&
	    !read_text(path, lb, sizeof(lb))) {
		cg_walk(h->v1, balanced, &lb_cpus);
		calvin_cpuset_v1_unbalanced(!strcmp(lb, "1"), &lb_cpus, &online, &n->v1);
	}
	calvin_cpumask_or(&n->all, &n->boot, &n->v2);
	calvin_cpumask_or(&n->all, &n->all, &n->v1);
}

static const char *isolated_by(const struct isolated_now *n, const struct calvin_cpumask *cpus)
{
	if (calvin_cpumask_empty(cpus) || !calvin_cpumask_contains(&n->all, cpus))
		return NULL;
	if (calvin_cpumask_contains(&n->boot, cpus))
		return "isolcpus";
	if (calvin_cpumask_contains(&n->v2, cpus))
		return "cgroup v2 isolated partition";
	return "cgroup v1 cpusets, no load balancing";
}

static void read_placement(const struct isolate_host *h, const struct state_entry *proc,
			   const struct isolated_now *now, struct calvin_vnf_placement *p)
{
	char path[PATH_MAX], buf[4096];
	struct calvin_procstat st;

	p->pid = 0;
	if (!proc || pathf(path, sizeof(path), "%s/%d/stat", h->proc, (int)proc->pid) ||
	    read_text(path, buf, sizeof(buf)) || calvin_procstat_parse(buf, &st) ||
	    st.start != proc->start || st.state == 'Z')
		return;
	p->pid = proc->pid;
	p->last_cpu = st.last_cpu;
	p->policy = st.policy;
	p->priority = st.rt_priority;
	if (pathf(path, sizeof(path), "%s/%d/status", h->proc, (int)proc->pid) ||
	    read_text(path, buf, sizeof(buf)) ||
	    calvin_procstatus_parse(buf, &p->allowed, &p->locked_kb))
		memset(&p->allowed, 0, sizeof(p->allowed));
	if (cg_of(h, h->v2_cpuset ? CALVIN_ISOLATE_V2 : CALVIN_ISOLATE_V1, p->pid, p->cpuset,
		  sizeof(p->cpuset)))
		strcpy(p->cpuset, "?");
	p->isolated_by = isolated_by(now, &p->allowed);
}

/* Tasks in the v1 housekeeping cpuset (0 where there is none). */
static unsigned int housekeeping_tasks(const struct isolate_host *h)
{
	char path[PATH_MAX], line[32];
	unsigned int n = 0;
	FILE *f;

	if (!h->v1[0] || pathf(path, sizeof(path), "%s/%s/tasks", h->v1, CG_HOUSEKEEPING) ||
	    !(f = fopen(path, "re")))
		return 0;
	while (fgets(line, sizeof(line), f))
		n++;
	fclose(f);
	return n;
}

/* The CPUs the record's chains want isolated. */
static void wanted(const struct calvin_hostrec *r, const char *const *names, unsigned int nr,
		   struct calvin_cpumask *out)
{
	struct calvin_cpumask cpus;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < nr; i++)
		if (calvin_hostrec_has_chain(r, names[i], &cpus))
			calvin_cpumask_or(out, out, &cpus);
}

static void print_host(FILE *out, const struct isolate_host *h, const struct isolated_now *now,
		       bool json)
{
	char iso[CALVIN_CPUS_TEXT_MAX], hk[CALVIN_CPUS_TEXT_MAX], path[PATH_MAX];
	unsigned int nr = 0, i, irqs, on, tasks = housekeeping_tasks(h);
	struct calvin_cpumask online, rest, want;
	struct cg_foreign foreign = { 0 };
	const char *names[MAX_CHAINS];
	struct calvin_hostrec r;

	if (!hostrec_read(h, &r))
		nr = calvin_hostrec_chains(&r, names, MAX_CHAINS);
	pathf(path, sizeof(path), "%s/devices/system/cpu/online", h->sys);
	read_cpulist(path, &online);
	/* housekeeping: calvin's cpuset where there is one, else what is
	 * not isolated */
	calvin_cpumask_andnot(&rest, &online, &now->all);
	if (h->v1[0] && !pathf(path, sizeof(path), "%s/%s/cpuset.cpus", h->v1, CG_HOUSEKEEPING) &&
	    path_exists(path))
		read_cpulist(path, &rest);
	calvin_cpumask_list(&now->all, iso, sizeof(iso));
	calvin_cpumask_list(&rest, hk, sizeof(hk));
	irq_count(h, &rest, &irqs, &on);
	/* what keeps the CPUs calvin isolates from being isolated */
	wanted(&r, names, nr, &want);
	if (h->v1[0] && !calvin_cpumask_empty(&want))
		cg_foreign(h->v1, &want, &foreign);
	if (json) {
		fprintf(
		    out,
		    ",\"isolation\":{\"mode\":\"%s\",\"isolated\":\"%s\",\"housekeeping\":\"%s\","
		    "\"housekeeping_tasks\":%u,\"irqs\":%u,\"irqs_on_housekeeping\":%u,"
		    "\"other_cpuset\":\"%s\",\"other_cpuset_tasks\":%u,"
		    "\"other_cpuset_balances\":%s,\"chains\":[",
		    mode_word[calvin_hostrec_mode(&r, NULL)], iso, hk, tasks, irqs, on,
		    foreign.first, foreign.tasks, foreign.balances ? "true" : "false");
		for (i = 0; i < nr; i++)
			fprintf(out, "%s\"%s\"", i ? "," : "", names[i]);
		fprintf(out, "]}");
	} else {
		fprintf(
		    out,
		    "  isolation: CPUs isolated now: %s; housekeeping CPUs %s hold %u of %u IRQs",
		    iso[0] ? iso : "none", hk, on, irqs);
		if (tasks)
			fprintf(out, " and %u tasks", tasks);
		if (foreign.first[0])
			fprintf(out, "; another tool's cpuset %s spans them too (%u tasks%s)",
				foreign.first, foreign.tasks,
				foreign.balances ? ", load-balanced" : "");
		for (i = 0; i < nr; i++)
			fprintf(out, "%s%s", i ? ", " : "; isolated at run time for chains ",
				names[i]);
		fprintf(out, "\n");
	}
	calvin_hostrec_free(&r);
}

/* The journal's process of a VNF: its node's namespace names it. */
static const struct state_entry *vnf_proc(const struct chain_state *st, const char *ns)
{
	unsigned int i;

	for (i = 0; i < st->nr; i++)
		if (st->e[i].kind == ST_PROC && !strcmp(st->e[i].name, ns))
			return &st->e[i];
	return NULL;
}

void isolation_status(FILE *out, const struct isolate_host *h, const struct calvin_chain_spec *spec,
		      bool json)
{
	struct calvin_vnf_placement p;
	struct isolated_now now;
	struct chain_state *st;
	unsigned int i, n = 0;
	char ns[128];

	st = malloc(sizeof(*st));
	if (!st || state_peek(st, spec->name)) {
		free(st);
		return;
	}
	isolated_now(h, &now);
	print_host(out, h, &now, json);
	fprintf(out, json ? ",\"placement\":[" : "  placement (read back from the kernel):\n");
	for (i = 0; i < spec->nr_vnfs; i++) {
		if (spec->vnfs[i].space != CALVIN_USER)
			continue;
		memset(&p, 0, sizeof(p));
		snprintf(p.name, sizeof(p.name), "%s", spec->vnfs[i].name);
		node_netns(ns, sizeof(ns), spec->name, calvin_vnf_node(&spec->vnfs[i]));
		read_placement(h, vnf_proc(st, ns), &now, &p);
		if (json && n++)
			fprintf(out, ",");
		calvin_placement_print(out, json, &p);
	}
	if (json)
		fprintf(out, "]");
	free(st);
}
