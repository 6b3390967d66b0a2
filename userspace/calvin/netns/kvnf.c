// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Kernel VNFs in the netns backend: the XDP programs of one node (tc in
 * throughput mode), attached to its west and east veths in chain order;
 * only the last forwards. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "guest/guest.h"
#include "kvnf.h"
#include "netns.h"
#include "util.h"

static int kvnf_deploy(struct deploy *d, unsigned int i, const struct calvin_node *node)
{
	const struct calvin_chain_spec *s = d->spec;
	const struct calvin_vnf_spec *v = &s->vnfs[i];
	struct calvin_xdp_forward_cfg base = { 0 };
	struct calvin_kvnf k;
	char ns[128], pin[PATH_MAX];
	int err, saved;

	vnf_pin_dir(pin, sizeof(pin), s->name, v->name);
	node_netns(ns, sizeof(ns), s->name, node->name);
	err = node_mac_of(s->name, west_of(d, i), IF_EAST, base.west_peer_mac);
	if (!err)
		err = node_mac_of(s->name, east_of(d, i), IF_WEST, base.east_peer_mac);
	if (err)
		return err;
	base.pin_dir = pin;
	base.vnf_id = (uint16_t)i;
	base.probe_port = (uint16_t)s->probe.port;
	base.node_index = i - node->first_vnf;
	base.node_count = node->nr_vnfs;
	err = netns_enter(ns, &saved);
	if (err)
		return err;
	base.west_ifindex = if_index(IF_WEST);
	base.east_ifindex = if_index(IF_EAST);
	err = calvin_kvnf_from_spec(v, &k);
	if (!err && s->mode == CALVIN_MODE_THROUGHPUT)
		err = k.kind == CALVIN_KVNF_FORWARD ? calvin_tc_forward_attach(&base) : -EOPNOTSUPP;
	else if (!err)
		err = calvin_kvnf_attach(&k, &base);
	netns_leave(saved);
	if (err == -EOPNOTSUPP)
		calvin_err("%s: kind %s has no kernel-space implementation", v->name,
			   calvin_vnf_kind_name(v->kind));
	else if (err)
		calvin_err("%s: Failed to attach %s program %s: %s", v->name,
			   s->mode == CALVIN_MODE_THROUGHPUT ? "tc" : "XDP",
			   calvin_vnf_kind_name(v->kind), strerror(-err));
	return err;
}

/* Throughput mode: a port a user VNF sends to has its receive steered to
 * the housekeeping CPUs, off the VNF's core (rps.c says why). Not where
 * the plan pins nothing (placement shared: no core is the VNF's). */
static int steer_from_user(struct deploy *d, unsigned int n)
{
	const struct calvin_cpumask *hk = d->plan ? &d->plan->housekeeping : NULL;
	char ns[128];
	int err = 0;

	if (d->spec->mode != CALVIN_MODE_THROUGHPUT || d->spec->placement == CALVIN_PLACE_SHARED ||
	    !hk || calvin_cpumask_empty(hk))
		return 0;
	node_netns(ns, sizeof(ns), d->spec->name, d->nodes[n].name);
	if (n > 0 && d->nodes[n - 1].space == CALVIN_USER)
		err = netns_rps(ns, IF_WEST, hk);
	if (!err && n + 1 < d->nr_nodes && d->nodes[n + 1].space == CALVIN_USER)
		err = netns_rps(ns, IF_EAST, hk);
	if (err)
		calvin_err("%s: Failed to steer the receive from its user VNF to the "
			   "housekeeping CPUs: %s",
			   d->nodes[n].name, strerror(-err));
	return err;
}

int netns_kernel_node(struct deploy *d, unsigned int n)
{
	const struct calvin_node *node = &d->nodes[n];
	unsigned int j;
	int err = 0;

	/* tc filters go with the node's veths, removed with its namespace */
	if (d->spec->mode != CALVIN_MODE_THROUGHPUT)
		err = xdp_intent(d, node->name, IF_WEST);
	if (!err && d->spec->mode != CALVIN_MODE_THROUGHPUT)
		err = xdp_intent(d, node->name, IF_EAST);
	for (j = 0; !err && j < node->nr_vnfs; j++)
		err = kvnf_deploy(d, node->first_vnf + j, node);
	return err ? err : steer_from_user(d, n);
}
