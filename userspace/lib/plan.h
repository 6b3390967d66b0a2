/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Placement: which CPU each node gets. Pure code: the host topology comes in
 * as a struct (read from sysfs by the controller), the plan goes out.
 *
 * Only user VNFs get cores of their own: they busy-poll. Kernel VNFs run in
 * the softirq of whichever CPU delivers their packets (on veth, the sender's),
 * so they are placed by where their neighbours run, not pinned; under the
 * libvirt backend each VM's vCPU 1 runs its VNFs, so every VM takes a core
 * (its kernel VNFs get that core in vnf_cpu too). The lowest
 * online CPU is kept for housekeeping (probe, controller, interrupts) when
 * the host has more than one. */
#ifndef CALVIN_LIB_PLAN_H
#define CALVIN_LIB_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "chainspec.h"

#define CALVIN_MAX_CPUS 1024

struct calvin_topology {
	unsigned int nr_cpus; /* highest online CPU + 1 */
	bool online[CALVIN_MAX_CPUS];
	bool isolated[CALVIN_MAX_CPUS];
	bool nohz_full[CALVIN_MAX_CPUS];
};

struct calvin_plan {
	enum calvin_placement policy;
	int housekeeping; /* CPU for the probe and the controller */
	int vnf_cpu[CALVIN_MAX_VNFS]; /* user VNFs, VMs: their CPU; -1: not pinned */
	bool shared; /* some user VNFs share a CPU (allow-sharing was needed) */
};

/* Parse a kernel CPU list ("0-3,8,10-11"; empty means none) into set.
 * Returns 0 or -EINVAL. */
int calvin_cpulist_parse(const char *s, bool set[CALVIN_MAX_CPUS]);

/* Make the plan, or explain in err (one line) what the host lacks. */
int calvin_plan_make(const struct calvin_chain_spec *spec, const struct calvin_topology *t,
		     struct calvin_plan *p, char *err, size_t errlen);

#endif /* CALVIN_LIB_PLAN_H */
