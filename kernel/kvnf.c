// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Kernel VNFs by kind: the one table that says how each kind of kernel VNF
 * is attached and, where it can be, updated in place. Shared by every
 * place that loads kernel VNFs (the netns backend on the host, the agent in
 * a VNF's guest), so a new kind is added once. */
#include <errno.h>
#include <stddef.h>

#include "kvnf.h"

static int attach_forward(const struct calvin_kvnf *k, const struct calvin_xdp_forward_cfg *b)
{
	return calvin_xdp_forward_attach(b);
}

static int attach_acl(const struct calvin_kvnf *k, const struct calvin_xdp_forward_cfg *b)
{
	struct calvin_xdp_acl_cfg c = { .fwd = *b, .acl = &k->acl };

	return calvin_xdp_acl_attach(&c);
}

static int attach_router(const struct calvin_kvnf *k, const struct calvin_xdp_forward_cfg *b)
{
	struct calvin_xdp_router_cfg c = { .fwd = *b, .router = &k->router };

	return calvin_xdp_router_attach(&c);
}

static int attach_ratelimit(const struct calvin_kvnf *k, const struct calvin_xdp_forward_cfg *b)
{
	struct calvin_xdp_ratelimit_cfg c = { .fwd = *b, .rl = &k->ratelimit };

	return calvin_xdp_ratelimit_attach(&c);
}

static int attach_impair(const struct calvin_kvnf *k, const struct calvin_xdp_forward_cfg *b)
{
	struct calvin_xdp_impair_cfg c = { .fwd = *b, .imp = &k->impair };

	return calvin_xdp_impair_attach(&c);
}

static int update_acl(const char *pin, const struct calvin_kvnf *k)
{
	return calvin_xdp_acl_update(pin, &k->acl);
}

static int update_router(const char *pin, const struct calvin_kvnf *k)
{
	return calvin_xdp_router_update(pin, &k->router);
}

static int update_ratelimit(const char *pin, const struct calvin_kvnf *k)
{
	return calvin_xdp_ratelimit_update(pin, &k->ratelimit);
}

static int update_impair(const char *pin, const struct calvin_kvnf *k)
{
	return calvin_xdp_impair_update(pin, &k->impair);
}

static const struct {
	int (*attach)(const struct calvin_kvnf *k, const struct calvin_xdp_forward_cfg *b);
	int (*update)(const char *pin_dir, const struct calvin_kvnf *k);
} kinds[] = {
	[CALVIN_KVNF_FORWARD] = { attach_forward, NULL },
	[CALVIN_KVNF_ACL] = { attach_acl, update_acl },
	[CALVIN_KVNF_ROUTER] = { attach_router, update_router },
	[CALVIN_KVNF_RATELIMIT] = { attach_ratelimit, update_ratelimit },
	[CALVIN_KVNF_IMPAIR] = { attach_impair, update_impair },
};

static bool known(enum calvin_kvnf_kind k)
{
	return (size_t)k < sizeof(kinds) / sizeof(kinds[0]) && kinds[k].attach;
}

int calvin_kvnf_attach(const struct calvin_kvnf *k, const struct calvin_xdp_forward_cfg *base)
{
	return known(k->kind) ? kinds[k->kind].attach(k, base) : -EOPNOTSUPP;
}

bool calvin_kvnf_updatable(enum calvin_kvnf_kind kind)
{
	return known(kind) && kinds[kind].update;
}

int calvin_kvnf_update(const char *pin_dir, const struct calvin_kvnf *k)
{
	return calvin_kvnf_updatable(k->kind) ? kinds[k->kind].update(pin_dir, k) : -EOPNOTSUPP;
}
