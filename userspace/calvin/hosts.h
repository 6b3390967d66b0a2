/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Chains across hosts: what validate and plan say about them (hosts.c). */
#ifndef CALVIN_HOSTS_H
#define CALVIN_HOSTS_H

#include "spec/spec.h"

/* A chain with hosts: one line "hosts: local: probe, fwd-k; b (chassis b,
 * URI): fwd-u, server; ..." on stdout, or under -j the members hosts,
 * where and ovn_nb. Nothing for a chain on one host. */
void hosts_show(const struct calvin_chain_spec *spec);
/* The planner's view of each host a node of spec is on: its CPUs and
 * NUMA nodes, and the cores other chains' domains pin there, read through
 * its libvirt into t[1 + i] for spec->hosts[i] (NULL where no node is).
 * 0, or CALVIN_EXIT_FAIL with one line naming the host and its URI (one
 * that cannot be reached, or whose answers do not parse). */
struct calvin_topology;
int hosts_read(const struct calvin_chain_spec *spec, const struct calvin_topology **t);
/* After up defined the VM of VNF placement v on another host: read that
 * host's holds again, and refuse (-EBUSY after one line) a core another
 * chain's VM took there since hosts_read() (two controllers planning one
 * host at once): a core v owns, held by anyone new; a core v shares, owned
 * by anyone new. Both controllers may refuse; neither runs on a core
 * another owns. 0, or -errno after one line. */
struct calvin_vnf_place;
int hosts_recheck(const struct calvin_chain_spec *spec, const struct calvin_vnf_place *v);

#endif /* CALVIN_HOSTS_H */
