/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The isolation applier: `placement: isolated` on a host whose cores were
 * not isolated at boot, and the per-chain realtime options. It writes the
 * host's cgroup, IRQ, workqueue and packet-steering files, journals every
 * old value first, and restores them at `down`. The decisions are pure code
 * in userspace/lib/isolate.h; this folder does the file work:
 *
 *   host.c      where the host keeps its files, file helpers
 *   record.c    the host-wide record of shared isolation, and its lock
 *   cgroup.c    cgroup v1 cpusets and cgroup v2 partitions, moving tasks
 *   irq.c       IRQ affinity and the unbound workqueue cpumask
 *   netsysfs.c  RPS/XPS in a node's own sysfs
 *   apply.c     up and down: the order of the steps
 *   chain.c     the request from a deployment, realtime options
 *   status.c    the placement as the kernel sees it
 */
#ifndef CALVIN_ISOLATE_H
#define CALVIN_ISOLATE_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "backend.h"
#include "plan/plan.h"

/* Where the host's files are. Every path the applier touches is built from
 * these, so the tests can point them at a fake tree. */
struct isolate_host {
	char proc[PATH_MAX];	/* "/proc" */
	char sys[PATH_MAX];	/* "/sys" */
	char v1[PATH_MAX];	/* the cgroup v1 cpuset hierarchy's mount; "" if none */
	char v2[PATH_MAX];	/* the cgroup v2 mount; "" if none */
	bool v2_cpuset;		/* the v2 root offers the cpuset controller */
	char run_dir[PATH_MAX]; /* where the host record and its lock live */
	/* mkdir(2) and rmdir(2) of a cgroup, NULL for the real ones: a fake
	 * tree has no cgroupfs to fill a new directory with its files */
	int (*mkdir)(const char *path);
	int (*rmdir)(const char *path);
};

/* One user VNF to place: its process, and the CPU the plan gave it. */
struct isolate_vnf {
	char name[CALVIN_NAME_MAX + 1];
	pid_t pid;
	unsigned long long start; /* identity across PID reuse */
	int cpu;		  /* -1: not pinned */
};

/* What the applier needs from a plan. isolation_request() fills it from
 * the current planner; a planner that says per VNF "to be isolated at run
 * time" fills isolate from that, and housekeeping from its own set. */
struct isolate_request {
	char chain[CALVIN_NAME_MAX + 1];
	enum calvin_placement policy;
	struct calvin_cpumask isolate;	    /* CPUs to isolate at run time */
	struct calvin_cpumask housekeeping; /* the probe's and the controller's */
	unsigned int nr_vnfs;
	struct isolate_vnf vnf[CALVIN_MAX_VNFS];
	unsigned int nr_netns; /* the chain's nodes, whose interfaces' RPS/XPS to keep off */
	char netns[CALVIN_MAX_NODES][128];
	struct calvin_realtime_spec rt;
};

/* The host as it is (mounts read from /proc/self/mountinfo). */
int isolate_host_detect(struct isolate_host *h);

/* Before anything is created: do the realtime options fit the plan?
 * Prints the one error line; returns an exit code. */
int isolation_check(const struct calvin_chain_spec *spec, const struct calvin_plan *plan);
/* The request of a deployed chain (its user VNFs are running). */
int isolation_request(const struct deploy *d, struct isolate_request *req);

/* Apply: isolate, place the VNFs, realtime options, packet steering.
 * Journals every old value first; returns 0 or -errno (one line printed). */
int isolation_up(const struct isolate_host *h, const struct isolate_request *req,
		 struct chain_state *st);
/* Undo what the chain's journal and the host record say this chain
 * changed; the host-wide part only when no other chain still needs it.
 * Harmless to repeat, and after a crash at any point of isolation_up(). */
int isolation_down(const struct isolate_host *h, struct chain_state *st);

/* A user VNF that is about to start (forked, not yet exec'd): if its CPU
 * is isolated already (by another chain), it must start there, or it could
 * not pin itself. Returns 0 or -errno. */
int isolation_vnf_start(const struct deploy *d, unsigned int vnf, pid_t pid);
/* Move the calling process onto housekeeping, if CPUs are isolated. */
void isolation_join_housekeeping(void);

/* `calvin status`: each user VNF's placement read back from the kernel,
 * and the host's isolation; housekeeping: the chain's housekeeping CPUs
 * (its plan record's). */
struct json_object;
/* As text on out, or under -j as members of the chain's object
 * ("isolation", "placement_read_back") when chain is not NULL. */
void isolation_status(FILE *out, const struct isolate_host *h, const struct calvin_chain_spec *spec,
		      const struct calvin_cpumask *housekeeping, struct json_object *chain);

#endif /* CALVIN_ISOLATE_H */
