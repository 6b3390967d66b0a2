// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The netns backend: one network namespace per node, veth pairs as links,
 * kernel VNFs as XDP programs on the node's veths, user VNFs as pinned
 * processes inside the node's namespace. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "loader.h"
#include "netns.h"
#include "nl/nl.h"
#include "util.h"

/* Write a sysctl of the current network namespace. */
static int write_sysctl(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		err = -errno;
	close(fd);
	return err;
}

static int netns_node_create(struct deploy *d, unsigned int n)
{
	char ns[128];
	int err, saved;

	err = node_netns(ns, sizeof(ns), d->spec->name, d->nodes[n].name);
	if (err)
		return err;
	/* never journal what is not ours: down would delete it */
	if (netns_exists(ns)) {
		calvin_err("network namespace %s exists already and is not chain %s's; remove "
			   "it ('ip netns delete %s') or rename the chain",
			   ns, d->spec->name, ns);
		return -EEXIST;
	}
	err = state_add(d->state, ST_NETNS, ns, NULL, 0, 0);
	if (err)
		return err;
	err = nl_netns_add(ns);
	if (err)
		return err;
	err = netns_enter(ns, &saved);
	if (err)
		return err;
	/* No IPv6 chatter (DAD, router solicitations) through a latency chain. */
	write_sysctl("/proc/sys/net/ipv6/conf/default/disable_ipv6", "1");
	write_sysctl("/proc/sys/net/ipv6/conf/all/disable_ipv6", "1");
	netns_leave(saved);
	return nl_link_up(ns, "lo", 0);
}

/* a's east to b's west; created straight into the two namespaces, so
 * deleting either namespace deletes the pair: nothing to journal. Links
 * between two VNFs carry what encoders and encryptors add to a packet
 * (headers, tags), so they get room beyond the endpoints' 1500 bytes. */
static int netns_link_create(struct deploy *d, unsigned int a, unsigned int b)
{
	unsigned int mtu = a > 0 && b + 1 < d->nr_nodes ? INNER_MTU : 1500;
	char nsa[128], nsb[128];
	int err;

	node_netns(nsa, sizeof(nsa), d->spec->name, d->nodes[a].name);
	node_netns(nsb, sizeof(nsb), d->spec->name, d->nodes[b].name);
	err = nl_veth_add(&(struct nl_veth_end){ .ifname = IF_EAST, .mtu = mtu, .ns = nsa },
			  &(struct nl_veth_end){ .ifname = IF_WEST, .mtu = mtu, .ns = nsb });
	if (!err)
		err = nl_link_up(nsa, IF_EAST, 0);
	return err ? err : nl_link_up(nsb, IF_WEST, 0);
}

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

static int node_mac(struct deploy *d, const char *node, const char *ifname, uint8_t mac[6])
{
	return node_mac_of(d->spec->name, node, ifname, mac);
}

/* An endpoint: address, a static neighbour for the far endpoint (no ARP
 * crosses the chain: VNFs rewrite MACs; the first hop's MAC stands for the
 * far endpoint), checksums in software (offloaded UDP checksums are not
 * filled in after XDP_REDIRECT). */
int netns_endpoint(struct deploy *d, const char *node, const char *ifname, const char *addr,
		   const char *far_addr, const uint8_t hop_mac[6])
{
	char ns[128], cidr[32];
	int err;

	node_netns(ns, sizeof(ns), d->spec->name, node);
	snprintf(cidr, sizeof(cidr), "%s/%s", addr, CHAIN_PREFIXLEN);
	err = nl_addr_add(ns, ifname, cidr);
	if (!err)
		err = nl_neigh_permanent(ns, ifname, far_addr, hop_mac);
	return err ? err : nl_tx_csum_off(ns, ifname);
}

static int netns_endpoints_setup(struct deploy *d)
{
	const struct calvin_chain_spec *s = d->spec;
	const char *first = d->nodes[1].name, *last = d->nodes[d->nr_nodes - 2].name;
	uint8_t mac[6];
	int err;

	err = node_mac(d, first, IF_WEST, mac);
	if (!err)
		err = netns_endpoint(d, PROBE_NODE, IF_EAST, PROBE_ADDR, SERVER_ADDR, mac);
	if (!err)
		err = node_mac(d, last, IF_EAST, mac);
	return err ? err : netns_endpoint(d, s->server.name, IF_WEST, SERVER_ADDR, PROBE_ADDR, mac);
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

/* The server reflects probes in XDP and passes the rest to its own stack;
 * the probe's veth gets a pass-through program so that it accepts the frames
 * the first VNF redirects to it. */
static int netns_server(struct deploy *d)
{
	const struct calvin_chain_spec *s = d->spec;
	struct calvin_xdp_reflect_cfg rc = { 0 };
	char ns[128], pin[PATH_MAX];
	int err, saved;

	vnf_pin_dir(pin, sizeof(pin), s->name, s->server.name);
	err = xdp_intent(d, s->server.name, IF_WEST);
	if (!err)
		err = xdp_intent(d, PROBE_NODE, IF_EAST);
	if (err)
		return err;
	node_netns(ns, sizeof(ns), s->name, s->server.name);
	err = netns_enter(ns, &saved);
	if (err)
		return err;
	rc.pin_dir = pin;
	rc.probe_port = (uint16_t)s->probe.port;
	rc.all = s->server.kind == CALVIN_SERVER_REFLECT;
	rc.ifindex = if_index(IF_WEST);
	err = calvin_xdp_reflect_attach(&rc);
	netns_leave(saved);
	if (err) {
		calvin_err("%s: Failed to attach XDP reflector: %s", s->server.name, strerror(-err));
		return err;
	}
	return node_pass_attach(d, PROBE_NODE, IF_EAST);
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
	.name = "netns",
	.check = netns_check,
	.node_create = netns_node_create,
	.link_create = netns_link_create,
	.endpoints_setup = netns_endpoints_setup,
	.kernel_node = netns_kernel_node,
	.server = netns_server,
	.user_vnf = netns_user_vnf,
	.node_enter = netns_node_enter,
	.node_exec = netns_node_exec,
	.kernel_stats = netns_kernel_stats,
	.user_stats = netns_user_stats,
	.kernel_update = netns_kernel_update,
	.destroy = netns_destroy,
};
