// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Tear-down of what a journal names on this host (a netns deployment,
 * a libvirt chain's namespaces, the bench's conventional stack). Each step checks what
 * is there and treats "already gone" as done, so it works after a crash at
 * any point of `up` and when run twice. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loader.h"
#include "nodes.h"
#include "nl/nl.h"
#include "util.h"

#define STOP_TIMEOUT_MS 3000

/* Every process whose network namespace is ns: the VNFs we started, and
 * whatever a user started there with `calvin exec`. */
static void kill_netns_pids(const char *ns)
{
	char p[300];
	struct stat nsst, st;
	struct dirent *de;
	DIR *dir;
	pid_t pid;

	snprintf(p, sizeof(p), "/run/netns/%s", ns);
	if (stat(p, &nsst) < 0)
		return;
	dir = opendir("/proc");
	if (!dir)
		return;
	while ((de = readdir(dir))) {
		pid = (pid_t)atoi(de->d_name);
		if (pid <= 1 || pid == getpid())
			continue;
		snprintf(p, sizeof(p), "/proc/%d/ns/net", (int)pid);
		if (stat(p, &st) < 0 || st.st_ino != nsst.st_ino || st.st_dev != nsst.st_dev)
			continue;
		proc_stop(pid, proc_start_time(pid), STOP_TIMEOUT_MS);
	}
	closedir(dir);
}

static int detach_xdp(const struct state_entry *e)
{
	int err, saved, ifindex;

	if (!netns_exists(e->name))
		return 0;
	err = netns_enter(e->name, &saved);
	if (err)
		return err;
	ifindex = if_index(e->ifname);
	err = ifindex > 0 ? calvin_xdp_detach_all(ifindex) : 0;
	netns_leave(saved);
	if (err)
		calvin_err("%s: Failed to detach XDP from %s: %s", e->name, e->ifname,
			   strerror(-err));
	return err;
}

int nsnode_destroy(struct chain_state *s)
{
	unsigned int i;
	int err = 0;

	/* 1. processes, so nothing holds an interface or a DPDK runtime dir */
	for (i = 0; i < s->nr; i++)
		if (s->e[i].kind == ST_PROC)
			proc_stop(s->e[i].pid, s->e[i].start, STOP_TIMEOUT_MS);
	for (i = 0; i < s->nr; i++)
		if (s->e[i].kind == ST_NETNS)
			kill_netns_pids(s->e[i].name);
	/* 2. XDP programs, through libxdp so its bpffs pins go with them */
	for (i = 0; i < s->nr; i++)
		if (s->e[i].kind == ST_XDP && detach_xdp(&s->e[i]))
			err = -EIO;
	/* 3. namespaces, and with them every veth */
	for (i = 0; i < s->nr; i++)
		if (s->e[i].kind == ST_NETNS && netns_exists(s->e[i].name) &&
		    nl_netns_delete(s->e[i].name))
			err = -EIO;
	/* 4. files: pins, DPDK runtime dirs, logs, the spec copy */
	for (i = s->nr; i-- > 0;)
		if (s->e[i].kind == ST_PATH && rm_rf(s->e[i].name)) {
			calvin_err("cannot remove %s: %s", s->e[i].name, strerror(errno));
			err = -EIO;
		}
	return err;
}
