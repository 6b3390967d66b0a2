/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Inside the planner: its working state and rules (plan_rules.c), shared
 * by plan.c (placing) and plan_explain.c (saying what is missing). */
#ifndef CALVIN_LIB_PLAN_PRIV_H
#define CALVIN_LIB_PLAN_PRIV_H

#include "plan/plan.h"

struct planner {
	const struct calvin_chain_spec *spec;
	const struct calvin_topology *t;
	const int *nic_node;
	int host; /* the VNFs it places: those on this host (calvin_plan_host_of) */
	struct calvin_plan *p;
	struct calvin_cpumask usable;	      /* see calvin_plan_usable() */
	struct calvin_cpumask isolated;	      /* now: isolcpus and isolated partitions */
	struct calvin_cpumask held;	      /* by other chains, in any way */
	struct calvin_cpumask held_vnf;	      /* other chains' VNF cores (not housekeeping) */
	struct calvin_cpumask placed;	      /* this chain's VNF cores, off housekeeping */
	bool run_time_ok;		      /* may choose cores to isolate at run time */
	int hk;				      /* the housekeeping core kept whatever happens */
	int last_node;			      /* NUMA node of the VNF placed last */
	unsigned short load[CALVIN_MAX_CPUS]; /* this chain's VNFs per CPU */
	/* per SMT core (indexed by its lowest CPU): */
	unsigned short core_busy[CALVIN_MAX_CPUS]; /* CPUs in use */
	bool core_isolated[CALVIN_MAX_CPUS];	   /* holds an isolated VNF core */
};

/* ---- plan_rules.c ---- */

/* May housekeeping use c? */
bool plan_hk_eligible(const struct planner *pl, int c);
/* The NUMA node of VNF vnf's NIC; -1: unknown. */
int plan_nic_of(const struct planner *pl, unsigned int vnf);
/* May VNF vnf have c as an isolated core (numa: on its NIC's node)? */
bool plan_may_isolate(const struct planner *pl, unsigned int vnf, int c, bool numa);
/* May a VNF have c as a dedicated core? */
bool plan_may_dedicate(const struct planner *pl, int c);

/* Does VNF i need a core of its own (a user VNF; under libvirt, the first
 * VNF of each VM)? *follows: it runs beside the VNF before it, in its VM. */
bool calvin_plan_needs_core(const struct calvin_chain_spec *spec, unsigned int i, bool *follows);

/* Is VNF i on the planner's host? */
bool plan_on_host(const struct planner *pl, unsigned int i);

/* ---- plan_explain.c ---- */

/* Why VNF vnf cannot have level g, a few words for its plan. */
void plan_why_not(const struct planner *pl, unsigned int vnf, enum calvin_grant g, char *buf,
		  size_t len);
/* The one-line error when VNF vnf cannot have level g and sharing is not
 * allowed: what the chain needs and what the host has. */
void plan_explain_missing(const struct planner *pl, unsigned int vnf, enum calvin_grant g,
			  char *err, size_t errlen);
/* The one-line error when no CPU may do housekeeping. */
void plan_explain_no_housekeeping(const struct planner *pl, char *err, size_t errlen);

#endif /* CALVIN_LIB_PLAN_PRIV_H */
