// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* A two-port kernel VNF of a chain spec attached by its kind: the one
 * place that maps a spec's kind to its loader, for every node backend
 * (netns on the host, calvin-agent in a VM). */
#include <errno.h>

#include "chainspec.h"
#include "impair.h"
#include "loader.h"
#include "ratelimit.h"

typedef int (*vnf_attach_fn)(const struct calvin_vnf_spec *v,
			     const struct calvin_xdp_forward_cfg *base);

static int attach_forward(const struct calvin_vnf_spec *v,
			  const struct calvin_xdp_forward_cfg *base)
{
	return calvin_xdp_forward_attach(base);
}

static int attach_acl(const struct calvin_vnf_spec *v, const struct calvin_xdp_forward_cfg *base)
{
	struct calvin_xdp_acl_cfg c = {.fwd = *base, .acl = &v->acl};

	return calvin_xdp_acl_attach(&c);
}

static int attach_router(const struct calvin_vnf_spec *v, const struct calvin_xdp_forward_cfg *base)
{
	struct calvin_xdp_router_cfg c = {.fwd = *base, .router = &v->router};

	return calvin_xdp_router_attach(&c);
}

static int attach_ratelimit(const struct calvin_vnf_spec *v,
			    const struct calvin_xdp_forward_cfg *base)
{
	struct calvin_xdp_ratelimit_cfg c = {.fwd = *base, .rl = &v->ratelimit};

	return calvin_xdp_ratelimit_attach(&c);
}

static int attach_impair(const struct calvin_vnf_spec *v, const struct calvin_xdp_forward_cfg *base)
{
	struct calvin_xdp_impair_cfg c = {.fwd = *base, .imp = &v->impair};

	return calvin_xdp_impair_attach(&c);
}

/* One attach function per kernel VNF kind. */
static const vnf_attach_fn vnf_attach[] = {
    [CALVIN_VNF_FORWARD] = attach_forward, [CALVIN_VNF_ACL] = attach_acl,
    [CALVIN_VNF_ROUTER] = attach_router,   [CALVIN_VNF_RATELIMIT] = attach_ratelimit,
    [CALVIN_VNF_IMPAIR] = attach_impair,
};

int calvin_xdp_vnf_attach(const struct calvin_vnf_spec *v,
			  const struct calvin_xdp_forward_cfg *base)
{
	if ((size_t)v->kind >= sizeof(vnf_attach) / sizeof(vnf_attach[0]) || !vnf_attach[v->kind])
		return -EOPNOTSUPP;
	return vnf_attach[v->kind](v, base);
}
