// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Chain spec: a chain's nodes in path order (see spec.h). */
#include <string.h>

#include "spec/spec.h"

const char *calvin_vnf_node(const struct calvin_vnf_spec *v)
{
	return v->node[0] ? v->node : v->name;
}

unsigned int calvin_chain_nodes(const struct calvin_chain_spec *spec,
				struct calvin_node out[CALVIN_MAX_NODES])
{
	unsigned int n = 0, i;
	const char *node;

	memset(out, 0, CALVIN_MAX_NODES * sizeof(*out));
	out[n++].name = "probe";
	for (i = 0; i < spec->nr_vnfs; i++) {
		node = calvin_vnf_node(&spec->vnfs[i]);
		/* the parser guarantees that VNFs of one node are consecutive */
		if (n > 1 && out[n - 1].nr_vnfs && !strcmp(out[n - 1].name, node)) {
			out[n - 1].nr_vnfs++;
			continue;
		}
		out[n].name = node;
		out[n].first_vnf = i;
		out[n].nr_vnfs = 1;
		out[n].space = spec->vnfs[i].space;
		n++;
	}
	out[n++].name = spec->server.name;
	return n;
}

unsigned int calvin_node_of(const struct calvin_node *nodes, unsigned int nr, unsigned int vnf)
{
	unsigned int i;

	for (i = 1; i + 1 < nr; i++)
		if (vnf >= nodes[i].first_vnf && vnf < nodes[i].first_vnf + nodes[i].nr_vnfs)
			return i;
	return 0;
}
