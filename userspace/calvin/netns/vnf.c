// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* User VNFs in the netns backend: calvin-vnf (DPDK) started inside the
 * node's namespace, pinned (or not, as planned), journalled before it can
 * do anything. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guest/guest.h"
#include "isolate/isolate.h"
#include "netns.h"
#include "sa_pipe.h"
#include "vnf_start.h"
#include "util.h"
#include "util/util.h"

#define VNF_READY_TIMEOUT_MS 30000

/* calvin-vnf's command line (userspace/lib/guest/vnf_argv.c), built before the
 * fork; the --ready-fd value is written in the child. */
static int vnf_args_fill(struct deploy *d, unsigned int i, int keys, struct calvin_vnf_argv *a,
			 char *bin, size_t binlen)
{
	const struct calvin_chain_spec *s = d->spec;
	struct calvin_vnf_site site = {
		.bin = bin,
		.vnf_id = i,
		.cpu = d->plan->vnf[i].cpu,
		.wait = calvin_plan_wait_name(d->plan->vnf[i].wait),
		.west = IF_WEST,
		.east = IF_EAST,
		.keys_fd = keys,
		.ready_fd = 0,
	};
	int err;

	err = node_mac_of(s->name, west_of(d, i), IF_EAST, site.west_peer);
	if (!err)
		err = node_mac_of(s->name, east_of(d, i), IF_WEST, site.east_peer);
	if (err)
		return err;
	snprintf(bin, binlen, "%s/calvin-vnf", calvin_lib_dir());
	return calvin_vnf_argv_build(a, s, &site);
}

int netns_dpdk_dir(char *out, size_t len, const char *chain, const char *vnf)
{
	char prefix[128];
	int err, n;

	err = vnf_file_prefix(prefix, sizeof(prefix), chain, vnf);
	if (err)
		return err;
	n = snprintf(out, len, "/var/run/dpdk/%s", prefix);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* What the child and the parent's hook of vnf_start() need: the VNF, or
 * the VNFs of one process (m[0] == i). */
struct vnf_place {
	struct deploy *d;
	unsigned int i;
	const char *log;
	unsigned int n;
	unsigned int m[VNF_START_GROUP_MAX];
};

/* In the child, once journalled: leave the controller's journal and
 * terminal behind, enter the node. */
static int vnf_child(void *arg)
{
	const struct vnf_place *p = arg;
	char ns[128];
	int saved;

	/* the journal's lock belongs to the controller alone */
	close(p->d->state->fd);
	child_detach(p->log);
	node_netns(ns, sizeof(ns), p->d->spec->name, calvin_vnf_node(&p->d->spec->vnfs[p->i]));
	if (netns_enter(ns, &saved) < 0) {
		fprintf(stderr, "calvin: cannot enter %s\n", ns);
		return -1;
	}
	return 0;
}

/* In the parent, before the child goes on: journal it, and on a CPU
 * other chains isolated already, start it in their cpuset. */
static int vnf_started(void *arg, pid_t pid)
{
	const struct vnf_place *p = arg;
	unsigned long long st = proc_start_time(pid);
	unsigned int k;
	char ns[128];
	int err = 0;

	/* each VNF's node names the process that runs it */
	for (k = 0; !err && k < p->n; k++) {
		node_netns(ns, sizeof(ns), p->d->spec->name,
			   calvin_vnf_node(&p->d->spec->vnfs[p->m[k]]));
		err = state_add(p->d->state, ST_PROC, ns, NULL, pid, st);
	}
	if (!err)
		err = isolation_vnf_start(p->d, p->i, pid);
	return err;
}

/* Last line of a log, for a one-line error: the VNF's (and DPDK's)
 * words, escaped before they reach a terminal. */
static void last_line(const char *log, char *out, size_t len)
{
	char line[512];
	FILE *f = fopen(log, "re");

	snprintf(out, len, "no output (see %.400s)", log);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (line[0] != '\n')
			calvin_text_escape(line, strcspn(line, "\n"), out, len);
	fclose(f);
}

/* An af_packet port on a veth sees nothing its neighbour's XDP program
 * redirects or bounces to it unless the veth has an XDP program of its
 * own: give it the pass program (journalled before the VNF started). */
static int vnf_ports_finish(struct deploy *d, unsigned int i, const int pmd[CALVIN_READY_SIDES],
			    const char *log)
{
	static const char *const ifname[CALVIN_READY_SIDES] = { IF_WEST, IF_EAST };
	const struct calvin_vnf_spec *v = &d->spec->vnfs[i];
	bool fell_back[CALVIN_READY_SIDES] = { false };
	int side, err;

	for (side = 0; side < CALVIN_READY_SIDES; side++) {
		if (pmd[side] != CALVIN_PMD_AF_PACKET)
			continue;
		err = node_pass_attach(d, calvin_vnf_node(v), ifname[side]);
		if (err)
			return err;
		fell_back[side] = v->pmd != CALVIN_PMD_AF_PACKET;
	}
	if (fell_back[CALVIN_READY_WEST] || fell_back[CALVIN_READY_EAST])
		calvin_err("%s: warning: af_xdp unavailable on %s; using af_packet (why: %s)",
			   v->name,
			   !fell_back[CALVIN_READY_EAST]   ? IF_WEST
			   : !fell_back[CALVIN_READY_WEST] ? IF_EAST
							   : IF_WEST " and " IF_EAST,
			   log);
	return 0;
}

/* An encrypt or decrypt VNF's traffic keys of an epoch in a pipe for it to
 * inherit, in *fd; -1 for other kinds. */
static int vnf_keys(struct deploy *d, unsigned int i, uint32_t epoch, int *fd)
{
	const struct calvin_vnf_spec *v = &d->spec->vnfs[i];
	struct calvin_sa_set set;
	int err;

	*fd = -1;
	if (v->kind != CALVIN_VNF_ENCRYPT && v->kind != CALVIN_VNF_DECRYPT)
		return 0;
	err = deploy_sa_set(d, i, epoch, &set);
	if (err)
		return err;
	err = sa_set_pipe(&set);
	calvin_sa_set_wipe(&set);
	if (err < 0) {
		calvin_err("%s: cannot hand over its keys: %s", v->name, strerror(-err));
		return err;
	}
	*fd = err;
	return 0;
}

/* The VNFs the process of VNF i runs, i first: i alone, or the chain's
 * VNFs of its core when the plan polls them in one loop. */
static unsigned int members(const struct deploy *d, unsigned int i, unsigned int *m)
{
	unsigned int j, n = 0;

	m[n++] = i;
	for (j = i + 1; j < d->spec->nr_vnfs && n < VNF_START_GROUP_MAX; j++)
		if (calvin_plan_loop_leader(d->plan, j) == i)
			m[n++] = j;
	return n;
}

/* What each VNF of the process needs before the start: its keys, its
 * command line, its ports and runtime directory journalled. */
struct vnf_member {
	struct calvin_vnf_argv a;
	char bin[PATH_MAX];
	char netns[PATH_MAX];
	int keys_fd;
};

static int member_prepare(struct deploy *d, unsigned int i, uint32_t epoch, struct vnf_member *m)
{
	const struct calvin_vnf_spec *v = &d->spec->vnfs[i];
	char path[PATH_MAX], ns[128];
	int err;

	err = vnf_keys(d, i, epoch, &m->keys_fd);
	if (!err)
		err = vnf_args_fill(d, i, m->keys_fd, &m->a, m->bin, sizeof(m->bin));
	/* DPDK's af_xdp PMD attaches XDP programs to the node's veths; a VNF
	 * that is killed leaves them there, so down must detach them */
	if (!err)
		err = xdp_intent(d, calvin_vnf_node(v), IF_WEST);
	if (!err)
		err = xdp_intent(d, calvin_vnf_node(v), IF_EAST);
	if (!err)
		err = netns_dpdk_dir(path, sizeof(path), d->spec->name, v->name);
	if (!err)
		err = state_add(d->state, ST_PATH, path, NULL, 0, 0);
	if (!err)
		err = node_netns(ns, sizeof(ns), d->spec->name, calvin_vnf_node(v));
	if (!err)
		snprintf(m->netns, sizeof(m->netns), "/run/netns/%s", ns);
	return err;
}

/* One command line for the VNFs of a loop: each VNF's, with the
 * namespace of its node (calvin-vnf opens its ports there), joined by
 * --next. */
static int group_argv(struct vnf_member *mb, unsigned int n, char **argv, size_t max,
		      struct vnf_start *start)
{
	static char netns_opt[] = "--netns", next[] = "--next";
	unsigned int k, j, at = 0;

	for (k = 0; k < n; k++) {
		for (j = k ? 1 : 0; j < mb[k].a.argc; j++) {
			if (at + 4 >= max)
				return -E2BIG;
			argv[at++] = mb[k].a.argv[j];
		}
		argv[at++] = netns_opt;
		argv[at++] = mb[k].netns;
		if (k + 1 < n)
			argv[at++] = next;
		start->ready_slot[k] = mb[k].a.ready_fd;
		start->keys_fds[k] = mb[k].keys_fd;
	}
	argv[at] = NULL;
	return 0;
}

int netns_vnf_start(struct deploy *d, unsigned int i, uint32_t epoch)
{
	const struct calvin_vnf_spec *v = &d->spec->vnfs[i];
	static struct vnf_member mb[VNF_START_GROUP_MAX];
	static char *argv[VNF_START_GROUP_MAX * 72];
	char path[PATH_MAX], log[PATH_MAX + 64], why[CALVIN_ESCAPED_LEN(512)];
	int pmd[VNF_START_GROUP_MAX][CALVIN_READY_SIDES];
	struct vnf_place place = { .d = d, .i = i, .log = log };
	struct vnf_start start = {
		.prog = "calvin",
		.ready_timeout_ms = VNF_READY_TIMEOUT_MS,
		.child = vnf_child,
		.started = vnf_started,
		.ctx = &place,
		.group_pmd = pmd,
	};
	unsigned int k, prepared;
	int err = 0;
	pid_t pid;

	place.n = members(d, i, place.m);
	for (k = 0; k < place.n; k++)
		mb[k].keys_fd = -1;
	for (prepared = 0; !err && prepared < place.n; prepared++)
		err = member_prepare(d, place.m[prepared], epoch, &mb[prepared]);
	if (err)
		goto close_keys;
	start.argv = &mb[0].a;
	start.keys_fd = mb[0].keys_fd;
	if (place.n > 1) {
		start.n = place.n;
		start.group_argv = argv;
		err = group_argv(mb, place.n, argv, sizeof(argv) / sizeof(argv[0]), &start);
		if (err)
			goto close_keys;
	}
	err = state_file(path, sizeof(path), d->spec->name, ".d");
	if (err)
		goto close_keys;
	snprintf(log, sizeof(log), "%s/%s.log", path, v->name);
	err = vnf_start(&start, &pid, pmd[0]);
	if (!err) {
		for (k = 0; !err && k < place.n; k++)
			err = vnf_ports_finish(d, place.m[k], pmd[k], log);
	} else if (pid && err != -EINTR) {
		/* Ctrl-C is not the VNF's fault; the rollback stops it */
		last_line(log, why, sizeof(why));
		calvin_err("%s: user VNF did not start: %s", v->name, why);
	}
close_keys:
	for (k = 0; k < prepared && k < place.n; k++)
		if (mb[k].keys_fd >= 0)
			close(mb[k].keys_fd);
	return err;
}

int netns_user_vnf(struct deploy *d, unsigned int i)
{
	/* a VNF of a loop starts with the first of its core */
	if (calvin_plan_loop_leader(d->plan, i) != i)
		return 0;
	return netns_vnf_start(d, i, 1);
}
