// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Kernel VNFs in the netns backend: the XDP programs of one node, attached
 * to its west and east veths in chain order; only the last forwards. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "impair.h"
#include "loader.h"
#include "ratelimit.h"
#include "netns.h"
#include "util.h"

/* What every kernel VNF's loader needs: where it sits and where it sends. */
struct kvnf_ctx {
	const struct calvin_vnf_spec *vnf;
	struct calvin_xdp_forward_cfg base;
};

typedef int (*kvnf_attach_fn)(const struct kvnf_ctx *k);

static int attach_forward(const struct kvnf_ctx *k)
{
	return calvin_xdp_forward_attach(&k->base);
}

static int attach_acl(const struct kvnf_ctx *k)
{
	struct calvin_xdp_acl_cfg c = { .fwd = k->base, .acl = &k->vnf->acl };

	return calvin_xdp_acl_attach(&c);
}

static int attach_router(const struct kvnf_ctx *k)
{
	struct calvin_xdp_router_cfg c = { .fwd = k->base, .router = &k->vnf->router };

	return calvin_xdp_router_attach(&c);
}

static int attach_ratelimit(const struct kvnf_ctx *k)
{
	struct calvin_xdp_ratelimit_cfg c = { .fwd = k->base, .rl = &k->vnf->ratelimit };

	return calvin_xdp_ratelimit_attach(&c);
}

static int attach_impair(const struct kvnf_ctx *k)
{
	struct calvin_xdp_impair_cfg c = { .fwd = k->base, .imp = &k->vnf->impair };

	return calvin_xdp_impair_attach(&c);
}

/* One attach function per kernel VNF kind. */
static const kvnf_attach_fn kvnf_attach[] = {
	[CALVIN_VNF_FORWARD] = attach_forward,	   [CALVIN_VNF_ACL] = attach_acl,
	[CALVIN_VNF_ROUTER] = attach_router,	   [CALVIN_VNF_RATELIMIT] = attach_ratelimit,
	[CALVIN_VNF_IMPAIR] = attach_impair,
};

static int kvnf_deploy(struct deploy *d, unsigned int i, const struct calvin_node *node,
		       const char *obj_dir)
{
	const struct calvin_chain_spec *s = d->spec;
	const struct calvin_vnf_spec *v = &s->vnfs[i];
	struct kvnf_ctx k = { .vnf = v };
	char ns[128], pin[PATH_MAX];
	int err, saved;

	if ((size_t)v->kind >= sizeof(kvnf_attach) / sizeof(kvnf_attach[0]) ||
	    !kvnf_attach[v->kind]) {
		calvin_err("%s: kind %s has no kernel-space implementation", v->name,
			   calvin_vnf_kind_name(v->kind));
		return -EOPNOTSUPP;
	}
	vnf_pin_dir(pin, sizeof(pin), s->name, v->name);
	node_netns(ns, sizeof(ns), s->name, node->name);
	err = node_mac_of(s->name, west_of(d, i), IF_EAST, k.base.west_peer_mac);
	if (!err)
		err = node_mac_of(s->name, east_of(d, i), IF_WEST, k.base.east_peer_mac);
	if (err)
		return err;
	k.base.obj_dir = obj_dir;
	k.base.pin_dir = pin;
	k.base.vnf_id = (uint16_t)i;
	k.base.probe_port = (uint16_t)s->probe.port;
	k.base.node_index = i - node->first_vnf;
	k.base.node_count = node->nr_vnfs;
	err = netns_enter(ns, &saved);
	if (err)
		return err;
	k.base.west_ifindex = if_index(IF_WEST);
	k.base.east_ifindex = if_index(IF_EAST);
	err = kvnf_attach[v->kind](&k);
	netns_leave(saved);
	if (err)
		calvin_err("%s: Failed to attach XDP program %s: %s", v->name,
			   calvin_vnf_kind_name(v->kind), strerror(-err));
	return err;
}

int netns_kernel_node(struct deploy *d, unsigned int n)
{
	const struct calvin_node *node = &d->nodes[n];
	char obj_dir[PATH_MAX];
	unsigned int j;
	int err;

	snprintf(obj_dir, sizeof(obj_dir), "%s/kernel", calvin_lib_dir());
	err = xdp_intent(d, node->name, IF_WEST);
	if (!err)
		err = xdp_intent(d, node->name, IF_EAST);
	for (j = 0; !err && j < node->nr_vnfs; j++)
		err = kvnf_deploy(d, node->first_vnf + j, node, obj_dir);
	return err;
}
