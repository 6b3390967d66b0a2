/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The host reader: the CPU topology the planner needs, from sysfs, procfs,
 * the cgroup filesystems and the plan records of deployed chains. It reads
 * files and needs no root; the filesystem root is a parameter, so tests
 * feed it trees of their own.
 *
 * What it reads, below root:
 *   sys/devices/system/cpu/{online,isolated,nohz_full}
 *   sys/devices/system/cpu/cpuN/topology/thread_siblings_list   (SMT)
 *   sys/devices/system/node/nodeN/cpulist                       (NUMA)
 *   proc/self/status (Cpus_allowed_list)                        (affinity)
 *   proc/self/cgroup and proc/self/mountinfo, then the cpuset of this
 *   process's cgroup: cgroup v1 cpuset.effective_cpus, or cgroup v2
 *   cpuset.cpus.effective; and cgroup v2 isolated partitions (the root's
 *   cpuset.cpus.isolated, or every cgroup whose cpuset.cpus.partition is
 *   "isolated")
 * and, in the run directory, every CHAIN.plan but the chain's own. */
#ifndef CALVIN_LIB_HOST_H
#define CALVIN_LIB_HOST_H

#include <stddef.h>

#include "plan.h"

struct calvin_host_source {
	const char *root;    /* "/" on a real host */
	const char *run_dir; /* where plan records are; NULL: none read */
	const char *chain;   /* whose own record is left out; may be NULL */
};

/* Fill t. Only the list of online CPUs is required: without it, -errno and
 * one line in err. Anything else missing means "none" or "no limit"; what
 * could not be read is said in t->unread. */
int calvin_host_read(const struct calvin_host_source *src, struct calvin_topology *t, char *err,
		     size_t errlen);

/* The housekeeping set of the plan record at path: 0, or -errno (-ENOENT:
 * no record; -EINVAL: it has no housekeeping line). */
int calvin_plan_record_housekeeping(const char *path, struct calvin_cpumask *hk);

/* The degraded lines of the plan record at path, at most max of them,
 * into d: how many, or -errno (-ENOENT: no record). */
int calvin_plan_record_degraded_read(const char *path, struct calvin_degraded *d, unsigned int max);

#endif /* CALVIN_LIB_HOST_H */
