// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Packet steering (RPS, XPS) of a chain's interfaces, kept off isolated
 * CPUs. A node's interfaces show only in a sysfs mounted from inside its
 * network namespace; mounting one in the controller's own mount namespace
 * would show to the whole host. So a short-lived child makes a mount
 * namespace of its own, enters the node's network namespace, mounts a
 * sysfs there and waits; the controller reads and writes that sysfs through
 * /proc/CHILD/root, with its ordinary file helpers, and lets the child go. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "isolate_priv.h"
#include "util.h"

struct node_sysfs {
	pid_t pid;
	int go;		    /* closing it lets the child exit */
	char net[PATH_MAX]; /* the node's /sys/class/net, seen through the child */
};

static void __attribute__((noreturn)) child(const char *netns, int ready, int go)
{
	char c;

	/* nothing of the controller's: a journal's lock must die with it */
	if (dup2(go, STDIN_FILENO) < 0 || dup2(ready, STDOUT_FILENO) < 0 ||
	    close_range(STDERR_FILENO + 1, ~0U, 0) < 0)
		_exit(1);
	go = STDIN_FILENO;
	ready = STDOUT_FILENO;
	if (netns_sysfs_enter(netns))
		_exit(1);
	if (write(ready, "r", 1) != 1)
		_exit(1);
	/* until the controller is done, or dies */
	while (read(go, &c, 1) > 0)
		;
	_exit(0);
}

static void node_close(struct node_sysfs *n)
{
	if (n->go >= 0)
		close(n->go);
	if (n->pid > 0)
		waitpid(n->pid, NULL, 0);
	n->go = -1;
	n->pid = 0;
}

static int node_open(const struct isolate_host *h, const char *netns, struct node_sysfs *n)
{
	int ready[2], go[2], err = 0;
	char c;

	n->go = -1;
	n->pid = 0;
	if (pipe2(ready, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(go, O_CLOEXEC) < 0) {
		err = -errno;
		goto close_ready;
	}
	n->pid = fork();
	if (n->pid < 0) {
		err = -errno;
		close(go[0]);
		close(go[1]);
		goto close_ready;
	}
	if (n->pid == 0) {
		close(ready[0]);
		close(go[1]);
		child(netns, ready[1], go[0]);
	}
	close(go[0]);
	n->go = go[1];
	close(ready[1]);
	ready[1] = -1;
	if (read(ready[0], &c, 1) != 1)
		err = -ENODEV; /* the child could not set up: no such node, or no sysfs */
	else
		err =
		    pathf(n->net, sizeof(n->net), "%s/%d/root/sys/class/net", h->proc, (int)n->pid);
	if (err)
		node_close(n);
close_ready:
	close(ready[0]);
	if (ready[1] >= 0)
		close(ready[1]);
	return err;
}

struct steer {
	const struct calvin_cpumask *isolate, *hk;
	struct chain_state *st;
	unsigned int seen, changed;
};

/* One steering file: journalled, then rewritten, if it names isolated CPUs. */
static int steer_file(const struct node_sysfs *n, const char *netns, const char *rel,
		      struct steer *s)
{
	struct state_entry e = { .kind = ST_NETSYSFS };
	struct calvin_cpumask old, new;
	char path[PATH_MAX], hex[CALVIN_CPUS_TEXT_MAX];
	int err;

	if (pathf(path, sizeof(path), "%s/%s", n->net, rel))
		return -ENAMETOOLONG;
	/* a queue file a device does not have (xps on one queue) is nothing to do */
	if (read_text(path, e.value, sizeof(e.value)) || calvin_cpumask_parse_hex(e.value, &old))
		return 0;
	s->seen++;
	if (!calvin_isolate_steer(&old, s->isolate, s->hk, &new))
		return 0;
	if (!calvin_cpumask_hex(&new, hex, sizeof(hex)) ||
	    pathf(e.name, sizeof(e.name), "%s", netns) ||
	    pathf(e.ifname, sizeof(e.ifname), "%s", rel))
		return -ENAMETOOLONG;
	err = state_append(s->st, &e);
	if (!err)
		err = write_text(path, hex);
	if (!err)
		s->changed++;
	return err;
}

/* Every rx queue's rps_cpus and tx queue's xps_cpus of every interface. */
static int steer_node(const struct node_sysfs *n, const char *netns, struct steer *s)
{
	char dir[PATH_MAX], rel[64];
	struct dirent *ifd, *qd;
	DIR *ifs, *qs;
	int err = 0;

	ifs = opendir(n->net);
	if (!ifs)
		return -errno;
	while (!err && (ifd = readdir(ifs))) {
		if (ifd->d_name[0] == '.' || !strcmp(ifd->d_name, "lo") ||
		    pathf(dir, sizeof(dir), "%s/%s/queues", n->net, ifd->d_name))
			continue;
		qs = opendir(dir);
		while (!err && qs && (qd = readdir(qs))) {
			if (!strncmp(qd->d_name, "rx-", 3) &&
			    !pathf(rel, sizeof(rel), "%s/queues/%s/rps_cpus", ifd->d_name,
				   qd->d_name))
				err = steer_file(n, netns, rel, s);
			else if (!strncmp(qd->d_name, "tx-", 3) &&
				 !pathf(rel, sizeof(rel), "%s/queues/%s/xps_cpus", ifd->d_name,
					qd->d_name))
				err = steer_file(n, netns, rel, s);
		}
		if (qs)
			closedir(qs);
	}
	closedir(ifs);
	return err;
}

int netsysfs_steer(const struct isolate_host *h, const struct isolate_request *req,
		   const struct calvin_cpumask *isolate, const struct calvin_cpumask *housekeeping,
		   struct chain_state *st, unsigned int *changed)
{
	struct steer s = { isolate, housekeeping, st, 0, 0 };
	struct node_sysfs n;
	unsigned int i;
	int err = 0;

	for (i = 0; !err && i < req->nr_netns; i++) {
		err = node_open(h, req->netns[i], &n);
		if (err) {
			calvin_err("%s: cannot mount a sysfs in the node to steer packets: %s",
				   req->netns[i], strerror(-err));
			break;
		}
		s.seen = s.changed = 0;
		err = steer_node(&n, req->netns[i], &s);
		node_close(&n);
		calvin_info("%s: packet steering of %u queues read, %u kept off CPUs isolated",
			    req->netns[i], s.seen, s.changed);
		*changed += s.changed;
	}
	return err;
}

int netsysfs_restore(const struct isolate_host *h, struct chain_state *st)
{
	char path[PATH_MAX];
	struct node_sysfs n = { .go = -1 };
	const char *open_ns = NULL;
	unsigned int i;
	int err = 0;

	/* newest first; entries of one node come together */
	for (i = st->nr; i-- > 0;) {
		const struct state_entry *e = &st->e[i];

		if (e->kind != ST_NETSYSFS || !netns_exists(e->name))
			continue; /* a node that is gone took its interfaces along */
		if (!open_ns || strcmp(open_ns, e->name)) {
			node_close(&n);
			open_ns = NULL;
			if (node_open(h, e->name, &n)) {
				err = -EIO;
				continue;
			}
			open_ns = e->name;
		}
		if (pathf(path, sizeof(path), "%s/%s", n.net, e->ifname) ||
		    (write_text(path, e->value) && path_exists(path)))
			err = -EIO;
	}
	node_close(&n);
	return err;
}
