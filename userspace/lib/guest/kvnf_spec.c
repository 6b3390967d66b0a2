// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* A chain spec's kernel VNF as its loader takes it: the spec's words (AF_*
 * families, its enums) turned into the loaders' (kernel/loader.h), field by
 * field, so that neither side's numbering depends on the other's. */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "guest/guest.h"
#include "kvnf.h"

_Static_assert(CALVIN_ACL_MAX_RULES <= CALVIN_XDP_ACL_MAX_RULES,
	       "every rule a spec holds fits the program");
_Static_assert(CALVIN_ROUTER_MAX_ROUTES <= CALVIN_XDP_ROUTER_MAX_ROUTES,
	       "every route a spec holds fits the program");

int calvin_kvnf_kind_of(enum calvin_vnf_kind kind)
{
	switch (kind) {
	case CALVIN_VNF_FORWARD:
		return CALVIN_KVNF_FORWARD;
	case CALVIN_VNF_ACL:
		return CALVIN_KVNF_ACL;
	case CALVIN_VNF_ROUTER:
		return CALVIN_KVNF_ROUTER;
	case CALVIN_VNF_RATELIMIT:
		return CALVIN_KVNF_RATELIMIT;
	case CALVIN_VNF_IMPAIR:
		return CALVIN_KVNF_IMPAIR;
	default:
		return -EOPNOTSUPP;
	}
}

static int prefix_of(const struct calvin_prefix *p, struct calvin_xdp_prefix *x)
{
	if (p->family == 0)
		x->family = CALVIN_FAMILY_ANY;
	else if (p->family == AF_INET)
		x->family = CALVIN_FAMILY_IPV4;
	else if (p->family == AF_INET6)
		x->family = CALVIN_FAMILY_IPV6;
	else
		return -EINVAL;
	x->len = p->len;
	memcpy(x->addr, p->addr, sizeof(x->addr));
	return 0;
}

static int action_of(enum calvin_acl_action a, uint8_t *x)
{
	if (a != CALVIN_ACL_ALLOW && a != CALVIN_ACL_DENY)
		return -EINVAL;
	*x = a == CALVIN_ACL_ALLOW ? CALVIN_XDP_ACL_ALLOW : CALVIN_XDP_ACL_DENY;
	return 0;
}

static int acl_of(const struct calvin_acl_spec *s, struct calvin_xdp_acl *a)
{
	const struct calvin_acl_rule *r;
	struct calvin_xdp_acl_rule *x;
	uint8_t action;
	unsigned int i;
	int err;

	if (s->nr_rules > CALVIN_XDP_ACL_MAX_RULES)
		return -E2BIG;
	err = action_of(s->default_action, &action);
	if (err)
		return err;
	a->default_action = action;
	a->nr_rules = s->nr_rules;
	for (i = 0; !err && i < s->nr_rules; i++) {
		r = &s->rules[i];
		x = &a->rules[i];
		err = prefix_of(&r->src, &x->src);
		if (!err)
			err = prefix_of(&r->dst, &x->dst);
		if (!err)
			err = action_of(r->action, &x->action);
		x->sport = (struct calvin_xdp_port_range){ r->sport.lo, r->sport.hi };
		x->dport = (struct calvin_xdp_port_range){ r->dport.lo, r->dport.hi };
		x->proto = r->proto;
	}
	return err;
}

static int routes_of(const struct calvin_router_spec *s, struct calvin_xdp_routes *x)
{
	static const uint32_t via[] = {
		[CALVIN_VIA_WEST] = CALVIN_XDP_VIA_WEST,
		[CALVIN_VIA_EAST] = CALVIN_XDP_VIA_EAST,
		[CALVIN_VIA_DROP] = CALVIN_XDP_VIA_DROP,
	};
	unsigned int i;
	int err;

	if (s->nr_routes > CALVIN_XDP_ROUTER_MAX_ROUTES)
		return -E2BIG;
	x->nr_routes = s->nr_routes;
	for (i = 0; i < s->nr_routes; i++) {
		if ((unsigned int)s->routes[i].via >= sizeof(via) / sizeof(via[0]))
			return -EINVAL;
		x->routes[i].via = via[s->routes[i].via];
		err = prefix_of(&s->routes[i].prefix, &x->routes[i].prefix);
		if (err)
			return err;
	}
	return 0;
}

static int ratelimit_of(const struct calvin_ratelimit_spec *s, struct calvin_rl_config *c)
{
	if (s->per != CALVIN_RL_PER_VNF && s->per != CALVIN_RL_PER_FLOW)
		return -EINVAL;
	c->per = s->per == CALVIN_RL_PER_FLOW ? CALVIN_XDP_RL_PER_FLOW : CALVIN_XDP_RL_PER_VNF;
	c->pps = s->pps;
	c->bytes_per_sec = s->bytes_per_sec;
	c->burst_packets = s->burst_packets;
	c->burst_bytes = s->burst_bytes;
	return 0;
}

static int impair_of(const struct calvin_impair_spec *s, struct calvin_impair_config *c)
{
	static const uint32_t dirs[] = {
		[CALVIN_DIRS_BOTH] = 1U << CALVIN_DIR_FWD | 1U << CALVIN_DIR_REV,
		[CALVIN_DIRS_FWD] = 1U << CALVIN_DIR_FWD,
		[CALVIN_DIRS_REV] = 1U << CALVIN_DIR_REV,
	};

	if ((unsigned int)s->direction >= sizeof(dirs) / sizeof(dirs[0]))
		return -EINVAL;
	if (s->model != CALVIN_LOSS_UNIFORM && s->model != CALVIN_LOSS_GILBERT_ELLIOTT)
		return -EINVAL;
	c->model = s->model == CALVIN_LOSS_GILBERT_ELLIOTT ? CALVIN_IMPAIR_GILBERT_ELLIOTT
							   : CALVIN_IMPAIR_UNIFORM;
	c->loss_ppm = s->loss_ppm;
	c->ge_p_ppm = s->ge_p_ppm;
	c->ge_r_ppm = s->ge_r_ppm;
	c->ge_loss_good_ppm = s->ge_loss_good_ppm;
	c->ge_loss_bad_ppm = s->ge_loss_bad_ppm;
	c->duplicate_ppm = s->duplicate_ppm;
	c->dirs = dirs[s->direction];
	c->seed = s->seed;
	return 0;
}

int calvin_kvnf_from_spec(const struct calvin_vnf_spec *v, struct calvin_kvnf *k)
{
	int kind = calvin_kvnf_kind_of(v->kind);

	if (kind < 0)
		return kind;
	memset(k, 0, sizeof(*k));
	k->kind = (enum calvin_kvnf_kind)kind;
	switch (k->kind) {
	case CALVIN_KVNF_ACL:
		return acl_of(&v->acl, &k->acl);
	case CALVIN_KVNF_ROUTER:
		return routes_of(&v->router, &k->router);
	case CALVIN_KVNF_RATELIMIT:
		return ratelimit_of(&v->ratelimit, &k->ratelimit);
	case CALVIN_KVNF_IMPAIR:
		return impair_of(&v->impair, &k->impair);
	case CALVIN_KVNF_FORWARD:
		break;
	}
	return 0;
}
