/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Starting calvin-vnf: one process with its ready pipe (and its keys'
 * pipe), for the netns backend on the host and the agent in a VM, and for
 * whoever restarts a VNF later (the supervisor). */
#ifndef CALVIN_AGENT_VNF_START_H
#define CALVIN_AGENT_VNF_START_H

#include <sys/types.h>

#include "guest/guest.h"

struct vnf_start {
	const char *prog; /* who says "cannot run" in the child's log: "calvin" */
	/* built with a slot for --ready-fd (site.ready_fd = 0): the child
	 * writes its end of the ready pipe there */
	struct calvin_vnf_argv *argv;
	int keys_fd; /* inherited by calvin-vnf (--keys-fd); -1: none */
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
