// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* `calvin status`: the plan as applied, read back from the kernel. For
 * each user VNF: its process, the CPUs it may run on and last ran on, its
 * scheduling policy, its cpuset, whether those CPUs are isolated now; and
 * the host's isolation: which CPUs, by what, for which chains, and how many
 * IRQs keep to the chain's housekeeping CPUs (its plan's, as `calvin plan`
 * shows them and its probe uses them). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isolate_priv.h"
#include "plan/plan.h"
#include "util.h"
#include "util/util.h"

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
	char path[PATH_MAX];

	if (!h->v1[0] || pathf(path, sizeof(path), "%s/%s/tasks", h->v1, CG_HOUSEKEEPING))
		return 0;
	return count_lines(path);
}

struct sharers {
	unsigned int threads, kernel;
};

/* One thread that may run on cpus, unless it is a VNF's in calvin's
 * isolated cgroup. */
static void sharer(const struct isolate_host *h, pid_t tid, const struct calvin_cpumask *cpus,
		   struct sharers *s)
{
	char path[PATH_MAX], buf[4096], cg[PATH_MAX];
	struct calvin_cpumask allowed;
	unsigned long kb;

	if (pathf(path, sizeof(path), "%s/%d/status", h->proc, (int)tid) ||
	    read_text(path, buf, sizeof(buf)) || calvin_procstatus_parse(buf, &allowed, &kb))
		return;
	calvin_cpumask_and(&allowed, &allowed, cpus);
	if (calvin_cpumask_empty(&allowed) ||
	    (!cg_of(h, h->v2_cpuset ? CALVIN_ISOLATE_V2 : CALVIN_ISOLATE_V1, tid, cg, sizeof(cg)) &&
	     !strcmp(cg, "/" CG_ISOLATED)))
		return;
	s->threads++;
	s->kernel += is_kthread(h, tid);
}

/* Every thread of the host that may still run on cpus. */
static void sharers(const struct isolate_host *h, const struct calvin_cpumask *cpus,
		    struct sharers *s)
{
	char path[PATH_MAX];
	struct dirent *p, *t;
	DIR *procs, *tasks;

	memset(s, 0, sizeof(*s));
	procs = opendir(h->proc);
	while (procs && (p = readdir(procs))) {
		if (atoi(p->d_name) <= 0 ||
		    pathf(path, sizeof(path), "%s/%s/task", h->proc, p->d_name))
			continue;
		tasks = opendir(path);
		while (tasks && (t = readdir(tasks)))
			if (atoi(t->d_name) > 0)
				sharer(h, (pid_t)atoi(t->d_name), cpus, s);
		if (tasks)
			closedir(tasks);
	}
	if (procs)
		closedir(procs);
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

/* The host's isolation as the kernel and the record have it. */
struct host_view {
	struct calvin_hostrec r;
	const char *names[MAX_CHAINS]; /* the record's chains */
	unsigned int nr;
	char iso[CALVIN_CPUS_TEXT_MAX];	 /* isolated now */
	char hk[CALVIN_CPUS_TEXT_MAX];	 /* housekeeping */
	char want[CALVIN_CPUS_TEXT_MAX]; /* what the chains want isolated */
	unsigned int irqs, irqs_on_hk, hk_tasks;
	struct cg_foreign foreign;
	struct sharers share;
};

static void host_view(const struct isolate_host *h, const struct isolated_now *now,
		      const struct calvin_cpumask *hk, struct host_view *v)
{
	struct calvin_cpumask want;

	memset(v, 0, sizeof(*v));
	if (!hostrec_read(h, &v->r))
		v->nr = calvin_hostrec_chains(&v->r, v->names, MAX_CHAINS);
	calvin_cpumask_list(&now->all, v->iso, sizeof(v->iso));
	calvin_cpumask_list(hk, v->hk, sizeof(v->hk));
	irq_count(h, hk, &v->irqs, &v->irqs_on_hk);
	v->hk_tasks = housekeeping_tasks(h);
	/* what keeps the CPUs calvin isolates from being isolated */
	wanted(&v->r, v->names, v->nr, &want);
	calvin_cpumask_list(&want, v->want, sizeof(v->want));
	if (h->v1[0] && !calvin_cpumask_empty(&want))
		cg_foreign(h->v1, &want, &v->foreign);
	sharers(h, &want, &v->share);
}

static struct json_object *host_jobj(const struct host_view *v)
{
	struct json_object *o = jw_obj(), *chains = jw_arr();
	unsigned int i;

	jw_str(o, "mode", mode_word[calvin_hostrec_mode(&v->r, NULL)]);
	jw_str(o, "isolated", v->iso);
	jw_str(o, "housekeeping", v->hk);
	jw_u64(o, "housekeeping_tasks", v->hk_tasks);
	jw_u64(o, "irqs", v->irqs);
	jw_u64(o, "irqs_on_housekeeping", v->irqs_on_hk);
	/* another tool's cgroup: its name is that tool's */
	jw_text(o, "other_cpuset", v->foreign.first, strlen(v->foreign.first));
	jw_u64(o, "other_cpuset_tasks", v->foreign.tasks);
	jw_bool(o, "other_cpuset_balances", v->foreign.balances);
	jw_u64(o, "other_threads", v->share.threads);
	jw_u64(o, "other_kernel_threads", v->share.kernel);
	for (i = 0; i < v->nr; i++)
		jw_push(chains, json_object_new_string(v->names[i]));
	jw_add(o, "chains", chains);
	return o;
}

static void print_host_text(FILE *out, const struct host_view *v)
{
	char other[CALVIN_ESCAPED_LEN(sizeof(v->foreign.first))];
	unsigned int i;

	fprintf(out, "  isolation: CPUs isolated now: %s; housekeeping CPUs %s hold %u of %u IRQs",
		v->iso[0] ? v->iso : "none", v->hk, v->irqs_on_hk, v->irqs);
	if (v->hk_tasks)
		fprintf(out, " and %u tasks", v->hk_tasks);
	if (v->foreign.first[0])
		fprintf(out, "; another tool's cpuset %s spans them too (%u tasks%s)",
			calvin_text_escape_str(v->foreign.first, other, sizeof(other)),
			v->foreign.tasks, v->foreign.balances ? ", load-balanced" : "");
	for (i = 0; i < v->nr; i++)
		fprintf(out, "%s%s", i ? ", " : "; isolated at run time for chains ", v->names[i]);
	if (v->nr)
		fprintf(out, "; besides VNFs, %u threads may run on CPU %s (%u kernel threads)",
			v->share.threads, v->want, v->share.kernel);
	fprintf(out, "\n");
}

static void print_host(FILE *out, const struct isolate_host *h, const struct isolated_now *now,
		       const struct calvin_cpumask *hk, struct json_object *chain)
{
	struct host_view *v = malloc(sizeof(*v));

	if (!v)
		return;
	host_view(h, now, hk, v);
	if (chain)
		jw_add(chain, "isolation", host_jobj(v));
	else
		print_host_text(out, v);
	calvin_hostrec_free(&v->r);
	free(v);
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

/* A VNF whose node did not answer within VNF_ANSWER_TIMEOUT_MS: a line,
 * or under -j an object with an error in read_back. */
static void not_answering(FILE *out, struct json_object *read_back, const char *name)
{
	struct json_object *o;
	char why[64];

	snprintf(why, sizeof(why), "not answering (%d s)", VNF_ANSWER_TIMEOUT_MS / 1000);
	if (!read_back) {
		fprintf(out, "  %s: %s\n", name, why);
		return;
	}
	o = jw_obj();
	jw_str(o, "name", name);
	jw_str(o, "error", why);
	jw_push(read_back, o);
}

void isolation_status(FILE *out, const struct isolate_host *h, const struct calvin_chain_spec *spec,
		      const struct calvin_cpumask *housekeeping, struct json_object *chain)
{
	struct json_object *read_back = chain ? jw_arr() : NULL;
	const struct node_backend *be = backend_of(spec);
	struct calvin_vnf_placement p;
	struct isolated_now now;
	struct chain_state *st;
	unsigned int i;
	char ns[128];

	st = malloc(sizeof(*st));
	if (!st || state_peek(st, spec->name)) {
		free(st);
		json_object_put(read_back);
		return;
	}
	isolated_now(h, &now);
	print_host(out, h, &now, housekeeping, chain);
	if (!chain)
		fprintf(out, "  placement (read back from the kernel):\n");
	for (i = 0; i < spec->nr_vnfs; i++) {
		if (spec->vnfs[i].space != CALVIN_USER)
			continue;
		memset(&p, 0, sizeof(p));
		snprintf(p.name, sizeof(p.name), "%s", spec->vnfs[i].name);
		/* a VM's VNF is a process of its guest: its agent says */
		if (be && be->vnf_placement) {
			if (be->vnf_placement(spec, i, &p) == -ETIMEDOUT)
				not_answering(out, read_back, p.name);
			else if (chain)
				jw_push(read_back, calvin_placement_jobj(&p));
			else
				calvin_placement_print(out, &p);
			continue;
		}
		node_netns(ns, sizeof(ns), spec->name, calvin_vnf_node(&spec->vnfs[i]));
		read_placement(h, vnf_proc(st, ns), &now, &p);
		if (chain)
			jw_push(read_back, calvin_placement_jobj(&p));
		else
			calvin_placement_print(out, &p);
	}
	/* not "placement": that is what the plan degraded, as in reports */
	jw_add(chain, "placement_read_back", read_back);
	free(st);
}
