// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The libvirt backend's links on the host. Each VM NIC is a tap calvin
 * makes (and journals) before the VM opens it; the probe and the server
 * reach the first and last VM through a veth whose host end is a port like
 * a tap. Consecutive ports are joined by calvin's XDP link program
 * (links: xdp) or a two-port Linux bridge (links: bridge). Port names are
 * short hashes of the chain (userspace/lib/guest/guest.h): a name that exists
 * already is someone else's, and calvin refuses it rather than touch it. */
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include "loader.h"
#include "lv.h"
#include "nl/nl.h"
#include "util.h"

int lv_port_name(const struct deploy *d, unsigned int node, enum calvin_side side, char *out)
{
	return calvin_vm_port_name(out, d->spec->name, node, side);
}

const struct calvin_host_spec *lv_node_remote(const struct deploy *d, unsigned int n)
{
	const struct calvin_chain_spec *s = d->spec;

	if (n == 0)
		return NULL;
	if (n + 1 == d->nr_nodes)
		return calvin_spec_host(s, s->server.host);
	return calvin_spec_host(s, s->vnfs[d->nodes[n].first_vnf].host);
}

bool lv_link_ovn(const struct deploy *d, unsigned int west)
{
	return lv_node_remote(d, west) || lv_node_remote(d, west + 1);
}

unsigned int lv_link_mtu(const struct deploy *d, unsigned int west)
{
	if (lv_link_ovn(d, west))
		return calvin_link_mtu(d->spec);
	return west == 0 || west + 2 == d->nr_nodes ? 1500 : INNER_MTU;
}

bool lv_if_exists(const char *name)
{
	return if_nametoindex(name) != 0;
}

int lv_refuse_existing(const struct deploy *d, const char *what, const char *name)
{
	calvin_err("%s %s exists already and is not chain %s's; remove it ('ip link delete %s') "
		   "or rename the chain",
		   what, name, d->spec->name, name);
	return -EEXIST;
}

/* A port's link's MTU (lv_link_mtu): links between two VNFs carry what
 * transforms add (see INNER_MTU), links between hosts lose Geneve's. */
static unsigned int port_mtu(const struct deploy *d, unsigned int node, enum calvin_side side)
{
	return lv_link_mtu(d, side == CALVIN_WEST ? node - 1 : node);
}

int lv_tap_create(struct deploy *d, unsigned int node, enum calvin_side side)
{
	char tap[CALVIN_IFNAME_MAX + 1];
	int err;

	err = lv_port_name(d, node, side, tap);
	if (err)
		return err;
	if (lv_if_exists(tap))
		return lv_refuse_existing(d, "interface", tap);
	err = state_add(d->state, ST_TAP, tap, NULL, 0, 0);
	if (err)
		return err;
	err = nl_tap_add(tap);
	return err ? err : nl_link_up(NULL, tap, port_mtu(d, node, side));
}

/* The probe's east or the server's west, a veth made straight into the
 * endpoint's namespace. Deleting the namespace deletes the pair too, but
 * only some time after (the namespace is cleaned up in the background),
 * so down deletes the host end itself. Its MAC is fixed, so VNFs in VMs
 * know it from the spec alone. */
static int endpoint_veth(struct deploy *d, unsigned int node)
{
	enum calvin_side side = node == 0 ? CALVIN_EAST : CALVIN_WEST;
	char host[CALVIN_IFNAME_MAX + 1], ns[128];
	const char *ifname = side == CALVIN_EAST ? IF_EAST : IF_WEST;
	uint8_t mac[6];
	struct nl_veth_end here = { .mtu = 1500 }, there = { .mtu = 1500, .mac = mac };
	int err;

	err = lv_port_name(d, node, side, host);
	if (err)
		return err;
	if (lv_if_exists(host))
		return lv_refuse_existing(d, "interface", host);
	err = state_add(d->state, ST_VETH, host, NULL, 0, 0);
	if (err)
		return err;
	node_netns(ns, sizeof(ns), d->spec->name, d->nodes[node].name);
	calvin_vm_mac(mac, d->spec->name, node, side);
	here.ifname = host;
	there.ifname = ifname;
	there.ns = ns;
	err = nl_veth_add(&here, &there);
	if (!err)
		err = nl_link_up(ns, ifname, 0);
	return err ? err : nl_link_up(NULL, host, 0);
}

int lv_link_xdp(struct deploy *d, const char *a, const char *b)
{
	int err;

	err = state_add(d->state, ST_HOST_XDP, a, NULL, 0, 0);
	if (!err)
		err = state_add(d->state, ST_HOST_XDP, b, NULL, 0, 0);
	if (err)
		return err;
	err = calvin_xdp_link_attach((int)if_nametoindex(a), (int)if_nametoindex(b));
	if (err)
		calvin_err("Failed to attach XDP link program to %s and %s: %s", a, b,
			   strerror(-err));
	return err;
}

/* A veth end takes the frames its peer sends by XDP_TX (the server's
 * reflector) only if it has an XDP program itself: on a bridge port, the
 * pass program, which hands every frame to the bridge. */
static int bridge_port_xdp(struct deploy *d, const char *port)
{
	int err;

	err = state_add(d->state, ST_HOST_XDP, port, NULL, 0, 0);
	if (err)
		return err;
	err = calvin_xdp_pass_attach((int)if_nametoindex(port));
	if (err)
		calvin_err("Failed to attach XDP pass program to %s: %s", port, strerror(-err));
	return err;
}

/* A bridge of two ports: no STP, no forwarding delay, so it forwards from
 * the first frame. */
static int link_bridge(struct deploy *d, unsigned int node, const char *a, const char *b,
		       unsigned int mtu)
{
	char br[CALVIN_IFNAME_MAX + 1];
	int err;

	err = calvin_vm_bridge_name(br, d->spec->name, node);
	if (err)
		return err;
	if (lv_if_exists(br))
		return lv_refuse_existing(d, "bridge", br);
	err = state_add(d->state, ST_BRIDGE, br, NULL, 0, 0);
	if (err)
		return err;
	err = nl_bridge_add(NULL, br, mtu);
	if (!err)
		err = nl_link_master(NULL, a, br);
	if (!err)
		err = nl_link_master(NULL, b, br);
	return err ? err : nl_link_up(NULL, br, 0);
}

int lv_link_create(struct deploy *d, unsigned int a, unsigned int b)
{
	char pa[CALVIN_IFNAME_MAX + 1], pb[CALVIN_IFNAME_MAX + 1];
	int err = 0;

	if (a == 0)
		err = endpoint_veth(d, a);
	if (!err && b + 1 == d->nr_nodes)
		err = endpoint_veth(d, b);
	if (!err)
		err = lv_port_name(d, a, CALVIN_EAST, pa);
	if (!err)
		err = lv_port_name(d, b, CALVIN_WEST, pb);
	if (err)
		return err;
	if (d->spec->libvirt.links != CALVIN_LINKS_BRIDGE)
		return lv_link_xdp(d, pa, pb);
	if (a == 0)
		err = bridge_port_xdp(d, pa);
	if (!err && b + 1 == d->nr_nodes)
		err = bridge_port_xdp(d, pb);
	return err ? err : link_bridge(d, a, pa, pb, port_mtu(d, a, CALVIN_EAST));
}

/* XDP programs first (through libxdp, so its pins go too), then taps,
 * bridges and veths; whatever is gone already is done. */
int lv_links_destroy(struct chain_state *s)
{
	unsigned int i;
	int err = 0, ifindex, e;

	for (i = 0; i < s->nr; i++) {
		if (s->e[i].kind != ST_HOST_XDP)
			continue;
		ifindex = (int)if_nametoindex(s->e[i].name);
		e = ifindex > 0 ? calvin_xdp_detach_all(ifindex) : 0;
		if (e) {
			calvin_err("Failed to detach XDP from %s: %s", s->e[i].name, strerror(-e));
			err = -EIO;
		}
	}
	for (i = 0; i < s->nr; i++)
		if ((s->e[i].kind == ST_BRIDGE || s->e[i].kind == ST_TAP ||
		     s->e[i].kind == ST_VETH) &&
		    lv_if_exists(s->e[i].name) && nl_link_delete(NULL, s->e[i].name))
			err = -EIO;
	return err;
}
