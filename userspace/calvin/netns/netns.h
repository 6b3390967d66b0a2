/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The netns backend's files and what they share (the operations are
 * described in ../backend.h; its nodes are nodes/'s namespaces). */
#ifndef CALVIN_NETNS_H
#define CALVIN_NETNS_H

#include "backend.h"
#include "nodes/nodes.h"

/* kvnf.c */
int netns_kernel_node(struct deploy *d, unsigned int node);
/* rps.c: every rx queue of ifname in node namespace ns steered to cpus */
int netns_rps(const char *ns, const char *ifname, const struct calvin_cpumask *cpus);
/* vnf.c */
int netns_user_vnf(struct deploy *d, unsigned int vnf);
/* Start user VNF vnf on its planned CPU with the traffic keys of epoch (the
 * first start of a deployment is epoch 1; a restart takes the next one, so
 * no nonce repeats): journalled, in its node, ready when it returns. */
int netns_vnf_start(struct deploy *d, unsigned int vnf, uint32_t epoch);
/* DPDK's runtime directory of a user VNF. */
int netns_dpdk_dir(char *out, size_t len, const char *chain, const char *vnf);
/* run.c */
int netns_kernel_stats(const struct calvin_chain_spec *s, unsigned int vnf,
		       struct kvnf_counters *out);
int netns_user_stats(const struct calvin_chain_spec *s, unsigned int vnf, char *json, size_t len);
int netns_kernel_update(const struct calvin_chain_spec *s, unsigned int vnf);

#endif /* CALVIN_NETNS_H */
