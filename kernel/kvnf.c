// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Kernel VNFs by kind: the one table that says how each kind of chain-file
 * VNF is attached and, where it can be, updated in place. Shared by every
 * place that loads kernel VNFs (the netns backend on the host, the agent in
 * a VNF's guest), so a new kind is added once. */
#include <errno.h>
#include <stddef.h>

#include "impair.h"
#include "kvnf.h"
#include "ratelimit.h"
#include "spec/spec.h"

static int attach_forward(const struct calvin_vnf_spec *v, const struct calvin_xdp_forward_cfg *b)
{
	return calvin_xdp_forward_attach(b);
}

static int attach_acl(const struct calvin_vnf_spec *v, const struct calvin_xdp_forward_cfg *b)
{
	struct calvin_xdp_acl_cfg c = { .fwd = *b, .acl = &v->acl };

	return calvin_xdp_acl_attach(&c);
}

static int attach_router(const struct calvin_vnf_spec *v, const struct calvin_xdp_forward_cfg *b)
{
	struct calvin_xdp_router_cfg c = { .fwd = *b, .router = &v->router };

	return calvin_xdp_router_attach(&c);
}

static int attach_ratelimit(const struct calvin_vnf_spec *v, const struct calvin_xdp_forward_cfg *b)
{
	struct calvin_xdp_ratelimit_cfg c = { .fwd = *b, .rl = &v->ratelimit };

	return calvin_xdp_ratelimit_attach(&c);
}

static int attach_impair(const struct calvin_vnf_spec *v, const struct calvin_xdp_forward_cfg *b)
{
	struct calvin_xdp_impair_cfg c = { .fwd = *b, .imp = &v->impair };

	return calvin_xdp_impair_attach(&c);
}

static int update_acl(const char *pin, const struct calvin_vnf_spec *v)
{
	return calvin_xdp_acl_update(pin, &v->acl);
}

static int update_router(const char *pin, const struct calvin_vnf_spec *v)
{
	return calvin_xdp_router_update(pin, &v->router);
}

static int update_ratelimit(const char *pin, const struct calvin_vnf_spec *v)
{
	return calvin_xdp_ratelimit_update(pin, &v->ratelimit);
}

static int update_impair(const char *pin, const struct calvin_vnf_spec *v)
{
	return calvin_xdp_impair_update(pin, &v->impair);
}

static const struct {
	int (*attach)(const struct calvin_vnf_spec *v, const struct calvin_xdp_forward_cfg *b);
	int (*update)(const char *pin_dir, const struct calvin_vnf_spec *v);
} kinds[] = {
	[CALVIN_VNF_FORWARD] = { attach_forward, NULL },
	[CALVIN_VNF_ACL] = { attach_acl, update_acl },
	[CALVIN_VNF_ROUTER] = { attach_router, update_router },
	[CALVIN_VNF_RATELIMIT] = { attach_ratelimit, update_ratelimit },
	[CALVIN_VNF_IMPAIR] = { attach_impair, update_impair },
};

static bool known(enum calvin_vnf_kind k)
{
	return (size_t)k < sizeof(kinds) / sizeof(kinds[0]) && kinds[k].attach;
}

int calvin_kvnf_attach(const struct calvin_vnf_spec *v, const struct calvin_xdp_forward_cfg *base)
{
	return known(v->kind) ? kinds[v->kind].attach(v, base) : -EOPNOTSUPP;
}

bool calvin_kvnf_updatable(enum calvin_vnf_kind kind)
{
	return known(kind) && kinds[kind].update;
}

int calvin_kvnf_update(const char *pin_dir, const struct calvin_vnf_spec *v)
{
	return calvin_kvnf_updatable(v->kind) ? kinds[v->kind].update(pin_dir, v) : -EOPNOTSUPP;
}
