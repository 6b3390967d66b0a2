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

/* Node i's west or east interface runs an XDP program: every one in
 * latency mode (kernel VNFs, user VNFs' hand-over, the server's reflector,
 * the probe's pass program); in throughput mode all but the kernel VNFs'
 * (at tc), and the probe's when the first hop is at tc too (nothing there
 * XDP_REDIRECTs to it). */
bool calvin_port_has_xdp(const struct calvin_chain_spec *spec, const struct calvin_node *nodes,
			 unsigned int nr, unsigned int i, bool east)
{
	if (spec->mode != CALVIN_MODE_THROUGHPUT)
		return true;
	if (i == 0)
		return nr > 2 && nodes[1].space == CALVIN_USER;
	if (i + 1 == nr)
		return true;
	return nodes[i].space == CALVIN_USER;
}

/* A checksum left to offload (CHECKSUM_PARTIAL) is not filled in when an
 * XDP program takes the frame, so an interface whose peer runs one must
 * checksum in software (ethtool tx off, which turns GSO off there too: a
 * GSO packet is segmented and checksummed on its way out of it). Latency
 * mode: the endpoints, as always; throughput mode: the endpoints and
 * kernel-VNF interfaces whose peer runs XDP, so that the sender keeps TSO
 * where its first hop is at tc. User VNFs' ports send no such frames. */
bool calvin_port_sw_csum(const struct calvin_chain_spec *spec, const struct calvin_node *nodes,
			 unsigned int nr, unsigned int i, bool east)
{
	bool endpoint = i == 0 || i + 1 == nr;

	if (spec->mode != CALVIN_MODE_THROUGHPUT)
		return endpoint;
	if (!endpoint && nodes[i].space == CALVIN_USER)
		return false;
	if (east)
		return i + 1 < nr && calvin_port_has_xdp(spec, nodes, nr, i + 1, false);
	return i > 0 && calvin_port_has_xdp(spec, nodes, nr, i - 1, true);
}
