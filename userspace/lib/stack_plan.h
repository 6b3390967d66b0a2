/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The conventional stack that `calvin bench` measures calvin against: the
 * chain's topology (the same nodes and links) with Linux IP forwarding in
 * kernel-VNF nodes, a UDP socket relay (calvin-relay) in user-VNF nodes
 * and a UDP echo server at the server. Pure: which addresses, routes and
 * relays each node gets.
 *
 * Link k (node k's east to node k+1's west) is the subnet 10.71.k.0/24,
 * .1 at its west end, .2 at its east end. A relay ends UDP: it receives on
 * its west address and sends on, from its east side, to the next relay or
 * the server, replies the same way back; so the probe sends to the first
 * relay (or, with none, the server): the entry. Other traffic (TCP) is
 * forwarded by the kernel in every middle node, relays' included. */
#ifndef CALVIN_LIB_STACK_PLAN_H
#define CALVIN_LIB_STACK_PLAN_H

#include <stdbool.h>

#include "chainspec.h"

#define CALVIN_STACK_ADDR_MAX 16 /* "10.71.255.2" and its NUL */
#define CALVIN_STACK_PREFIXLEN 24

enum calvin_stack_role {
	CALVIN_STACK_PROBE,
	CALVIN_STACK_ROUTER, /* a kernel-VNF node: IP forwarding */
	CALVIN_STACK_RELAY,  /* a user-VNF node: calvin-relay (and IP forwarding) */
	CALVIN_STACK_SERVER, /* the UDP echo server */
};

struct calvin_stack_route {
	char prefix[CALVIN_STACK_ADDR_MAX + 3]; /* "10.71.3.0/24", or "default" */
	bool east;				/* out of east (else west) */
	char via[CALVIN_STACK_ADDR_MAX];	/* the neighbour on that side */
};

struct calvin_stack_node {
	enum calvin_stack_role role;
	char west[CALVIN_STACK_ADDR_MAX], east[CALVIN_STACK_ADDR_MAX]; /* "": no such side */
	char west_peer[CALVIN_STACK_ADDR_MAX], east_peer[CALVIN_STACK_ADDR_MAX];
	char relay_to[CALVIN_STACK_ADDR_MAX]; /* a relay: the next relay or the server */
	unsigned int nr_routes;
	struct calvin_stack_route routes[CALVIN_MAX_NODES];
};

struct calvin_stack_plan {
	unsigned int nr_nodes;
	struct calvin_stack_node node[CALVIN_MAX_NODES];
	char entry[CALVIN_STACK_ADDR_MAX];  /* where the probe sends */
	char server[CALVIN_STACK_ADDR_MAX]; /* the server's address */
};

/* The plan for nodes[0..nr) (probe first, server last; calvin_chain_nodes()).
 * Returns 0, or -EINVAL for fewer than 3 nodes or more than 255 links. */
int calvin_stack_plan(const struct calvin_node *nodes, unsigned int nr,
		      struct calvin_stack_plan *p);

#endif /* CALVIN_LIB_STACK_PLAN_H */
