/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Starting calvin-vnf: one process with its ready pipe (and its keys'
 * pipe), for the netns backend on the host and the agent in a VM, and for
 * whoever restarts a VNF later (the supervisor). */
#ifndef CALVIN_AGENT_VNF_START_H
#define CALVIN_AGENT_VNF_START_H

#include <sys/types.h>

#include "guest/guest.h"

/* VNFs one calvin-vnf process may run (--wait loop; its VNF_GROUP_MAX) */
#define VNF_START_GROUP_MAX 8

struct vnf_start {
	const char *prog; /* who says "cannot run" in the child's log: "calvin" */
	/* built with a slot for --ready-fd (site.ready_fd = 0): the child
	 * writes its end of the ready pipe there */
	struct calvin_vnf_argv *argv;
	int keys_fd; /* inherited by calvin-vnf (--keys-fd); -1: none */
	/* Several VNFs in one process (--wait loop, joined by --next): n > 0
	 * runs group_argv instead of argv, with a ready pipe per VNF, its
	 * --ready-fd value written to ready_slot[k] (12 bytes each) and its
	 * keys in keys_fds[k] (-1: none); group_pmd[k] gets what VNF k's
	 * ready line says. n 0: the one VNF of argv. */
	unsigned int n;
	char **group_argv;
	char *ready_slot[VNF_START_GROUP_MAX];
	int keys_fds[VNF_START_GROUP_MAX];
	int (*group_pmd)[CALVIN_READY_SIDES];
	unsigned int ready_timeout_ms;
	/* In the child, once the parent said go: enter the node, send the
	 * output to a log, set the CPUs. Nonzero: the child exits (1). */
	int (*child)(void *ctx);
	/* In the parent, before the child may go on: journal its PID, put it
	 * in its cpuset. An error kills the child (SIGKILL) and is returned. */
	int (*started)(void *ctx, pid_t pid);
	void *ctx;
};

/* Fork calvin-vnf as s says and wait for its ready line; pmd[] gets the
 * PMD of each port it names (guest.h). *pid is the child's, or 0 when
 * none was left running; on an error after the start the caller stops it.
 * Returns 0, -ETIMEDOUT (no ready line in time), -ECHILD (it exited
 * first), -EPROTO (a line that is not one), or another -errno. */
int vnf_start(const struct vnf_start *s, pid_t *pid, int pmd[CALVIN_READY_SIDES]);

#endif /* CALVIN_AGENT_VNF_START_H */
