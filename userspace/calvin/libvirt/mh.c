// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The libvirt backend across hosts (issue 16): a VNF node on another host
 * is a VM there (remote.c), each of its links an OVN logical switch
 * (ovn/link.c) made before the VM that plugs into it; so is a server on
 * another host, a VM with one NIC (west) whose agent runs the reflector.
 * The probe, and a server on this host, are namespaces here and join
 * their link through this host's Open vSwitch (ovn/local.c); a VNF on this
 * host is a VM here as in a chain on one host, whose tap reaches that
 * Open vSwitch through a veth (vm_join). The agent of a remote VM is reached
 * through libvirt's channel stream (chan.c). Before the first probe, every port is bound to its
 * chassis. */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "hosts.h"
#include "loader.h"
#include "lv.h"
#include "measure/measure.h"
#include "nl/nl.h"
#include "nodes/nodes.h"
#include "ovn/ovn.h"
#include "util.h"

/* The OVN ports of this process's deployment, by the link's west node:
 * [0] the west end's, [1] the east end's. One `up` deploys one chain. */
static struct {
	bool made[CALVIN_MAX_NODES];
	char ports[CALVIN_MAX_NODES][2][OVN_UUID_LEN + 1];
} links;

/* The switch of link west..west+1, made once. */
static int ovn_link(struct deploy *d, unsigned int west)
{
	struct ovn_nb nb;
	char name[16];
	int err;

	if (links.made[west])
		return 0;
	ovn_nb_of_spec(&nb, &d->spec->ovn);
	snprintf(name, sizeof(name), "l%u", west);
	err = ovn_link_create(d->state, &nb, d->spec->name, name, links.ports[west]);
	links.made[west] = !err;
	return err;
}

/* Node n's VM on its host's cores, as the plan placed it there: vCPU 1 on
 * its VNF's core, vCPU 0 and the emulator on that host's housekeeping. */
static void remote_pins(const struct deploy *d, unsigned int n, struct lv_remote_vm *r)
{
	const struct calvin_vnf_place *v = &d->plan->vnf[d->nodes[n].first_vnf];
	const struct calvin_cpumask *hk;

	r->pinned = true;
	r->vnf_cpu = v->cpu;
	r->housekeeping_cpu = -1;
	if (d->spec->placement == CALVIN_PLACE_SHARED || v->host < 1)
		return;
	hk = &d->plan->remote_housekeeping[v->host - 1];
	r->housekeeping_cpu = calvin_cpumask_first(hk);
}

int lv_remote_node_create(struct deploy *d, unsigned int n)
{
	const struct calvin_host_spec *h = lv_node_remote(d, n);
	bool server = n + 1 == d->nr_nodes; /* one link: west */
	char dom[128], image[PATH_MAX];
	struct lv_remote_vm r = { .uri = h->uri,
				  .name = dom,
				  .image_dir = image,
				  .bridge = "br-int",
				  .memory_mib = d->spec->libvirt.memory_mib };
	int err;

	err = ovn_link(d, n - 1);
	if (!err && !server)
		err = ovn_link(d, n);
	if (!err)
		err = node_netns(dom, sizeof(dom), d->spec->name, d->nodes[n].name);
	if (err)
		return err;
	lv_image(d->spec, image, sizeof(image));
	r.ovn_port[CALVIN_WEST] = links.ports[n - 1][1];
	r.ovn_port[CALVIN_EAST] = server ? NULL : links.ports[n][0];
	calvin_vm_mac(r.mac[CALVIN_WEST], d->spec->name, n, CALVIN_WEST);
	calvin_vm_mac(r.mac[CALVIN_EAST], d->spec->name, n, CALVIN_EAST);
	remote_pins(d, n, &r);
	err = lv_remote_vm_create(d->state, &r);
	/* its core as this up read the host: still not another's */
	if (!err && !server)
		err = hosts_recheck(d->spec, &d->plan->vnf[d->nodes[n].first_vnf]);
	return err;
}

/* A veth end takes the frames its peer sends by XDP_TX (the server's
 * reflector) only if it has an XDP program itself: the OVS end of an
 * endpoint's veth gets the pass program, in the Open vSwitch's namespace.
 * It goes with the veth. */
static int ovs_end_pass(const struct ovs_local *o, const char *port)
{
	int saved = -1, err = 0, ifindex;

	if (o->netns[0])
		err = netns_enter(o->netns, &saved);
	if (err) {
		calvin_err("cannot enter namespace %s of the Open vSwitch: %s", o->netns,
			   strerror(-err));
		return err;
	}
	ifindex = if_index(port);
	err = calvin_xdp_pass_attach(ifindex);
	if (saved >= 0)
		netns_leave(saved);
	if (err)
		calvin_err("Failed to attach XDP pass program to %s: %s", port, strerror(-err));
	return err;
}

/* The probe's east or the server's west on this host's Open vSwitch. */
static int endpoint_join(struct deploy *d, unsigned int node, const struct ovs_local *o)
{
	enum calvin_side side = node == 0 ? CALVIN_EAST : CALVIN_WEST;
	unsigned int west = node == 0 ? 0 : node - 1;
	char port[CALVIN_IFNAME_MAX + 1], ns[128];
	uint8_t mac[6];
	struct ovs_join j = { .chain = d->spec->name,
			      .node_ns = ns,
			      .mac = mac,
			      .port = port,
			      .lsp = links.ports[west][node == 0 ? 0 : 1],
			      .mtu = lv_link_mtu(d, west) };
	int err;

	j.ifname = side == CALVIN_EAST ? IF_EAST : IF_WEST;
	err = ovn_link(d, west);
	if (!err)
		err = lv_port_name(d, node, side, port);
	if (!err)
		err = node_netns(ns, sizeof(ns), d->spec->name, d->nodes[node].name);
	if (err)
		return err;
	calvin_vm_mac(mac, d->spec->name, node, side);
	err = ovs_port_join(d->state, o, &j);
	return err ? err : ovs_end_pass(o, port);
}

/* A VM of this host on a link between hosts: its tap (made with the node)
 * and the near end of a veth to this host's Open vSwitch, joined by the
 * XDP link program as two VMs of one host are. Why not the tap on the
 * switch itself: the switch may run in another namespace (the simulated
 * hosts'), and a tap QEMU holds stays where libvirt made it. The near end
 * is made in calvin's namespace, where the tap is; one of that name
 * already there is someone else's. */
static int vm_join(struct deploy *d, unsigned int node, enum calvin_side side,
		   const struct ovs_local *o)
{
	unsigned int west = side == CALVIN_WEST ? node - 1 : node;
	char tap[CALVIN_IFNAME_MAX + 1], near[CALVIN_IFNAME_MAX + 1], port[CALVIN_IFNAME_MAX + 1];
	struct ovs_join j = { .chain = d->spec->name,
			      .ifname = near,
			      .port = port,
			      .lsp = links.ports[west][side == CALVIN_WEST ? 1 : 0],
			      .mtu = lv_link_mtu(d, west) };
	int err;

	err = lv_port_name(d, node, side, tap);
	if (!err)
		err = calvin_vm_ovs_port_name(near, d->spec->name, node, side, 'v');
	if (!err)
		err = calvin_vm_ovs_port_name(port, d->spec->name, node, side, 'o');
	if (err)
		return err;
	if (lv_if_exists(near))
		return lv_refuse_existing(d, "interface", near);
	err = ovs_port_join(d->state, o, &j);
	if (!err)
		err = ovs_end_pass(o, port);
	return err ? err : lv_link_xdp(d, tap, near);
}

int lv_remote_link_create(struct deploy *d, unsigned int a, unsigned int b)
{
	unsigned int here;
	struct ovs_local o;
	int err;

	err = ovn_link(d, a);
	if (err)
		return err;
	if (lv_node_remote(d, a) && lv_node_remote(d, b))
		return 0; /* both ends plug in as their VMs start */
	err = ovs_local(&o);
	if (err)
		return err;
	here = lv_node_remote(d, a) ? b : a;
	if (here == 0 || here + 1 == d->nr_nodes)
		return endpoint_join(d, here, &o);
	return vm_join(d, here, here == a ? CALVIN_EAST : CALVIN_WEST, &o);
}

int lv_remote_wait_bound(const struct deploy *d)
{
	char ports[2 * CALVIN_MAX_NODES][OVN_UUID_LEN + 1];
	unsigned int i, nr = 0;
	struct ovn_nb nb;

	for (i = 0; i + 1 < d->nr_nodes; i++)
		if (links.made[i]) {
			memcpy(ports[nr++], links.ports[i][0], sizeof(ports[0]));
			memcpy(ports[nr++], links.ports[i][1], sizeof(ports[0]));
		}
	ovn_nb_of_spec(&nb, &d->spec->ovn);
	return nr ? ovn_ports_wait_up(&nb, ports, nr, LV_BOOT_TIMEOUT_MS) : 0;
}

/* Send a probe each 100 ms from the probe node until one comes back.
 * The first frames across hosts wait for the tunnels' neighbour entries
 * (about 1.2 s on the simulated hosts): without this, a chain's first
 * probes would be lost to that. */
static int warm(const struct calvin_chain_spec *s, int fd, unsigned int ms)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(s->probe.port) };
	struct timeval tv = { 0, 100 * 1000 };
	uint8_t buf[2048];
	unsigned int seq;
	int len;

	inet_pton(AF_INET, SERVER_ADDR, &to.sin_addr);
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    connect(fd, (struct sockaddr *)&to, sizeof(to)))
		return -errno;
	for (seq = 0; seq < ms / 100 && !calvin_quit; seq++) {
		len = calvin_tlm_init(buf, sizeof(buf), (uint8_t)(2 * s->nr_vnfs), seq, 0);
		if (len < 0)
			return len;
		if (send(fd, buf, (size_t)len, 0) < 0)
			return -errno;
		if (recv(fd, buf, sizeof(buf), 0) > 0)
			return 0;
	}
	return -ETIMEDOUT;
}

int lv_remote_warm(const struct deploy *d)
{
	unsigned int i, ms = 30000;
	int saved, fd, err;

	for (i = 0; i + 1 < d->nr_nodes && !links.made[i]; i++)
		;
	if (i + 1 == d->nr_nodes)
		return 0;
	err = nsnode_enter(d->spec, PROBE_NODE, &saved);
	if (err)
		return err;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	err = fd < 0 ? -errno : warm(d->spec, fd, ms);
	if (fd >= 0)
		close(fd);
	netns_leave(saved);
	if (err)
		calvin_err("chain %s: no probe came back within %u ms of its ports being bound; "
			   "check the tunnels between the hosts (ovn-sbctl show)",
			   d->spec->name, ms);
	return err;
}
