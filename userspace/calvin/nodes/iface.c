// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* A node's interfaces, as the netns backend's nodes, kernel VNFs and user
 * VNFs all need them: their MACs, and XDP attachments, journalled before
 * they are made, with the pass program where a peer redirects. */
#include <string.h>

#include "loader.h"
#include "nodes.h"
#include "util.h"

/* MAC of IFNAME in NODE's namespace. */
int node_mac_of(const char *chain, const char *node, const char *ifname, uint8_t mac[6])
{
	char ns[128];
	int err, saved;

	node_netns(ns, sizeof(ns), chain, node);
	err = netns_enter(ns, &saved);
	if (err)
		return err;
	err = if_mac(ifname, mac);
	netns_leave(saved);
	return err;
}

/* Journal an XDP attachment on one interface of a node, before it is made. */
int xdp_intent(struct deploy *d, const char *node, const char *ifname)
{
	char ns[128];

	node_netns(ns, sizeof(ns), d->spec->name, node);
	return state_add(d->state, ST_XDP, ns, ifname, 0, 0);
}

/* The pass-everything program on one interface of a node, so that it
 * accepts what its peer XDP_REDIRECTs or XDP_TXes into it (see
 * kernel/pass.bpf.c); the caller journalled it with xdp_intent(). */
int node_pass_attach(struct deploy *d, const char *node, const char *ifname)
{
	char ns[128];
	int err, saved;

	node_netns(ns, sizeof(ns), d->spec->name, node);
	err = netns_enter(ns, &saved);
	if (err)
		return err;
	err = calvin_xdp_pass_attach(if_index(ifname));
	netns_leave(saved);
	if (err)
		calvin_err("%s: Failed to attach XDP pass program to %s: %s", node, ifname,
			   strerror(-err));
	return err;
}
