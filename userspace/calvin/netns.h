/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Parts of the netns backend that live in files of their own. */
#ifndef CALVIN_NETNS_H
#define CALVIN_NETNS_H

#include "backend.h"

int netns_user_vnf(struct deploy *d, unsigned int vnf_id);
int netns_destroy(struct chain_state *s);
/* The node at the far end of VNF i's west and east links. */
const char *west_of(const struct calvin_chain_spec *s, unsigned int i);
const char *east_of(const struct calvin_chain_spec *s, unsigned int i);
int node_mac_of(const char *chain, const char *node, const char *ifname, uint8_t mac[6]);

#endif /* CALVIN_NETNS_H */
