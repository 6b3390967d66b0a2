// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Throughput mode: the receive of a kernel VNF's port that a user VNF sends to, steered (RPS) to the housekeeping CPUs.
 *
 * Why: a user VNF's AF_XDP transmit is a sendto() that runs the softirqs
 * its frames raise before it returns. Unsteered, everything behind the
 * VNF's port then runs on the VNF's own core: the kernel VNF at tc, the
 * TCP sender's ACK processing and next transmit, its software GSO, and the
 * veth NAPI that hands those segments back to the VNF's socket, while the
 * housekeeping core waits. With RPS the veth's receive queues that frame
 * to the housekeeping CPUs' backlogs instead (measured: about 1.45x the
 * goodput of one TCP stream through chains/tactile-fwd-tput.yaml).
 *
 * A node's interfaces show only in a sysfs mounted from inside its network
 * namespace, so a child makes a mount namespace of its own, enters the
 * node, mounts one and writes there; the node's namespace takes the
 * setting with it when the chain goes down.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "netns.h"
#include "plan/plan.h"
#include "util.h"

static int write_queues(const char *ifname, const char *hex)
{
	char dir[128], path[PATH_MAX];
	struct dirent *q;
	int fd, n = 0;
	DIR *qs;

	snprintf(dir, sizeof(dir), "/sys/class/net/%s/queues", ifname);
	qs = opendir(dir);
	if (!qs)
		return -1;
	while ((q = readdir(qs))) {
		if (strncmp(q->d_name, "rx-", 3))
			continue;
		snprintf(path, sizeof(path), "%s/%s/rps_cpus", dir, q->d_name);
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, hex, strlen(hex)) != (ssize_t)strlen(hex))
			n = -1;
		if (fd >= 0)
			close(fd);
	}
	closedir(qs);
	return n;
}

static void __attribute__((noreturn)) child(const char *ns, const char *ifname, const char *hex)
{
	if (netns_sysfs_enter(ns))
		_exit(1);
	_exit(write_queues(ifname, hex) ? 1 : 0);
}

int netns_rps(const char *ns, const char *ifname, const struct calvin_cpumask *cpus)
{
	char hex[CALVIN_CPUS_TEXT_MAX];
	int status;
	pid_t pid;

	if (!calvin_cpumask_hex(cpus, hex, sizeof(hex)))
		return -ENAMETOOLONG;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0)
		child(ns, ifname, hex);
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -EIO;
}
