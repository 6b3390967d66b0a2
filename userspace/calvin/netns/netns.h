/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The netns backend's files and what they share (the operations are
 * described in ../backend.h). */
#ifndef CALVIN_NETNS_H
#define CALVIN_NETNS_H

#include "backend.h"

/* node.c */
int xdp_intent(struct deploy *d, const char *node, const char *ifname);
int node_mac_of(const char *chain, const char *node, const char *ifname, uint8_t mac[6]);
int netns_endpoint(struct deploy *d, const char *node, const char *ifname, const char *addr,
		   const char *far_addr, const uint8_t hop_mac[6]);
int node_pass_attach(struct deploy *d, const char *node, const char *ifname);
/* kvnf.c */
int netns_kernel_node(struct deploy *d, unsigned int node);
/* vnf.c */
int netns_user_vnf(struct deploy *d, unsigned int vnf);
/* Start user VNF vnf on its planned CPU with the traffic keys of epoch (the
 * first start of a deployment is epoch 1; a restart takes the next one, so
 * no nonce repeats): journalled, in its node, ready when it returns. */
int netns_vnf_start(struct deploy *d, unsigned int vnf, uint32_t epoch);
/* DPDK's runtime directory of a user VNF. */
int netns_dpdk_dir(char *out, size_t len, const char *chain, const char *vnf);
/* run.c */
int netns_node_enter(const struct calvin_chain_spec *s, const char *node, int *saved);
int netns_node_exec(const struct calvin_chain_spec *s, const char *node, char *const argv[]);
int netns_kernel_stats(const struct calvin_chain_spec *s, unsigned int vnf,
		       struct kvnf_counters *out);
int netns_user_stats(const struct calvin_chain_spec *s, unsigned int vnf, char *json, size_t len);
int netns_kernel_update(const struct calvin_chain_spec *s, unsigned int vnf);
/* down.c */
int netns_destroy(struct chain_state *s);

#endif /* CALVIN_NETNS_H */
