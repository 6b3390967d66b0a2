// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* A plan as `calvin plan` shows it: text for people, JSON for programs. */
#include <stdio.h>
#include <string.h>

#include "plan/plan.h"

/* SMT groups shown in text before "...". */
#define TEXT_SMT_GROUPS 8

static char list[CALVIN_CPUS_TEXT_MAX];

static const char *cpus_text(const struct calvin_cpumask *s)
{
	return calvin_cpumask_empty(s) ? "none" : calvin_cpumask_list(s, list, sizeof(list));
}

static const char *isolation_text(enum calvin_isolation i)
{
	if (i == CALVIN_ISOL_NOW)
		return "isolated now";
	return i == CALVIN_ISOL_RUN_TIME ? "to isolate at run time" : "not isolated";
}

/* VNFs i and j on one CPU of one host? */
static bool same_cpu(const struct calvin_plan *p, unsigned int i, unsigned int j)
{
	return p->vnf[j].cpu == p->vnf[i].cpu && p->vnf[j].host == p->vnf[i].host;
}

/* " on host b" for a VNF on another host */
static void print_on(FILE *f, const struct calvin_chain_spec *spec, int host)
{
	if (host > 0 && host <= (int)spec->nr_hosts)
		fprintf(f, " on host %s", spec->hosts[host - 1].name);
}

/* "owns it", "shares it with VNFs a, b", "shares it with housekeeping" */
static void print_share(FILE *f, const struct calvin_chain_spec *spec, const struct calvin_plan *p,
			unsigned int i)
{
	const char *sep = "";
	unsigned int j, n = 0;

	if (p->vnf[i].owns) {
		fprintf(f, "owns it");
		return;
	}
	for (j = 0; j < p->nr_vnfs; j++)
		n += j != i && same_cpu(p, i, j);
	fprintf(f, "shares it with ");
	if (p->vnf[i].granted == CALVIN_GRANT_SHARED)
		fprintf(f, n ? "housekeeping and " : "housekeeping");
	if (n)
		fprintf(f, "VNF%s ", n > 1 ? "s" : "");
	for (j = 0; j < p->nr_vnfs; j++)
		if (j != i && same_cpu(p, i, j)) {
			fprintf(f, "%s%s", sep, spec->vnfs[j].name);
			sep = ", ";
		}
}

static void print_vnf_text(FILE *f, const struct calvin_chain_spec *spec,
			   const struct calvin_plan *p, unsigned int i)
{
	const struct calvin_vnf_place *v = &p->vnf[i];

	fprintf(f, "  %-16s %-6s ", spec->vnfs[i].name, calvin_space_name(spec->vnfs[i].space));
	if (v->granted == CALVIN_GRANT_SOFTIRQ) {
		fprintf(f, "no core: the softirq of the CPU that delivers its packets (%s)\n",
			spec->mode == CALVIN_MODE_THROUGHPUT ? "tc" : "XDP");
		return;
	}
	if (v->cpu < 0) {
		fprintf(f, "not pinned");
		print_on(f, spec, v->host);
		fprintf(f, " (%s), wait %s\n", v->why[0] ? v->why : "placement shared",
			calvin_plan_wait_name(v->wait));
		return;
	}
	fprintf(f, "cpu %d", v->cpu);
	print_on(f, spec, v->host);
	fprintf(f, ", ");
	print_share(f, spec, p, i);
	fprintf(f, ", %s, wait %s\n", isolation_text(v->isolation), calvin_plan_wait_name(v->wait));
	if (v->granted > v->asked)
		fprintf(f, "  %-16s %-6s degraded from %s to %s: %s\n", "", "",
			calvin_grant_name(v->asked), calvin_grant_name(v->granted), v->why);
}

/* "N cores with 2 threads (0,4 1,5 ...)" */
static void print_smt_text(FILE *f, const struct calvin_topology *t)
{
	struct calvin_cpumask sib;
	unsigned int groups = 0;
	int c;

	for (c = 0; c < (int)t->nr_cpus; c++) {
		if (t->core[c] != c || calvin_topology_core_cpus(t, c, &sib) < 2)
			continue;
		if (groups < TEXT_SMT_GROUPS)
			fprintf(f, " %s", cpus_text(&sib));
		else if (groups == TEXT_SMT_GROUPS)
			fprintf(f, " ...");
		groups++;
	}
	if (!groups)
		fprintf(f, " none");
}

static void print_numa_text(FILE *f, const struct calvin_topology *t)
{
	struct calvin_cpumask cpus;
	int n, shown = 0;

	if (!t->nr_nodes) {
		fprintf(f, " unknown");
		return;
	}
	for (n = 0; shown < (int)t->nr_nodes && n < CALVIN_MAX_CPUS; n++) {
		if (!calvin_topology_node_cpus(t, n, &cpus))
			continue;
		fprintf(f, "%s node%d %s", shown ? "," : "", n, cpus_text(&cpus));
		shown++;
	}
}

static void print_holds_text(FILE *f, const struct calvin_topology *t)
{
	unsigned int i;

	fprintf(f, "  other chains:");
	if (!t->nr_holds)
		fprintf(f, " none");
	for (i = 0; i < t->nr_holds; i++)
		fprintf(f, "%s %s/%s cpu %d (%s%s)", i ? "," : "", t->holds[i].chain,
			t->holds[i].vnf, t->holds[i].cpu, calvin_hold_kind_name(t->holds[i].kind),
			t->holds[i].isolated ? ", isolated" : "");
	fprintf(f, "\n");
}

static void print_host_text(FILE *f, const struct calvin_topology *t)
{
	struct calvin_cpumask usable;

	fprintf(f, "host:\n  online %s", cpus_text(&t->online));
	fprintf(f, ", isolcpus %s", cpus_text(&t->isolcpus));
	fprintf(f, ", isolated partitions %s", cpus_text(&t->partitions));
	fprintf(f, ", nohz_full %s\n", cpus_text(&t->nohz_full));
	fprintf(f, "  SMT siblings:");
	print_smt_text(f, t);
	fprintf(f, "; NUMA:");
	print_numa_text(f, t);
	fprintf(f, "\n  calvin's affinity %s", cpus_text(&t->affinity));
	fprintf(f, ", cpuset %s (%s)", cpus_text(&t->cpuset),
		t->cpuset_from[0] ? t->cpuset_from : "no cpuset cgroup");
	calvin_plan_usable(t, &usable);
	fprintf(f, "; VNFs may use %s\n", cpus_text(&usable));
	print_holds_text(f, t);
	if (t->unread[0])
		fprintf(f, "  could not read: %s\n", t->unread);
}

/* What a core's user VNFs do, and why: the plan's wait, per core. */
static const char *const core_modes[] = {
	[CALVIN_PLAN_WAIT_BUSY] = "busy: one VNF owns it and polls without pause",
	[CALVIN_PLAN_WAIT_YIELD] = "shared: VNFs and nothing else of calvin's; a process each,"
				   " taking turns polling at real-time priority, each yielding"
				   " the core on an empty poll",
	[CALVIN_PLAN_WAIT_LOOP] = "shared loop: VNFs and nothing else of calvin's; one process"
				  " polls them all in turn at real-time priority, no switch"
				  " between them (shared-core: loop)",
	[CALVIN_PLAN_WAIT_WAKEUP] = "wake-up: the VNFs share it with other work (housekeeping),"
				    " so they sleep until a frame wakes them",
};

/* "cpu 1 (enc, dec): shared: ..." for each core with a user VNF on it. */
static void print_cores_text(FILE *f, const struct calvin_chain_spec *spec,
			     const struct calvin_plan *p)
{
	const struct calvin_vnf_place *v;
	unsigned int i, j;
	const char *sep;

	for (i = 0; i < p->nr_vnfs; i++) {
		v = &p->vnf[i];
		if (v->cpu < 0 || v->wait == CALVIN_PLAN_WAIT_NONE)
			continue;
		for (j = 0; j < i && !same_cpu(p, i, j); j++)
			;
		if (j < i)
			continue; /* shown with the first VNF on it */
		fprintf(f, "  cpu %d", v->cpu);
		print_on(f, spec, v->host);
		fprintf(f, " (");
		for (sep = "", j = i; j < p->nr_vnfs; j++)
			if (same_cpu(p, i, j)) {
				fprintf(f, "%s%s", sep, spec->vnfs[j].name);
				sep = ", ";
			}
		fprintf(f, "): %s\n", core_modes[v->wait]);
	}
}

void calvin_plan_print_text(FILE *f, const struct calvin_chain_spec *spec,
			    const struct calvin_topology *t, const struct calvin_plan *p)
{
	unsigned int i;

	fprintf(f, "chain %s: placement %s%s", spec->name, calvin_placement_name(p->policy),
		spec->allow_sharing ? ", allow-sharing" : "");
	if (p->nr_degraded)
		fprintf(f, "; %u VNF%s degraded", p->nr_degraded, p->nr_degraded == 1 ? "" : "s");
	fprintf(f, "\n");
	fprintf(f, "mode %s: %s\n", calvin_chain_mode_name(spec->mode),
		calvin_chain_mode_text(spec));
	if (spec->backend == CALVIN_BACKEND_NETNS && !spec->nr_hosts)
		fprintf(f, "mtu %u: the endpoints' links; %u between VNFs\n", spec->mtu,
			calvin_inner_mtu(spec));
	for (i = 0; i < spec->nr_vnfs; i++)
		print_vnf_text(f, spec, p, i);
	fprintf(f, "  %-16s %-6s no core: the softirq of the CPU that delivers its packets (XDP)\n",
		spec->server.name, "kernel");
	if (p->policy != CALVIN_PLACE_SHARED) {
		fprintf(f, "cores:\n");
		print_cores_text(f, spec, p);
	}
	/* IRQs go to housekeeping only where up isolates cores at run time:
	 * `calvin status` counts them there */
	fprintf(f, "housekeeping (probe, controller, emulator threads%s): cpu %s%s%s\n",
		calvin_cpumask_empty(&p->isolate) ? "" : ", IRQs", cpus_text(&p->housekeeping),
		p->policy == CALVIN_PLACE_SHARED ? " (nothing is pinned: placement shared)" : "",
		calvin_cpumask_empty(&p->isolate)
		    ? "; IRQs stay where they are (only isolation at run time moves them)"
		    : "");
	if (!calvin_cpumask_empty(&p->isolate))
		fprintf(
		    f, "to isolate at run time: cpu %s (calvin up isolates it once the VNFs run)\n",
		    cpus_text(&p->isolate));
	print_host_text(f, t);
}

/* What calvin does not do on another host, said wherever it plans there. */
const char calvin_remote_not_done[] =
    "calvin cannot isolate CPUs there (no cpusets or isolated partitions), move its IRQs "
    "or see its isolcpus and nohz_full; only the VMs' vCPUs and emulator threads are pinned";

void calvin_plan_print_remote_text(FILE *f, const struct calvin_chain_spec *spec,
				   const struct calvin_topology *const *t,
				   const struct calvin_plan *p)
{
	const struct calvin_host_spec *h;
	unsigned int i;

	for (i = 0; i < spec->nr_hosts; i++) {
		h = &spec->hosts[i];
		if (!t[i + 1])
			continue;
		fprintf(f, "host %s (%s), read through its libvirt:\n  online %s", h->name, h->uri,
			cpus_text(&t[i + 1]->online));
		fprintf(f, "; SMT siblings:");
		print_smt_text(f, t[i + 1]);
		fprintf(f, "; NUMA:");
		print_numa_text(f, t[i + 1]);
		fprintf(f, "\n");
		print_holds_text(f, t[i + 1]);
		fprintf(f,
			"  housekeeping there (vCPU 0 and emulator threads of its VMs): cpu %s%s\n",
			cpus_text(&p->remote_housekeeping[i]),
			p->policy == CALVIN_PLACE_SHARED ? " (nothing is pinned: placement shared)"
							 : "");
		fprintf(f, "  not done there: %s\n", calvin_remote_not_done);
	}
}
