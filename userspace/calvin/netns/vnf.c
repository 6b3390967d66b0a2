// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* User VNFs in the netns backend: calvin-vnf (DPDK) started inside the
 * node's namespace, pinned (or not, as planned), journalled before it can
 * do anything. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/close_range.h>

#include "guest/guest.h"
#include "isolate/isolate.h"
#include "netns.h"
#include "sa_pipe.h"
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

/* In the child: wait for the parent's go (it has journalled our PID by
 * then), enter the node, exec. EOF on the pipe means the controller died
 * before it could journal us: leave without a trace. */
static void vnf_child(struct deploy *d, unsigned int i, struct calvin_vnf_argv *a, int go,
		      int ready, int keys, const char *log)
{
	const struct calvin_vnf_spec *v = &d->spec->vnfs[i];
	char ns[128], c;
	int saved;

	/* the journal's lock belongs to the controller alone */
	close(d->state->fd);
	child_detach(log);
	if (read(go, &c, 1) != 1)
		_exit(1);
	node_netns(ns, sizeof(ns), d->spec->name, calvin_vnf_node(v));
	if (netns_enter(ns, &saved) < 0) {
		fprintf(stderr, "calvin: cannot enter %s\n", ns);
		_exit(1);
	}
	snprintf(a->ready_fd, sizeof(a->ready_fd), "%d", ready);
	/* Only the ready fd and the keys go on: a lock whoever ran calvin holds
	 * (flock(1) passes its fd on) must not live as long as the VNF. */
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	fcntl(ready, F_SETFD, 0);
	if (keys >= 0)
		fcntl(keys, F_SETFD, 0);
	execv(a->argv[0], a->argv);
	fprintf(stderr, "calvin: cannot run %s: %s\n", a->argv[0], strerror(errno));
	_exit(127);
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

/* Wait for the ready line on fd; pmd[] gets what it says of each port. */
static int vnf_wait_ready(int fd, int pmd[CALVIN_READY_SIDES])
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char buf[128];
	ssize_t n;
	int r;

	r = poll(&p, 1, VNF_READY_TIMEOUT_MS);
	if (r == 0)
		return -ETIMEDOUT;
	if (r < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return -ECHILD;
	buf[n] = '\0';
	return calvin_ready_parse(buf, pmd);
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

/* An encrypt or decrypt VNF's traffic keys in a pipe for it to inherit
 * (the first epoch of this deployment), in *fd; -1 for other kinds. */
static int vnf_keys(struct deploy *d, unsigned int i, int *fd)
{
	const struct calvin_vnf_spec *v = &d->spec->vnfs[i];
	struct calvin_sa_set set;
	int err;

	*fd = -1;
	if (v->kind != CALVIN_VNF_ENCRYPT && v->kind != CALVIN_VNF_DECRYPT)
		return 0;
	err = deploy_sa_set(d, i, 1, &set);
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

int netns_user_vnf(struct deploy *d, unsigned int i)
{
	const struct calvin_vnf_spec *v = &d->spec->vnfs[i];
	int go[2], ready[2], pmd[CALVIN_READY_SIDES], keys, err;
	char path[PATH_MAX], ns[128], log[PATH_MAX + 64], why[CALVIN_ESCAPED_LEN(512)],
	    bin[PATH_MAX];
	struct calvin_vnf_argv a;
	unsigned long long st;
	pid_t pid;

	err = vnf_keys(d, i, &keys);
	if (err)
		return err;
	err = vnf_args_fill(d, i, keys, &a, bin, sizeof(bin));
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
	if (pipe2(go, O_CLOEXEC) < 0) {
		err = -errno;
		goto close_keys;
	}
	if (pipe(ready) < 0) {
		err = -errno;
		goto close_go;
	}
	pid = fork();
	if (pid < 0) {
		err = -errno;
		goto close_ready;
	}
	if (pid == 0) {
		close(go[1]);
		close(ready[0]);
		vnf_child(d, i, &a, go[0], ready[1], keys, log);
	}
	close(go[0]);
	close(ready[1]);
	go[0] = ready[1] = -1;
	st = proc_start_time(pid);
	node_netns(ns, sizeof(ns), d->spec->name, calvin_vnf_node(v));
	err = state_add(d->state, ST_PROC, ns, NULL, pid, st);
	/* on a CPU other chains isolated already, it must start in their cpuset */
	if (!err)
		err = isolation_vnf_start(d, i, pid);
	if (err) {
		kill(pid, SIGKILL);
		goto close_ready;
	}
	if (write(go[1], "g", 1) != 1) {
		err = -errno;
		goto close_ready;
	}
	err = vnf_wait_ready(ready[0], pmd);
	if (!err) {
		err = vnf_ports_finish(d, i, pmd, log);
	} else if (err != -EINTR) {
		/* Ctrl-C is not the VNF's fault; the rollback stops it */
		last_line(log, why, sizeof(why));
		calvin_err("%s: user VNF did not start: %s", v->name, why);
	}
close_ready:
	if (ready[0] >= 0)
		close(ready[0]);
	if (ready[1] >= 0)
		close(ready[1]);
close_go:
	if (go[0] >= 0)
		close(go[0]);
	close(go[1]);
close_keys:
	if (keys >= 0)
		close(keys);
	return err;
}
