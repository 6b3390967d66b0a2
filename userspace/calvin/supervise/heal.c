// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The supervisor's view of a deployed chain (its spec copy, plan record,
 * journal, deployment random and keys), and the one place it starts a
 * user VNF: netns_vnf_start(), the starter `up` uses, so a restarted VNF
 * is journalled like the first and `down` finds it. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "netns/netns.h"
#include "sup.h"
#include "util.h"

uint64_t sup_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* The restart rule, the VNFs' and the monitor's: the first start at once,
 * then backoff; worn out after `restarts` starts `within`. */
uint64_t sup_backoff_ms(const struct sup *s, const struct sup_vnf *v, uint64_t now)
{
	const struct calvin_supervise_spec *r = &s->spec.supervise;
	uint64_t ms = r->backoff_min_ns / 1000000, max = r->backoff_max_ns / 1000000;
	unsigned int n = 0, i;

	for (i = 0; i < v->nr_tries && i < r->restarts; i++)
		n += now - v->tries[i] < r->within_ns / 1000000;
	if (!n)
		return 0;
	while (--n && ms < max)
		ms *= 2;
	return ms < max ? ms : max;
}

/* Was v started `restarts` times within the window? The oldest start the
 * ring holds is the one the next start overwrites. */
bool sup_worn_out(const struct sup *s, const struct sup_vnf *v, uint64_t now)
{
	const struct calvin_supervise_spec *r = &s->spec.supervise;

	return v->nr_tries >= r->restarts &&
	       now - v->tries[v->nr_tries % r->restarts] < r->within_ns / 1000000;
}

void sup_tried(const struct sup *s, struct sup_vnf *v, uint64_t now)
{
	v->tries[v->nr_tries++ % s->spec.supervise.restarts] = now;
}

void sup_rule_text(const struct sup *s, char *buf, size_t len)
{
	const struct calvin_supervise_spec *r = &s->spec.supervise;
	unsigned long long ms = r->within_ns / 1000000;

	snprintf(buf, len, "%u start%s within %llu %s", r->restarts, r->restarts == 1 ? "" : "s",
		 ms % 1000 ? ms : ms / 1000, ms % 1000 ? "ms" : "s");
}

static int read_line(const char *chain, const char *name, char *out, size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	int err;

	err = state_file(path, sizeof(path), chain, name);
	if (err)
		return err;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	err = fgets(out, (int)len, f) ? 0 : -EINVAL;
	fclose(f);
	out[strcspn(out, "\n")] = '\0';
	return err;
}

/* The cores `up` gave each VNF and how each waits, from the chain's plan
 * record: a plan made now could differ, as other chains came and went. A
 * record without wait lines (an older calvin's) ran a process per VNF. */
static void plan_cores(struct sup *s)
{
	char path[PATH_MAX];
	unsigned int i;

	for (i = 0; i < s->spec.nr_vnfs; i++)
		if (s->plan.vnf[i].wait == CALVIN_PLAN_WAIT_LOOP)
			s->plan.vnf[i].wait = CALVIN_PLAN_WAIT_YIELD;
	if (!state_file(path, sizeof(path), s->spec.name, ".plan"))
		calvin_plan_record_places(path, &s->spec, &s->plan);
}

bool sup_same_process(const struct sup *s, unsigned int a, unsigned int b)
{
	unsigned int x = s->v[a].idx, y = s->v[b].idx;

	if (a == b)
		return true;
	if (s->vms || x == SUP_SERVER || y == SUP_SERVER)
		return false;
	return calvin_plan_loop_leader(&s->plan, x) == calvin_plan_loop_leader(&s->plan, y);
}

static int pidfd_open(pid_t pid)
{
	return (int)syscall(SYS_pidfd_open, pid, 0);
}

/* The newest process the journal names in VNF idx's node. */
static bool journal_proc(const struct chain_state *st, const struct sup *s, unsigned int idx,
			 pid_t *pid, unsigned long long *start)
{
	char ns[128];
	unsigned int i;

	node_netns(ns, sizeof(ns), s->spec.name, calvin_vnf_node(&s->spec.vnfs[idx]));
	for (i = st->nr; i-- > 0;)
		if (st->e[i].kind == ST_PROC && !strcmp(st->e[i].name, ns)) {
			*pid = st->e[i].pid;
			*start = st->e[i].start;
			return true;
		}
	return false;
}

/* The other end of VNF idx's transform pair, as an index in s->v. */
static int partner_of(const struct sup *s, unsigned int k)
{
	const struct calvin_vnf_spec *vs = s->spec.vnfs;
	enum calvin_vnf_kind kind, closer;
	unsigned int j;

	if (s->v[k].idx == SUP_SERVER)
		return -1;
	kind = vs[s->v[k].idx].kind;
	if (calvin_pair_head(kind)) {
		closer = calvin_pair_closer(kind);
		for (j = k + 1; j < s->nr; j++)
			if (s->v[j].idx != SUP_SERVER && vs[s->v[j].idx].kind == closer)
				return (int)j;
	} else if (calvin_pair_tail(kind)) {
		for (j = k; j-- > 0;)
			if (calvin_pair_head(vs[s->v[j].idx].kind) &&
			    calvin_pair_closer(vs[s->v[j].idx].kind) == kind)
				return (int)j;
	}
	return -1;
}

/* Each user VNF as the journal has it: running (watched from now on) or
 * already dead (restarted at once). */
static int attach_vnfs(struct sup *s)
{
	struct chain_state st;
	struct sup_vnf *v;
	unsigned int i, k;
	int err;

	err = state_peek(&st, s->spec.name);
	if (err)
		return err;
	for (i = 0; i < s->spec.nr_vnfs; i++) {
		/* a libvirt chain's VNFs are VMs, kernel ones too */
		if (s->spec.vnfs[i].space != CALVIN_USER && !s->vms)
			continue;
		v = &s->v[s->nr++];
		memset(v, 0, sizeof(*v));
		v->idx = i;
		v->pidfd = -1;
		v->up_ms = sup_now_ms();
		if (s->vms)
			sup_vm_attach(s, s->nr - 1);
		else if (journal_proc(&st, s, i, &v->pid, &v->start) && proc_is(v->pid, v->start))
			v->pidfd = pidfd_open(v->pid);
		if (!s->vms && v->pidfd < 0) {
			v->state = SUP_RESTARTING;
			v->down_ms = v->up_ms;
			snprintf(v->last_exit, sizeof(v->last_exit), "gone before the supervisor");
		}
	}
	/* a server on another host is a VM there: watched and healed too */
	if (s->vms && calvin_spec_host(&s->spec, s->spec.server.host)) {
		v = &s->v[s->nr++];
		memset(v, 0, sizeof(*v));
		v->idx = SUP_SERVER;
		v->pidfd = -1;
		v->up_ms = sup_now_ms();
		sup_vm_attach(s, s->nr - 1);
	}
	for (k = 0; k < s->nr; k++)
		s->v[k].partner = partner_of(s, k);
	return 0;
}

int sup_load(struct sup *s, const char *chain)
{
	char hex[2 * CALVIN_DEPLOY_RANDOM_LEN + 8], line[32];
	int rc;

	rc = deployed_spec(chain, &s->spec);
	if (rc)
		return rc;
	s->vms = backend_of(&s->spec) == &libvirt_backend;
	if (s->vms) {
		rc = sup_vm_load(s);
		if (rc)
			return rc;
	}
	rc = supervise_keys_read(&s->spec, &s->keys);
	if (rc)
		return rc;
	if (read_line(chain, ".d/" CALVIN_DEPLOY_RANDOM_FILE, hex, sizeof(hex)) ||
	    calvin_deploy_random_parse(hex, s->deploy_random)) {
		calvin_err("chain '%s': cannot read its deployment random", chain);
		return CALVIN_EXIT_FAIL;
	}
	rc = make_plan(&s->spec, &s->plan, NULL);
	if (rc)
		return rc;
	plan_cores(s);
	s->nr_nodes = calvin_chain_nodes(&s->spec, s->nodes);
	s->epoch = 1; /* up's */
	if (!read_line(chain, ".d/" SUPERVISOR_EPOCHS, line, sizeof(line)))
		s->epoch = (uint32_t)strtoul(line, NULL, 10);
	clock_gettime(CLOCK_REALTIME, &s->started);
	s->mon.pidfd = -1;
	if (attach_vnfs(s)) {
		calvin_err("chain '%s': cannot read its journal", chain);
		return CALVIN_EXIT_FAIL;
	}
	return 0;
}

int sup_epoch_next(struct sup *s, uint32_t *epoch)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	int fd, err = 0;

	if (s->epoch == UINT32_MAX)
		return -EOVERFLOW;
	err = state_file(path, sizeof(path), s->spec.name, ".d/" SUPERVISOR_EPOCHS);
	if (err)
		return err;
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (dprintf(fd, "%u\n", s->epoch + 1) < 0 || fsync(fd) < 0)
		err = -EIO;
	close(fd);
	if (!err && rename(tmp, path) < 0)
		err = -errno;
	if (err)
		return err;
	*epoch = ++s->epoch;
	return 0;
}

/* A VNF killed outright leaves its hand-over programs on its ports (DPDK's
 * af_xdp PMD attached them); its successor must find the ports bare, or
 * it falls back to af_packet. */
static int ports_clear(const struct sup *s, unsigned int idx)
{
	static const char *const ports[] = { IF_WEST, IF_EAST };
	char ns[128];
	int saved, err, ifindex;
	unsigned int i;

	node_netns(ns, sizeof(ns), s->spec.name, calvin_vnf_node(&s->spec.vnfs[idx]));
	err = netns_enter(ns, &saved);
	if (err)
		return err;
	for (i = 0; !err && i < 2; i++) {
		ifindex = if_index(ports[i]);
		err = ifindex > 0 ? calvin_xdp_detach_all(ifindex) : -ENODEV;
	}
	netns_leave(saved);
	return err;
}

/* A VNF of a loop other than its first: its process was just started
 * with the first (sup_vnf_start() of it, in chain order); watch it too. */
static __attribute__((noinline)) int loop_member_attach(struct sup *s, unsigned int k)
{
	struct sup_vnf *v = &s->v[k];
	struct chain_state st;
	pid_t old = v->pid;
	int err;

	err = state_open(&st, s->spec.name);
	if (err)
		return err;
	if (!journal_proc(&st, s, v->idx, &v->pid, &v->start) || v->pid == old)
		err = -ESRCH;
	state_close(&st, false);
	if (err)
		return err;
	v->child = false; /* the first VNF's start reaps it */
	v->pidfd = pidfd_open(v->pid);
	return v->pidfd < 0 ? -errno : 0;
}

int sup_vnf_start(struct sup *s, unsigned int k, uint32_t epoch)
{
	struct sup_vnf *v = &s->v[k];
	struct chain_state st;
	struct deploy d = { .spec = &s->spec,
			    .state = &st,
			    .plan = &s->plan,
			    .keys = &s->keys,
			    .nr_nodes = s->nr_nodes };
	pid_t old = v->pid;
	unsigned int j;
	int err = 0;

	if (v->vm)
		return sup_vm_start(s, k, epoch);
	if (calvin_plan_loop_leader(&s->plan, v->idx) != v->idx)
		return loop_member_attach(s, k);
	memcpy(d.deploy_random, s->deploy_random, sizeof(d.deploy_random));
	memcpy(d.nodes, s->nodes, sizeof(d.nodes));
	/* every VNF the process will run finds its ports bare */
	for (j = 0; !err && j < s->nr; j++)
		if (sup_same_process(s, k, j))
			err = ports_clear(s, s->v[j].idx);
	if (err)
		return err;
	err = state_open(&st, s->spec.name);
	if (err)
		return err;
	err = netns_vnf_start(&d, v->idx, epoch ? epoch : 1);
	if (!journal_proc(&st, s, v->idx, &v->pid, &v->start) || v->pid == old)
		err = err ? err : -ESRCH;
	state_close(&st, false);
	if (err) {
		/* a start that failed half-way: its process goes now */
		if (v->pid != old && v->pid > 0) {
			kill(v->pid, SIGKILL);
			waitpid(v->pid, NULL, 0);
		}
		return err;
	}
	v->child = true;
	v->pidfd = pidfd_open(v->pid);
	return v->pidfd < 0 ? -errno : 0;
}
