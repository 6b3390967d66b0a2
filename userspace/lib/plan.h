/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Placement: which CPU each VNF gets, and what is left for housekeeping.
 * Pure code: the host's topology comes in as a struct (host.h reads it),
 * the plan goes out.
 *
 * Only user VNFs get cores: they busy-poll. Kernel VNFs run in the softirq
 * of whichever CPU delivers their packets (on veth, the sender's), so they
 * are placed by where their neighbours run, not pinned; under the libvirt
 * backend each VM's vCPU 1 runs its VNFs, so every VM takes a core (its
 * kernel VNFs get it too, and VNFs sharing a node share their VM's). Housekeeping (the
 * probe, the controller, emulator threads, IRQs) gets the cores no VNF is
 * placed on, at least one, and never a nohz_full one: the tick it needs
 * would keep those cores from being tickless. */
#ifndef CALVIN_LIB_PLAN_H
#define CALVIN_LIB_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "chainspec.h"
#include "cpumask.h"

/* ---- the host, as the planner sees it ---- */

/* How a deployed chain holds a CPU (its plan record, see below). */
enum calvin_hold_kind {
	CALVIN_HOLD_OWNS,	  /* a VNF busy-polls on it */
	CALVIN_HOLD_SHARES,	  /* VNFs share it, waiting for packets */
	CALVIN_HOLD_HOUSEKEEPING, /* a VNF shares the chain's housekeeping core */
};

struct calvin_hold {
	char chain[CALVIN_NAME_MAX + 1];
	char vnf[CALVIN_NAME_MAX + 1];
	int cpu;
	enum calvin_hold_kind kind;
	bool isolated; /* isolated now or to be at run time: keep off its SMT siblings */
};

#define CALVIN_MAX_HOLDS 1024

struct calvin_topology {
	unsigned int nr_cpus; /* highest online CPU + 1 */
	struct calvin_cpumask online;
	struct calvin_cpumask isolcpus;	 /* isolated at boot (isolcpus=) */
	struct calvin_cpumask partitions; /* in cgroup v2 isolated partitions */
	struct calvin_cpumask nohz_full;
	struct calvin_cpumask affinity; /* the controller's allowed CPUs */
	struct calvin_cpumask cpuset;   /* its cgroup's cpuset: all when it has none */
	int core[CALVIN_MAX_CPUS];     /* SMT core: the lowest of its thread siblings */
	int node[CALVIN_MAX_CPUS];     /* NUMA node; -1: unknown */
	unsigned int nr_nodes;	       /* 0: unknown */
	unsigned int nr_holds;	       /* cores other deployed chains hold */
	struct calvin_hold holds[CALVIN_MAX_HOLDS];
	/* for `calvin plan`: where the cpuset came from, and what could not
	 * be read ("" when all was read) */
	char cpuset_from[256];
	char unread[256];
};

/* nr_cpus CPUs, all online and allowed, each its own core, nodes unknown,
 * nothing isolated or held: the base of a host description. */
void calvin_topology_init(struct calvin_topology *t, unsigned int nr_cpus);

/* The online CPUs of SMT core core (its lowest CPU), or of NUMA node
 * node, into out; returns how many. */
unsigned int calvin_topology_core_cpus(const struct calvin_topology *t, int core,
				       struct calvin_cpumask *out);
unsigned int calvin_topology_node_cpus(const struct calvin_topology *t, int node,
				       struct calvin_cpumask *out);

/* ---- the plan ---- */

/* What a VNF may ask for and be granted, best first. With allow-sharing, a
 * VNF that cannot have what it asked for degrades one step at a time in
 * this order. */
enum calvin_grant {
	CALVIN_GRANT_ISOLATED,	  /* a core of its own, isolated now or at run time */
	CALVIN_GRANT_DEDICATED,	  /* a core of its own, not isolated */
	CALVIN_GRANT_SHARED_CORE, /* a core shared with other VNFs, not with housekeeping */
	CALVIN_GRANT_SHARED,	  /* a housekeeping core, or not pinned at all */
	CALVIN_GRANT_SOFTIRQ,	  /* kernel VNF: the softirq of the CPU that delivers */
};

enum calvin_isolation {
	CALVIN_ISOL_NONE,
	CALVIN_ISOL_NOW,      /* isolcpus= or a cgroup v2 isolated partition */
	CALVIN_ISOL_RUN_TIME, /* to be isolated by calvin (a cpuset partition) */
};

/* How a user VNF waits for packets: it busy-polls only a core it owns. */
enum calvin_plan_wait {
	CALVIN_PLAN_WAIT_NONE, /* kernel VNF */
	CALVIN_PLAN_WAIT_BUSY,
	CALVIN_PLAN_WAIT_WAKEUP, /* sleeps in the kernel until packets come */
};

#define CALVIN_WHY_MAX 160

struct calvin_vnf_place {
	int cpu;   /* -1: not pinned */
	bool owns; /* no other VNF and no housekeeping on cpu */
	enum calvin_grant asked, granted;
	enum calvin_isolation isolation; /* of cpu */
	enum calvin_plan_wait wait;
	char why[CALVIN_WHY_MAX]; /* why granted is worse than asked; "" if not */
};

struct calvin_plan {
	enum calvin_placement policy;
	unsigned int nr_vnfs;
	struct calvin_vnf_place vnf[CALVIN_MAX_VNFS];
	struct calvin_cpumask housekeeping; /* for the probe, controller, IRQs */
	struct calvin_cpumask isolate;	   /* cores to isolate at run time */
	unsigned int nr_degraded;	   /* VNFs granted less than they asked */
};

/* Make the plan for spec on host t, or explain in err (one line) what the
 * host lacks and return -ENOSPC (-ENODEV: no CPU at all for housekeeping).
 * nic_node[i] is the NUMA node of VNF i's NIC, -1 where unknown; NULL: all
 * unknown (veth). */
int calvin_plan_make(const struct calvin_chain_spec *spec, const struct calvin_topology *t,
		     const int *nic_node, struct calvin_plan *p, char *err, size_t errlen);

/* A deployed chain's housekeeping set hk, less the cores other chains'
 * VNFs (t->holds) took since; unchanged if that would leave none. */
void calvin_plan_housekeeping_now(const struct calvin_topology *t, struct calvin_cpumask *hk);

/* CPUs a VNF may be pinned to: online, in the controller's cpuset and
 * affinity; isolated CPUs count even outside them (see plan.c). */
void calvin_plan_usable(const struct calvin_topology *t, struct calvin_cpumask *out);

const char *calvin_grant_name(enum calvin_grant g);
const char *calvin_isolation_name(enum calvin_isolation i);
const char *calvin_plan_wait_name(enum calvin_plan_wait w);
const char *calvin_hold_kind_name(enum calvin_hold_kind k);

/* ---- the plan record: RUN_DIR/CHAIN.plan ----
 *
 * What `calvin up` deployed, so that other chains' plans keep off its
 * cores and its probe finds its housekeeping cores. Text, one item a line:
 *
 *   housekeeping CPULIST
 *   isolate [CPULIST]            (cores to isolate at run time, if any)
 *   vnf NAME CPU owns|shares|housekeeping [isolated]
 *   degraded NAME ASKED GRANTED WHY...   (a VNF granted less than it asked)
 *
 * Lines starting with '#' and unknown words are skipped, so a newer calvin
 * can add lines an older one reads past. */

/* The record of plan into f. */
void calvin_plan_record_write(FILE *f, const struct calvin_chain_spec *spec,
			      const struct calvin_plan *p);

/* One line of a record: the housekeeping set goes to hk (may be NULL), a
 * vnf line to *hold (chain left as it is) with 1 returned; 0 for any
 * other line; -EINVAL for a line that does not parse. */
int calvin_plan_record_line(const char *line, struct calvin_cpumask *hk, struct calvin_hold *hold);

/* A VNF the plan gave less than it asked for, as its record says: what
 * reports of the chain tell (probe, run, status). */
struct calvin_degraded {
	char vnf[CALVIN_NAME_MAX + 1];
	enum calvin_grant asked, granted;
	char why[CALVIN_WHY_MAX];
};

/* A degraded line of a record into *d: 1; 0 for any other line; -EINVAL
 * for a degraded line that does not parse. */
int calvin_plan_record_degraded(const char *line, struct calvin_degraded *d);

/* "fwd-u asked isolated, got shared-core: no core left to dedicate" */
void calvin_degraded_text(const struct calvin_degraded *d, char *buf, size_t len);

/* ---- printing ---- */

/* The plan for people: per VNF its CPU, owns or shares, isolation, wait
 * mode, what it was degraded from and why; the housekeeping set; what was
 * read from the host. */
void calvin_plan_print_text(FILE *f, const struct calvin_chain_spec *spec,
			    const struct calvin_topology *t, const struct calvin_plan *p);
/* The same as one JSON object (the caller puts it; NULL when out of
 * memory), and that object written to f on one line. */
struct json_object;
struct json_object *calvin_plan_jobj(const struct calvin_chain_spec *spec,
				     const struct calvin_topology *t, const struct calvin_plan *p);
void calvin_plan_print_json(FILE *f, const struct calvin_chain_spec *spec,
			    const struct calvin_topology *t, const struct calvin_plan *p);

#endif /* CALVIN_LIB_PLAN_H */
