/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Where a user VNF really runs, as the kernel says it (`calvin status`):
 * parsers of /proc/PID/stat and /proc/PID/status text, and the text and
 * JSON forms. Pure code; the controller reads the files, or a VM's agent
 * reads them in the guest. */
#ifndef CALVIN_LIB_PLACEMENT_H
#define CALVIN_LIB_PLACEMENT_H

#include <stdbool.h>
#include <stdio.h>

#include "chainspec.h"
#include "cpumask.h"

/* The fields of /proc/PID/stat calvin reads (man 5 proc numbers them). */
struct calvin_procstat {
	char state;		  /* field 3 */
	unsigned long flags;	  /* 9: PF_*; PF_KTHREAD marks a kernel thread */
	unsigned long long start; /* 22: start time, clock ticks since boot */
	int last_cpu;		  /* 39: CPU it last ran on */
	unsigned int rt_priority; /* 40 */
	unsigned int policy;	  /* 41: SCHED_* */
};

/* 0, or -EINVAL. The command name (field 2) may hold spaces and ')'. */
int calvin_procstat_parse(const char *text, struct calvin_procstat *out);
/* Cpus_allowed_list and VmLck (kB; 0 when absent) of /proc/PID/status. */
int calvin_procstatus_parse(const char *text, struct calvin_cpumask *allowed,
			    unsigned long *locked_kb);
/* "other", "fifo", "rr", "batch", "idle", "deadline", or "?" */
const char *calvin_sched_policy_name(unsigned int policy);

struct calvin_vnf_placement {
	char name[CALVIN_NAME_MAX + 1];
	int pid; /* 0: not running */
	struct calvin_cpumask allowed;
	int last_cpu;
	unsigned int policy, priority;
	char cpuset[256]; /* its cgroup in the cpuset hierarchy */
	unsigned long locked_kb;
	const char *isolated_by; /* what isolates every CPU it may run on; NULL: not isolated */
	/* a VNF in a VM: pid, CPUs, policy and isolation are the guest's */
	char vm[128];			    /* the domain; "" on the host */
	bool exited;			    /* pid 0 in a VM: it ran and exited, with exit_status */
	int exit_status;		    /* its wait status */
	int host_last_cpu;		    /* the host CPU its vCPU last ran on; -1: unknown */
	struct calvin_cpumask host_allowed; /* the host CPUs that vCPU may run on */
};

/* One VNF: a line of text ("  NAME  pid N  cpus ..."), or a JSON object
 * (the caller puts it). */
void calvin_placement_print(FILE *f, const struct calvin_vnf_placement *p);
struct json_object;
struct json_object *calvin_placement_jobj(const struct calvin_vnf_placement *p);

#endif /* CALVIN_LIB_PLACEMENT_H */
