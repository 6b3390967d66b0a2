// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Nodes that are network namespaces on this host: every node of a netns
 * chain, the probe and the server of every chain (a libvirt chain's too),
 * and the conventional stack calvin bench compares with. Made, joined by
 * veths, addressed, entered; the server's XDP reflector. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "loader.h"
#include "nl/nl.h"
#include "nodes.h"
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

int nsnode_sysctl(const char *ns, const char *path, const char *val)
{
	int err, saved;

	err = netns_enter(ns, &saved);
	if (err)
		return err;
	err = write_sysctl(path, val);
	netns_leave(saved);
	return err;
}

int nsnode_create(struct deploy *d, unsigned int n)
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
 * deleting either namespace deletes the pair: nothing to journal. The
 * endpoints' links get the chain's mtu; links between two VNFs carry what
 * encoders and encryptors add to a packet (headers, tags), so they get
 * room beyond it (calvin_inner_mtu()). */
int nsnode_link(struct deploy *d, unsigned int a, unsigned int b)
{
	unsigned int mtu = a > 0 && b + 1 < d->nr_nodes ? calvin_inner_mtu(d->spec) : d->spec->mtu;
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

/* An endpoint: address, a static neighbour for the far endpoint (no ARP
 * crosses the chain: VNFs rewrite MACs; the first hop's MAC stands for the
 * far endpoint), checksums in software where its first hop runs XDP
 * (offloaded UDP checksums are not filled in after XDP_REDIRECT; see
 * calvin_port_sw_csum()). */
int nsnode_endpoint(struct deploy *d, const char *node, const char *ifname, const char *addr,
		    const char *far_addr, const uint8_t hop_mac[6])
{
	bool probe = !strcmp(node, PROBE_NODE);
	char ns[128], cidr[32];
	int err;

	node_netns(ns, sizeof(ns), d->spec->name, node);
	snprintf(cidr, sizeof(cidr), "%s/%s", addr, CHAIN_PREFIXLEN);
	err = nl_addr_add(ns, ifname, cidr);
	if (!err)
		err = nl_neigh_permanent(ns, ifname, far_addr, hop_mac);
	if (err || !calvin_port_sw_csum(d->spec, d->nodes, d->nr_nodes,
					probe ? 0 : d->nr_nodes - 1, probe))
		return err;
	return nl_tx_csum_off(ns, ifname);
}

/* The probe's veth gets a pass-through program so that it accepts the
 * frames the first VNF redirects to it (not in throughput mode behind a
 * kernel VNF at tc, which redirects to its veth's transmit: the program
 * would only turn GSO off on that VNF's port). */
int nsnode_probe_pass(struct deploy *d)
{
	int err;

	if (!calvin_port_has_xdp(d->spec, d->nodes, d->nr_nodes, 0, true))
		return 0;
	err = xdp_intent(d, PROBE_NODE, IF_EAST);
	return err ? err : node_pass_attach(d, PROBE_NODE, IF_EAST);
}

/* The server reflects probes in XDP and passes the rest to its own stack. */
int nsnode_server(struct deploy *d)
{
	const struct calvin_chain_spec *s = d->spec;
	struct calvin_xdp_reflect_cfg rc = { 0 };
	char ns[128], pin[PATH_MAX];
	int err, saved;

	vnf_pin_dir(pin, sizeof(pin), s->name, s->server.name);
	err = xdp_intent(d, s->server.name, IF_WEST);
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
		calvin_err("%s: Failed to attach XDP reflector: %s", s->server.name,
			   strerror(-err));
		return err;
	}
	return nsnode_probe_pass(d);
}

int nsnode_enter(const struct calvin_chain_spec *s, const char *node, int *saved)
{
	char ns[128];
	int err;

	err = node_netns(ns, sizeof(ns), s->name, node);
	if (!err)
		err = netns_enter(ns, saved);
	if (err)
		calvin_err("cannot enter node '%s' of chain %s (%s): %s", node, s->name, ns,
			   strerror(-err));
	return err;
}

/* Like `nsenter --net`: only the network namespace changes, so bpffs and
 * /sys stay the host's. */
int nsnode_exec(const struct calvin_chain_spec *s, const char *node, char *const argv[])
{
	int saved;

	if (nsnode_enter(s, node, &saved))
		return CALVIN_EXIT_FAIL;
	close(saved);
	execvp(argv[0], argv);
	calvin_err("cannot run '%s' in node '%s': %s", argv[0], node, strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
