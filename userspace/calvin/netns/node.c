// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The netns backend: one network namespace per node, veth pairs as links,
 * kernel VNFs as XDP programs on the node's veths, user VNFs as pinned
 * processes inside the node's namespace. The namespaces, veths and the
 * server are nodes/'s; here: the endpoints' set-up and the checks. */
#include <limits.h>

#include "netns.h"
#include "util.h"

static int node_mac(struct deploy *d, const char *node, const char *ifname, uint8_t mac[6])
{
	return node_mac_of(d->spec->name, node, ifname, mac);
}

static int netns_endpoints_setup(struct deploy *d)
{
	const struct calvin_chain_spec *s = d->spec;
	const char *first = d->nodes[1].name, *last = d->nodes[d->nr_nodes - 2].name;
	uint8_t mac[6];
	int err;

	err = node_mac(d, first, IF_WEST, mac);
	if (!err)
		err = nsnode_endpoint(d, PROBE_NODE, IF_EAST, PROBE_ADDR, SERVER_ADDR, mac);
	if (!err)
		err = node_mac(d, last, IF_EAST, mac);
	return err ? err
		   : nsnode_endpoint(d, s->server.name, IF_WEST, SERVER_ADDR, PROBE_ADDR, mac);
}

/* Every name the deployment will journal: namespaces and DPDK runtime
 * directories (derived from names of at most CALVIN_NAME_MAX, so they
 * fit; checked all the same, as what the journal holds must be whole). */
static int netns_check(const struct calvin_chain_spec *spec, bool offline)
{
	struct calvin_node nodes[CALVIN_MAX_NODES];
	unsigned int n = calvin_chain_nodes(spec, nodes), i;
	char name[PATH_MAX];
	int err = 0;

	for (i = 0; !err && i < n; i++)
		err = node_netns(name, sizeof(name), spec->name, nodes[i].name);
	for (i = 0; !err && i < spec->nr_vnfs; i++)
		if (spec->vnfs[i].space == CALVIN_USER)
			err = netns_dpdk_dir(name, sizeof(name), spec->name, spec->vnfs[i].name);
	if (!err && state_name_fits(name))
		return 0;
	calvin_err("chain %s: '%.64s...' is too long for its journal; shorten the chain's names",
		   spec->name, name);
	return CALVIN_EXIT_USAGE;
}

const struct node_backend netns_backend = {
	.name = BACKEND_NETNS,
	.check = netns_check,
	.node_create = nsnode_create,
	.link_create = nsnode_link,
	.endpoints_setup = netns_endpoints_setup,
	.kernel_node = netns_kernel_node,
	.server = nsnode_server,
	.user_vnf = netns_user_vnf,
	.node_enter = nsnode_enter,
	.node_exec = nsnode_exec,
	.kernel_stats = netns_kernel_stats,
	.user_stats = netns_user_stats,
	.kernel_update = netns_kernel_update,
	.destroy = nsnode_destroy,
};
