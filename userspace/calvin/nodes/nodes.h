/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Nodes that are network namespaces on this host, as both backends and
 * the bench use them: the netns backend for every node, the libvirt
 * backend for the probe and the server, calvin bench for the
 * conventional stack. No backend calls into another: what they share is
 * here. */
#ifndef CALVIN_NODES_H
#define CALVIN_NODES_H

#include "backend.h"

/* node.c: node n of d as a namespace, journalled first (a namespace of
 * that name that is not this chain's is refused); 0 or -errno. */
int nsnode_create(struct deploy *d, unsigned int n);
/* A veth from node a's east to node b's west, in their namespaces. */
int nsnode_link(struct deploy *d, unsigned int a, unsigned int b);
/* An endpoint's address, its static neighbour (hop_mac stands for the
 * far endpoint) and software checksums. */
int nsnode_endpoint(struct deploy *d, const char *node, const char *ifname, const char *addr,
		    const char *far_addr, const uint8_t hop_mac[6]);
/* The server's XDP reflector, and the pass program on the probe's east;
 * the latter alone where the server is a VM on another host. */
int nsnode_server(struct deploy *d);
int nsnode_probe_pass(struct deploy *d);
/* Write a sysctl (path under /proc/sys) inside namespace ns. */
int nsnode_sysctl(const char *ns, const char *path, const char *val);
/* Enter a node's namespace (the backend's node_enter), or run argv in it
 * (node_exec: returns only on failure, with an exit code). */
int nsnode_enter(const struct calvin_chain_spec *s, const char *node, int *saved);
int nsnode_exec(const struct calvin_chain_spec *s, const char *node, char *const argv[]);

/* iface.c: MAC of IFNAME in NODE's namespace; an XDP attachment
 * journalled before it is made; the pass program on an interface whose
 * peer redirects into it. */
int node_mac_of(const char *chain, const char *node, const char *ifname, uint8_t mac[6]);
int xdp_intent(struct deploy *d, const char *node, const char *ifname);
int node_pass_attach(struct deploy *d, const char *node, const char *ifname);

/* down.c: undo what a journal of host resources names (XDP attachments,
 * processes, pins, runtime folders, namespaces); each step treats
 * "already gone" as done. 0 or -errno. */
int nsnode_destroy(struct chain_state *s);

#endif /* CALVIN_NODES_H */
