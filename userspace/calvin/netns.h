/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Parts of the netns backend that live in files of their own. */
#ifndef CALVIN_NETNS_H
#define CALVIN_NETNS_H

#include "backend.h"

int netns_kernel_node(struct deploy *d, unsigned int n);
int xdp_intent(struct deploy *d, const char *node, const char *ifname);
int netns_user_vnf(struct deploy *d, unsigned int vnf_id);
int netns_destroy(struct chain_state *s);
int node_mac_of(const char *chain, const char *node, const char *ifname, uint8_t mac[6]);

#endif /* CALVIN_NETNS_H */
