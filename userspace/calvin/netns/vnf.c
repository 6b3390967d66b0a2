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

/* What the child and the parent's hook of vnf_start() need. */
struct vnf_place {
	struct deploy *d;
	unsigned int i;
	const char *log;
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
	char ns[128];
	int err;

	node_netns(ns, sizeof(ns), p->d->spec->name, calvin_vnf_node(&p->d->spec->vnfs[p->i]));
	err = state_add(p->d->state, ST_PROC, ns, NULL, pid, st);
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

int netns_vnf_start(struct deploy *d, unsigned int i, uint32_t epoch)
{
	const struct calvin_vnf_spec *v = &d->spec->vnfs[i];
	char path[PATH_MAX], log[PATH_MAX + 64], why[CALVIN_ESCAPED_LEN(512)], bin[PATH_MAX];
	struct vnf_place place = { .d = d, .i = i, .log = log };
	struct calvin_vnf_argv a;
	struct vnf_start start = {
		.prog = "calvin",
		.argv = &a,
		.ready_timeout_ms = VNF_READY_TIMEOUT_MS,
		.child = vnf_child,
		.started = vnf_started,
		.ctx = &place,
	};
	int pmd[CALVIN_READY_SIDES], err;
	pid_t pid;

	err = vnf_keys(d, i, epoch, &start.keys_fd);
	if (err)
		return err;
	err = vnf_args_fill(d, i, start.keys_fd, &a, bin, sizeof(bin));
	if (err)
		goto close_keys;
	/* DPDK's af_xdp PMD attaches XDP programs to the node's veths; a VNF
	 * that is killed leaves them there, so down must detach them */
	err = xdp_intent(d, calvin_vnf_node(v), IF_WEST);
	if (!err)
		err = xdp_intent(d, calvin_vnf_node(v), IF_EAST);
	if (err)
		goto close_keys;
	err = netns_dpdk_dir(path, sizeof(path), d->spec->name, v->name);
	if (!err)
		err = state_add(d->state, ST_PATH, path, NULL, 0, 0);
	if (!err)
		err = state_file(path, sizeof(path), d->spec->name, ".d");
	if (err)
		goto close_keys;
	snprintf(log, sizeof(log), "%s/%s.log", path, v->name);
	err = vnf_start(&start, &pid, pmd);
	if (!err) {
		err = vnf_ports_finish(d, i, pmd, log);
	} else if (pid && err != -EINTR) {
		/* Ctrl-C is not the VNF's fault; the rollback stops it */
		last_line(log, why, sizeof(why));
		calvin_err("%s: user VNF did not start: %s", v->name, why);
	}
close_keys:
	if (start.keys_fd >= 0)
		close(start.keys_fd);
	return err;
}

int netns_user_vnf(struct deploy *d, unsigned int i)
{
	return netns_vnf_start(d, i, 1);
}
