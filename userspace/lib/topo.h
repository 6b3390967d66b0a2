/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* A chain's nodes in path order: the probe, the nodes the VNFs run on
 * (consecutive VNFs may share one), the server. Pure code. */
#ifndef CALVIN_LIB_TOPO_H
#define CALVIN_LIB_TOPO_H

#include "chainspec.h"

#define CALVIN_MAX_NODES (CALVIN_MAX_VNFS + 2)

struct calvin_node {
	const char *name;
	unsigned int first_vnf; /* index in spec->vnfs */
	unsigned int nr_vnfs; /* 0 for the probe and the server */
	enum calvin_space space; /* of its VNFs */
};

/* The name of the node VNF v runs on. */
const char *calvin_vnf_node(const struct calvin_vnf_spec *v);
/* Fill out[] with the nodes in path order; returns how many. */
unsigned int calvin_chain_nodes(const struct calvin_chain_spec *spec,
				struct calvin_node out[CALVIN_MAX_NODES]);
/* Index in out[] of the node VNF i runs on. */
unsigned int calvin_node_of(const struct calvin_node *nodes, unsigned int nr, unsigned int vnf);

#endif /* CALVIN_LIB_TOPO_H */
