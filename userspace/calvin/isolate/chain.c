// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The chain's side of isolation: its request from the plan, its checks
 * before anything is made, a VNF's start on an isolated CPU, and the
 * realtime options (SCHED_FIFO) of its VNF threads. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "isolate_priv.h"
#include "util.h"

/* Does some chain isolate CPUs now? Only then are the cgroups of calvin's
 * names calvin's: one with such a name may be another's before that. */
static bool isolating(const struct isolate_host *h)
{
	const char *names[1];
	struct calvin_hostrec r;
	unsigned int n;

	if (hostrec_read(h, &r))
		return false;
	n = calvin_hostrec_chains(&r, names, 1);
	calvin_hostrec_free(&r);
	return n > 0;
}

/* The isolated cgroup calvin keeps on this host, and its CPUs; false if
 * no chain isolates CPUs now. */
static bool isolated_cgroup(const struct isolate_host *h, char *dir, size_t len,
			    enum calvin_isolate_mode *mode, struct calvin_cpumask *cpus)
{
	char path[PATH_MAX];
	struct stat st;

	*mode = h->v2_cpuset ? CALVIN_ISOLATE_V2 : CALVIN_ISOLATE_V1;
	if (pathf(dir, len, "%s/%s", h->v2_cpuset ? h->v2 : h->v1, CG_ISOLATED) ||
	    pathf(path, sizeof(path), "%s/cpuset.cpus", dir) || (!h->v2_cpuset && !h->v1[0]) ||
	    stat(dir, &st) < 0 || !isolating(h))
		return false;
	read_cpulist(path, cpus);
	return true;
}

/* Before anything is made: a cgroup of calvin's name that holds tasks and
 * that calvin did not make is another's, and `up` would not take it over.
 * (cg_taken() says so again, under the record's lock, should one appear
 * meanwhile.) */
static int check_names_free(const struct isolate_host *h)
{
	static const char *const names[] = { CG_ISOLATED, CG_HOUSEKEEPING };
	enum calvin_isolate_mode mode;
	struct calvin_hostrec r;
	const char *root = NULL;
	char path[PATH_MAX];
	unsigned int i;
	int rc = 0;

	if (hostrec_read(h, &r))
		return 0; /* up says why when it opens the record */
	mode = calvin_hostrec_mode(&r, &root);
	if (mode == CALVIN_ISOLATE_NONE) {
		mode = h->v2_cpuset ? CALVIN_ISOLATE_V2 : CALVIN_ISOLATE_V1;
		root = h->v2_cpuset ? h->v2 : h->v1;
	}
	/* v2 needs no housekeeping cgroup */
	for (i = 0; !rc && root[0] && i < (mode == CALVIN_ISOLATE_V2 ? 1u : 2u); i++)
		if (!pathf(path, sizeof(path), "%s/%s", root, names[i]) && path_exists(path) &&
		    cg_taken(&r, mode, path))
			rc = CALVIN_EXIT_USAGE;
	calvin_hostrec_free(&r);
	return rc;
}

/* Does a chain's journal show VNF threads it made SCHED_FIFO? */
static bool chain_fifo(const char *chain)
{
	struct chain_state *st = malloc(sizeof(*st));
	bool fifo = false;
	unsigned int i;

	if (st && !state_peek(st, chain))
		for (i = 0; i < st->nr; i++)
			fifo |= st->e[i].kind == ST_SCHED;
	free(st);
	return fifo;
}

/* Two chains may share an isolated core, unless either polls it at
 * SCHED_FIFO: a FIFO poller never yields to the other. */
static int check_fifo_sharing(const struct isolate_host *h, const struct calvin_chain_spec *spec,
			      const struct calvin_plan *plan)
{
	struct calvin_cpumask cpus;
	char path[PATH_MAX];
	const char *names[64];
	struct calvin_hostrec r;
	unsigned int nr, i, k;
	int rc = 0, cpu;

	if (hostrec_read(h, &r))
		return 0;
	nr = calvin_hostrec_chains(&r, names, 64);
	for (i = 0; !rc && i < nr; i++) {
		/* a chain whose journal is gone holds nothing any more */
		if (!strcmp(names[i], spec->name) ||
		    !calvin_hostrec_has_chain(&r, names[i], &cpus) ||
		    pathf(path, sizeof(path), "%s/%s.state", h->run_dir, names[i]) ||
		    access(path, F_OK))
			continue;
		for (k = 0; !rc && k < spec->nr_vnfs; k++) {
			cpu = plan->vnf[k].cpu;
			if (spec->vnfs[k].space != CALVIN_USER ||
			    !calvin_cpumask_isset(&cpus, cpu) ||
			    (spec->realtime.sched != CALVIN_SCHED_FIFO && !chain_fifo(names[i])))
				continue;
			calvin_err(
			    "%s: user VNF %s would share CPU %d with chain %s, and a SCHED_FIFO "
			    "poller of either would starve the other; bring %s down first, or "
			    "use 'sched: other' in both",
			    spec->path, spec->vnfs[k].name, cpu, names[i], names[i]);
			rc = CALVIN_EXIT_USAGE;
		}
	}
	calvin_hostrec_free(&r);
	return rc;
}

int isolation_check(const struct calvin_chain_spec *spec, const struct calvin_plan *plan)
{
	int vnf_cpu[CALVIN_MAX_VNFS], cpu;
	enum calvin_isolate_mode mode;
	char err[CALVIN_ERR_MAX], dir[PATH_MAX];
	struct calvin_cpumask iso;
	struct isolate_host h;
	unsigned int i;

	for (i = 0; i < spec->nr_vnfs; i++)
		vnf_cpu[i] = plan->vnf[i].cpu;
	if (calvin_realtime_check(spec, vnf_cpu, &plan->housekeeping, err, sizeof(err))) {
		calvin_err_line(err);
		return CALVIN_EXIT_USAGE;
	}
	if (isolate_host_detect(&h))
		return 0;
	if (spec->placement == CALVIN_PLACE_ISOLATED) {
		if (!calvin_cpumask_empty(&plan->isolate) && check_names_free(&h))
			return CALVIN_EXIT_USAGE;
		return check_fifo_sharing(&h, spec, plan);
	}
	/* isolated CPUs are the isolated chains' alone: a VNF of another
	 * chain could not even pin itself there */
	if (!isolated_cgroup(&h, dir, sizeof(dir), &mode, &iso))
		return 0;
	for (i = 0; i < spec->nr_vnfs; i++) {
		cpu = plan->vnf[i].cpu;
		/* a CPU of another host is not this one's */
		if (spec->vnfs[i].space != CALVIN_USER || plan->vnf[i].host ||
		    !calvin_cpumask_isset(&iso, cpu))
			continue;
		calvin_err(
		    "%s: CPU %d of user VNF %s is isolated for other chains ('calvin status' "
		    "shows them); bring them down first, or use 'placement: isolated' to "
		    "share it with them",
		    spec->path, cpu, spec->vnfs[i].name);
		return CALVIN_EXIT_USAGE;
	}
	return 0;
}

/* A user VNF's process, from the journal: its node's namespace names it. */
static void vnf_process(const struct deploy *d, unsigned int i, struct isolate_vnf *v)
{
	char ns[128];
	unsigned int k;

	node_netns(ns, sizeof(ns), d->spec->name, calvin_vnf_node(&d->spec->vnfs[i]));
	for (k = 0; k < d->state->nr; k++)
		if (d->state->e[k].kind == ST_PROC && !strcmp(d->state->e[k].name, ns)) {
			v->pid = d->state->e[k].pid;
			v->start = d->state->e[k].start;
		}
}

int isolation_request(const struct deploy *d, struct isolate_request *req)
{
	const struct calvin_chain_spec *s = d->spec;
	struct isolate_vnf *v;
	unsigned int i;

	memset(req, 0, sizeof(*req));
	snprintf(req->chain, sizeof(req->chain), "%s", s->name);
	req->policy = s->placement;
	req->rt = s->realtime;
	req->housekeeping = d->plan->housekeeping;
	/* the planner chose them: cores of isolated VNFs the kernel was not
	 * booted to isolate, never housekeeping ones */
	req->isolate = d->plan->isolate;
	for (i = 0; i < s->nr_vnfs; i++) {
		/* VNFs on other hosts: calvin isolates nothing there */
		if (s->vnfs[i].space != CALVIN_USER || d->plan->vnf[i].host)
			continue;
		v = &req->vnf[req->nr_vnfs++];
		snprintf(v->name, sizeof(v->name), "%s", s->vnfs[i].name);
		v->cpu = d->plan->vnf[i].cpu;
		vnf_process(d, i, v);
	}
	for (i = 0; i < d->nr_nodes && i < CALVIN_MAX_NODES; i++) {
		/* a VNF's VM is no namespace: its queues are the guest's */
		if (s->backend == CALVIN_BACKEND_LIBVIRT && d->nodes[i].nr_vnfs)
			continue;
		if (!node_netns(req->netns[req->nr_netns], sizeof(req->netns[0]), s->name,
				d->nodes[i].name))
			req->nr_netns++;
	}
	return 0;
}

int isolation_vnf_start(const struct deploy *d, unsigned int vnf, pid_t pid)
{
	struct calvin_cpumask iso;
	enum calvin_isolate_mode mode;
	char dir[PATH_MAX], path[PATH_MAX], id[16];
	struct isolate_host h;
	int cpu = d->plan->vnf[vnf].cpu, err;

	if (d->spec->placement != CALVIN_PLACE_ISOLATED || isolate_host_detect(&h) ||
	    !isolated_cgroup(&h, dir, sizeof(dir), &mode, &iso) || !calvin_cpumask_isset(&iso, cpu))
		return 0;
	err = pathf(path, sizeof(path), "%s/%s", dir,
		    mode == CALVIN_ISOLATE_V2 ? "cgroup.procs" : "tasks");
	snprintf(id, sizeof(id), "%d", (int)pid);
	if (!err)
		err = write_text(path, id);
	if (err)
		calvin_err("%s: cannot start the VNF in the isolated cpuset %s: %s",
			   d->spec->vnfs[vnf].name, dir, strerror(-err));
	return err;
}

void isolation_join_housekeeping(void)
{
	char path[PATH_MAX];
	struct isolate_host h;

	/* v2 needs nothing: a partition's CPUs are no one else's already */
	if (isolate_host_detect(&h) || h.v2_cpuset || !h.v1[0] ||
	    pathf(path, sizeof(path), "%s/%s/tasks", h.v1, CG_HOUSEKEEPING) || !path_exists(path) ||
	    !isolating(&h))
		return;
	write_text(path, "0");
}

int rt_apply(const struct isolate_host *h, const struct isolate_request *req,
	     struct chain_state *st)
{
	struct sched_param sp = { .sched_priority = (int)req->rt.priority };
	struct state_entry e = { .kind = ST_SCHED };
	struct sched_param old;
	unsigned int i;
	int policy, err;

	if (req->rt.sched != CALVIN_SCHED_FIFO)
		return 0;
	for (i = 0; i < req->nr_vnfs; i++) {
		const struct isolate_vnf *v = &req->vnf[i];

		/* the polling thread is the main one (DPDK's main lcore) */
		policy = sched_getscheduler(v->pid);
		if (policy < 0 || sched_getparam(v->pid, &old) < 0)
			return -errno;
		e.pid = v->pid;
		e.start = v->start;
		snprintf(e.value, sizeof(e.value), "%d %d", policy, old.sched_priority);
		err = state_append(st, &e);
		if (err)
			return err;
		if (sched_setscheduler(v->pid, SCHED_FIFO, &sp) < 0) {
			err = -errno;
			calvin_err("%s: cannot run the VNF at SCHED_FIFO priority %u: %s", v->name,
				   req->rt.priority, strerror(errno));
			return err;
		}
	}
	return 0;
}

int rt_restore(const struct isolate_host *h, struct chain_state *st)
{
	struct sched_param sp;
	unsigned int i;
	int policy, err = 0;

	for (i = st->nr; i-- > 0;) {
		const struct state_entry *e = &st->e[i];

		if (e->kind != ST_SCHED || proc_start_time(e->pid) != e->start ||
		    sscanf(e->value, "%d %d", &policy, &sp.sched_priority) != 2)
			continue; /* the thread is gone, and its policy with it */
		if (sched_setscheduler(e->pid, policy, &sp) < 0 && errno != ESRCH)
			err = -errno;
	}
	return err;
}
