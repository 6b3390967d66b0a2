// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The libvirt backend: each VNF node is a pinned VM (domain.c) whose agent
 * deploys the VNF (agent.c); the probe and the server are network
 * namespaces on the host (nodes/, shared with the netns backend), but a
 * server on another host is a VM there whose agent runs the reflector
 * (mh.c); links are taps and veths joined on the host (links.c). VMs boot
 * in parallel: all are started before the first agent is waited for. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "lv.h"
#include "nodes/nodes.h"
#include "util.h"

/* A namespace on this host: the probe, and the server unless it is a VM
 * on another host. */
static bool is_endpoint(const struct calvin_chain_spec *s, const char *node)
{
	return !strcmp(node, PROBE_NODE) ||
	       (!strcmp(node, s->server.name) && !calvin_spec_host(s, s->server.host));
}

/* One VNF per VM: the agent deploys one, and its clock domain is the VM's. */
static int check_nodes(const struct calvin_chain_spec *s)
{
	struct calvin_node nodes[CALVIN_MAX_NODES];
	unsigned int n = calvin_chain_nodes(s, nodes), i;
	const struct calvin_vnf_spec *v;

	for (i = 1; i + 1 < n; i++) {
		if (nodes[i].nr_vnfs < 2)
			continue;
		v = &s->vnfs[nodes[i].first_vnf + 1];
		calvin_err(
		    "%s:%d:%d: node '%s' holds %u VNFs, but the libvirt backend runs one VNF "
		    "per VM; give '%s' a node of its own",
		    s->path, v->pos.line, v->pos.col, nodes[i].name, nodes[i].nr_vnfs, v->name);
		return CALVIN_EXIT_USAGE;
	}
	return 0;
}

/* The image a chain names is checked where it names it; the build's own
 * is checked here, so that a missing one says how to make it. */
static int check_image(const struct calvin_chain_spec *s)
{
	char dir[PATH_MAX], why[PATH_MAX + 128];

	if (s->libvirt.image[0]) {
		if (!calvin_spec_check_image(s, why, sizeof(why)))
			return 0;
		calvin_err_line(why);
		return CALVIN_EXIT_USAGE;
	}
	lv_image(s, dir, sizeof(dir));
	if (!calvin_vm_image_check(dir, why, sizeof(why)))
		return 0;
	/* the build's own image: a host not made ready yet (exit 4) */
	return host_cannot(s,
			   "no guest image: %s; build it with 'make vm-image' or set 'image:' in "
			   "the libvirt section",
			   why);
}

/* The line `plan`, `up` and every report give about the VMs. */
static const char *lv_describe(const struct calvin_chain_spec *s, char *buf, size_t len)
{
	const struct lv_qemu_user *u;
	char why[256], user[sizeof(u->why) + 32];
	bool kvm, huge, locked;

	if (lv_accel(s, &kvm, why, sizeof(why)) || lv_qemu_user(s, kvm, &u))
		return NULL;
	lv_memory_facts(s, &huge, &locked);
	if (kvm)
		snprintf(buf, len, "VMs under KVM (%s)", why);
	else
		snprintf(buf, len,
			 "VMs under TCG, an emulator: timings are emulated, not those of "
			 "hardware (KVM: %s)",
			 why);
	if (!huge || !locked)
		snprintf(buf + strlen(buf), len - strlen(buf), "; guest memory %s%s%s",
			 huge ? "" : "not on hugepages (too few free)",
			 !huge && !locked ? ", " : "",
			 locked ? "" : "not locked (the host refuses to raise RLIMIT_MEMLOCK)");
	snprintf(buf + strlen(buf), len - strlen(buf), "; %s",
		 lv_qemu_describe(u, user, sizeof(user)));
	return buf;
}

static int lv_check(const struct calvin_chain_spec *s, bool offline)
{
	virConnectPtr conn;
	char line[512];
	int rc;

	rc = check_nodes(s);
	if (!rc)
		rc = check_image(s);
	/* offline: neither a daemon started nor a URI connected to */
	if (rc || offline)
		return rc;
	if (lv_open(s->libvirt.uri, &conn))
		return CALVIN_EXIT_USAGE;
	rc = lv_qemu_check(s);
	if (rc)
		return rc;
	if (!lv_describe(s, line, sizeof(line)))
		return CALVIN_EXIT_USAGE;
	return 0;
}

static int lv_node_create(struct deploy *d, unsigned int n)
{
	int err;

	if (lv_node_remote(d, n))
		return lv_remote_node_create(d, n);
	if (n == 0 || n + 1 == d->nr_nodes)
		return nsnode_create(d, n);
	err = lv_tap_create(d, n, CALVIN_WEST);
	if (!err)
		err = lv_tap_create(d, n, CALVIN_EAST);
	return err ? err : lv_domain_create(d, n);
}

/* The first VM's west NIC stands for the server, the last's east for the
 * probe: the VNFs rewrite MACs hop by hop. */
static int lv_endpoints_setup(struct deploy *d)
{
	const struct calvin_chain_spec *s = d->spec;
	unsigned int last = d->nr_nodes - 1;
	uint8_t mac[6];
	int err;

	calvin_vm_mac(mac, s->name, 1, CALVIN_WEST);
	err = nsnode_endpoint(d, PROBE_NODE, IF_EAST, PROBE_ADDR, SERVER_ADDR, mac);
	if (err)
		return err;
	if (lv_node_remote(d, last))
		return 0; /* a VM: its reflector needs no address */
	calvin_vm_mac(mac, s->name, last - 1, CALVIN_EAST);
	return nsnode_endpoint(d, s->server.name, IF_WEST, SERVER_ADDR, PROBE_ADDR, mac);
}

static int lv_link(struct deploy *d, unsigned int a, unsigned int b)
{
	return lv_link_ovn(d, a) ? lv_remote_link_create(d, a, b) : lv_link_create(d, a, b);
}

/* Is no user VNF after vnf (from: the first to look at)? Deployment
 * starts user VNFs last, in order. */
static bool no_user_vnf_from(const struct calvin_chain_spec *s, unsigned int from)
{
	unsigned int i;

	for (i = from; i < s->nr_vnfs; i++)
		if (s->vnfs[i].space == CALVIN_USER)
			return false;
	return true;
}

/* The server's reflector (in its namespace here, or by the agent of its
 * VM on another host); across hosts, every port bound to its chassis,
 * and once every VNF runs, a first probe back through the chain. */
static int lv_server(struct deploy *d)
{
	unsigned int last = d->nr_nodes - 1;
	int err;

	if (lv_node_remote(d, last)) {
		err = lv_vnf_start(d, last);
		if (!err)
			err = nsnode_probe_pass(d);
	} else {
		err = nsnode_server(d);
	}

	if (!err)
		err = lv_remote_wait_bound(d);
	if (!err && no_user_vnf_from(d->spec, 0))
		err = lv_remote_warm(d);
	return err;
}

static int lv_user_vnf(struct deploy *d, unsigned int vnf)
{
	int err = lv_vnf_start(d, calvin_node_of(d->nodes, d->nr_nodes, vnf));

	if (!err && no_user_vnf_from(d->spec, vnf + 1))
		err = lv_remote_warm(d);
	return err;
}

static int lv_node_enter(const struct calvin_chain_spec *s, const char *node, int *saved)
{
	if (is_endpoint(s, node))
		return nsnode_enter(s, node, saved);
	if (!strcmp(node, s->server.name)) {
		calvin_err("node '%s' of chain %s is a VM on host %s; calvin enters namespaces of "
			   "this host only (the probe, and a server on host local)",
			   node, s->name, s->server.host);
		return -EOPNOTSUPP;
	}
	calvin_err("node '%s' of chain %s is a VM; only the probe and the server are namespaces "
		   "calvin can enter (its console log is in %s/%s.d/)",
		   node, s->name, calvin_run_dir(), s->name);
	return -EOPNOTSUPP;
}

static int lv_node_exec(const struct calvin_chain_spec *s, const char *node, char *const argv[])
{
	int saved;

	if (!is_endpoint(s, node))
		return lv_node_enter(s, node, &saved) ? CALVIN_EXIT_USAGE : CALVIN_EXIT_FAIL;
	return nsnode_exec(s, node, argv);
}

static int lv_kernel_update(const struct calvin_chain_spec *s, unsigned int vnf)
{
	calvin_err("%s: VNFs in VMs cannot take new parameters in place yet; run 'calvin down %s' "
		   "and up again",
		   s->vnfs[vnf].name, s->name);
	return -EOPNOTSUPP;
}

/* VMs first (they hold the taps), then links, then the namespaces. */
static int lv_destroy(struct chain_state *s)
{
	int err = 0;

	if (lv_domains_destroy(s))
		err = -EIO;
	if (lv_links_destroy(s))
		err = -EIO;
	if (nsnode_destroy(s))
		err = -EIO;
	return err;
}

const struct node_backend libvirt_backend = {
	.name = "libvirt",
	.check = lv_check,
	.describe = lv_describe,
	.node_create = lv_node_create,
	.link_create = lv_link,
	.endpoints_setup = lv_endpoints_setup,
	.kernel_node = lv_vnf_start,
	.server = lv_server,
	.user_vnf = lv_user_vnf,
	.node_enter = lv_node_enter,
	.node_exec = lv_node_exec,
	.kernel_stats = lv_kernel_stats,
	.user_stats = lv_user_stats,
	.vnf_placement = lv_vnf_placement,
	.kernel_update = lv_kernel_update,
	.destroy = lv_destroy,
};
