/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The node backend interface: what a chain needs from the place its nodes
 * live. The netns backend (netns.c) is the default and the only one so far. */
#ifndef CALVIN_BACKEND_H
#define CALVIN_BACKEND_H

#include <stdbool.h>
#include <stdint.h>

#include "chainspec.h"
#include "state.h"
#include "topo.h"

/* Every node names its interface toward the probe "west" and toward the
 * server "east"; the probe has only east, the server only west. */
#define IF_WEST "west"
#define IF_EAST "east"

/* Endpoint addresses inside the chain's own namespaces. */
#define PROBE_ADDR "10.70.0.1"
#define SERVER_ADDR "10.70.0.2"
#define CHAIN_PREFIXLEN "24"
/* MTU of links between two VNFs: 1500 plus room for a few transforms'
 * headers and tags (NC adds 18 bytes, AEAD 32) */
#define INNER_MTU "1600"

/* One deployment in progress: the spec, its journal, the placement. */
struct deploy {
	const struct calvin_chain_spec *spec;
	struct chain_state *state;
	int vnf_cpu[CALVIN_MAX_VNFS]; /* -1: not pinned */
	bool shared;		      /* the plan shares cores between user VNFs */
	unsigned int nr_nodes;
	struct calvin_node nodes[CALVIN_MAX_NODES];
};

struct node_backend {
	const char *name;
	int (*node_create)(struct deploy *d, const char *node);
	int (*link_create)(struct deploy *d, const char *a, const char *b);
	/* addresses, neighbours and offloads of the probe and the server */
	int (*endpoints_setup)(struct deploy *d);
	/* the kernel VNFs of node n, in order */
	int (*kernel_node)(struct deploy *d, unsigned int n);
	int (*server)(struct deploy *d);
	int (*user_vnf)(struct deploy *d, unsigned int vnf_id);
	/* undo everything the journal names; harmless to call twice */
	int (*destroy)(struct chain_state *s);
};

extern const struct node_backend netns_backend;

/* Names derived from the chain and node names. */
void node_netns(char *out, size_t len, const char *chain, const char *node);
void vnf_pin_dir(char *out, size_t len, const char *chain, const char *node);
void vnf_file_prefix(char *out, size_t len, const char *chain, const char *node);
/* The node on the far end of VNF i's west and east links. */
const char *west_of(const struct deploy *d, unsigned int i);
const char *east_of(const struct deploy *d, unsigned int i);

#endif /* CALVIN_BACKEND_H */
