// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* What changed between two specs of one chain, by meaning (see
 * spec.h). */
#include <stdio.h>
#include <string.h>

#include "spec/spec.h"

/* Each kind's parameters are compared field by field below. A field added
 * to one of these structs must be compared there too, or a change to it
 * would go unnoticed on a running chain: these sizes stop the build until
 * it is (then update the size). */
_Static_assert(sizeof(struct calvin_acl_rule) == 60, "compare the new acl rule field");
_Static_assert(sizeof(struct calvin_acl_spec) == 3848, "compare the new acl field");
_Static_assert(sizeof(struct calvin_route) == 32, "compare the new route field");
_Static_assert(sizeof(struct calvin_router_spec) == 8196, "compare the new router field");
_Static_assert(sizeof(struct calvin_ratelimit_spec) == 40, "compare the new ratelimit field");
_Static_assert(sizeof(struct calvin_impair_spec) == 48, "compare the new impair field");
_Static_assert(sizeof(struct calvin_nc_spec) == 24, "compare the new nc field");
_Static_assert(sizeof(struct calvin_crypt_spec) == 4116, "compare the new crypt field");

/* Same family, length and network bits: bytes past the prefix length carry
 * no meaning. */
static bool prefix_equal(const struct calvin_prefix *a, const struct calvin_prefix *b)
{
	unsigned int full = a->len / 8, rest = a->len % 8;
	uint8_t mask = (uint8_t)(0xff00 >> rest);

	if (a->family != b->family || a->len != b->len || full > sizeof(a->addr))
		return false;
	if (memcmp(a->addr, b->addr, full))
		return false;
	return !rest || ((a->addr[full] ^ b->addr[full]) & mask) == 0;
}

static bool ports_equal(const struct calvin_port_range *a, const struct calvin_port_range *b)
{
	return a->lo == b->lo && a->hi == b->hi;
}

/* Rules in order: the first that matches decides. */
static bool acl_equal(const struct calvin_acl_spec *a, const struct calvin_acl_spec *b)
{
	const struct calvin_acl_rule *x, *y;
	unsigned int i;

	if (a->default_action != b->default_action || a->nr_rules != b->nr_rules)
		return false;
	for (i = 0; i < a->nr_rules; i++) {
		x = &a->rules[i];
		y = &b->rules[i];
		if (x->action != y->action || x->proto != y->proto ||
		    !prefix_equal(&x->src, &y->src) || !prefix_equal(&x->dst, &y->dst) ||
		    !ports_equal(&x->sport, &y->sport) || !ports_equal(&x->dport, &y->dport))
			return false;
	}
	return true;
}

static bool route_in(const struct calvin_route *r, const struct calvin_router_spec *s)
{
	unsigned int i;

	for (i = 0; i < s->nr_routes; i++)
		if (prefix_equal(&r->prefix, &s->routes[i].prefix) && r->via == s->routes[i].via)
			return true;
	return false;
}

/* Routes as a set: the longest prefix decides, whatever their order (a
 * prefix is listed once). */
static bool router_equal(const struct calvin_router_spec *a, const struct calvin_router_spec *b)
{
	unsigned int i;

	if (a->nr_routes != b->nr_routes)
		return false;
	for (i = 0; i < a->nr_routes; i++)
		if (!route_in(&a->routes[i], b))
			return false;
	return true;
}

static bool ratelimit_equal(const struct calvin_ratelimit_spec *a,
			    const struct calvin_ratelimit_spec *b)
{
	return a->pps == b->pps && a->bytes_per_sec == b->bytes_per_sec &&
	       a->burst_packets == b->burst_packets && a->burst_bytes == b->burst_bytes &&
	       a->per == b->per;
}

/* Only the loss model's own probabilities count. */
static bool impair_equal(const struct calvin_impair_spec *a, const struct calvin_impair_spec *b)
{
	if (a->model != b->model || a->duplicate_ppm != b->duplicate_ppm || a->seed != b->seed ||
	    a->direction != b->direction)
		return false;
	if (a->model == CALVIN_LOSS_UNIFORM)
		return a->loss_ppm == b->loss_ppm;
	return a->ge_p_ppm == b->ge_p_ppm && a->ge_r_ppm == b->ge_r_ppm &&
	       a->ge_loss_good_ppm == b->ge_loss_good_ppm &&
	       a->ge_loss_bad_ppm == b->ge_loss_bad_ppm;
}

static bool nc_equal(const struct calvin_nc_spec *a, const struct calvin_nc_spec *b)
{
	return a->k == b->k && a->r == b->r && a->flush_ns == b->flush_ns &&
	       a->flush_early == b->flush_early && a->direction == b->direction;
}

static bool crypt_equal(const struct calvin_crypt_spec *a, const struct calvin_crypt_spec *b,
			enum calvin_vnf_kind kind)
{
	if (a->cipher != b->cipher || strcmp(a->key_file, b->key_file) || a->spi != b->spi ||
	    a->spi_rev != b->spi_rev || a->direction != b->direction)
		return false;
	return kind != CALVIN_VNF_DECRYPT || a->replay_window == b->replay_window;
}

bool calvin_vnf_params_equal(const struct calvin_vnf_spec *a, const struct calvin_vnf_spec *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case CALVIN_VNF_FORWARD:
		return true;
	case CALVIN_VNF_ACL:
		return acl_equal(&a->acl, &b->acl);
	case CALVIN_VNF_ROUTER:
		return router_equal(&a->router, &b->router);
	case CALVIN_VNF_RATELIMIT:
		return ratelimit_equal(&a->ratelimit, &b->ratelimit);
	case CALVIN_VNF_IMPAIR:
		return impair_equal(&a->impair, &b->impair);
	case CALVIN_VNF_NC_ENCODE:
	case CALVIN_VNF_NC_DECODE:
		return nc_equal(&a->nc, &b->nc);
	case CALVIN_VNF_ENCRYPT:
	case CALVIN_VNF_DECRYPT:
		return crypt_equal(&a->crypt, &b->crypt, a->kind);
	}
	return false; /* a kind this file does not know: never "the same" */
}

/* The hosts a chain spans and the database its links are in. */
static bool hosts_equal(const struct calvin_chain_spec *a, const struct calvin_chain_spec *b)
{
	const struct calvin_host_spec *x, *y;
	unsigned int i;

	if (a->nr_hosts != b->nr_hosts || strcmp(a->ovn.nb, b->ovn.nb) ||
	    a->ovn.underlay_mtu != b->ovn.underlay_mtu ||
	    strcmp(a->ovn.private_key, b->ovn.private_key) ||
	    strcmp(a->ovn.certificate, b->ovn.certificate) ||
	    strcmp(a->ovn.ca_cert, b->ovn.ca_cert))
		return false;
	for (i = 0; i < a->nr_hosts; i++) {
		x = &a->hosts[i];
		y = &b->hosts[i];
		if (strcmp(x->name, y->name) || strcmp(x->uri, y->uri) ||
		    strcmp(x->chassis, y->chassis))
			return false;
	}
	return true;
}

#define REFUSE(d, ...) snprintf((d)->refused, sizeof((d)->refused), __VA_ARGS__)

/* What makes the deployment itself: names, kinds, where things run. */
static bool chain_same(const struct calvin_chain_spec *a, const struct calvin_chain_spec *b,
		       struct calvin_spec_diff *d)
{
	if (a->backend != b->backend)
		REFUSE(d, "backend (deployed: %s, file: %s)", calvin_backend_name(a->backend),
		       calvin_backend_name(b->backend));
	else if (a->mode != b->mode)
		REFUSE(d, "mode (deployed: %s, file: %s)", calvin_chain_mode_name(a->mode),
		       calvin_chain_mode_name(b->mode));
	else if (a->mtu != b->mtu)
		REFUSE(d, "mtu (deployed: %u, file: %u)", a->mtu, b->mtu);
	else if (a->placement != b->placement)
		REFUSE(d, "placement (deployed: %s, file: %s)", calvin_placement_name(a->placement),
		       calvin_placement_name(b->placement));
	else if (a->allow_sharing != b->allow_sharing)
		REFUSE(d, "allow-sharing (deployed: %s, file: %s)",
		       a->allow_sharing ? "true" : "false", b->allow_sharing ? "true" : "false");
	else if (a->shared_core != b->shared_core)
		REFUSE(d, "shared-core (deployed: %s, file: %s)",
		       calvin_shared_core_name(a->shared_core),
		       calvin_shared_core_name(b->shared_core));
	else if (a->probe.port != b->probe.port)
		REFUSE(d, "probe port (deployed: %u, file: %u)", a->probe.port, b->probe.port);
	else if (strcmp(a->server.name, b->server.name))
		REFUSE(d, "server name (deployed: %s, file: %s)", a->server.name, b->server.name);
	else if (a->server.kind != b->server.kind)
		REFUSE(d, "server kind (deployed: %s, file: %s)",
		       calvin_server_kind_name(a->server.kind),
		       calvin_server_kind_name(b->server.kind));
	else if (strcmp(a->server.host, b->server.host))
		REFUSE(d, "server host (deployed: %s, file: %s)", a->server.host, b->server.host);
	else if (a->nr_vnfs != b->nr_vnfs)
		REFUSE(d, "VNF list (deployed: %u VNFs, file: %u)", a->nr_vnfs, b->nr_vnfs);
	else if (!hosts_equal(a, b))
		REFUSE(d, "hosts or ovn section (where the chain's nodes and links are)");
	else if (a->realtime.sched != b->realtime.sched ||
		 a->realtime.priority != b->realtime.priority ||
		 a->realtime.lock_memory != b->realtime.lock_memory)
		REFUSE(d, "realtime section (scheduling of its user VNFs, locked memory)");
	return !d->refused[0];
}

static bool vnf_same(const struct calvin_vnf_spec *a, const struct calvin_vnf_spec *b,
		     unsigned int i, struct calvin_spec_diff *d)
{
	if (strcmp(a->name, b->name))
		REFUSE(d, "VNF %u (deployed: %s, file: %s)", i + 1, a->name, b->name);
	else if (a->kind != b->kind)
		REFUSE(d, "kind of VNF %s (deployed: %s, file: %s)", a->name,
		       calvin_vnf_kind_name(a->kind), calvin_vnf_kind_name(b->kind));
	else if (a->space != b->space)
		REFUSE(d, "space of VNF %s (deployed: %s, file: %s)", a->name,
		       calvin_space_name(a->space), calvin_space_name(b->space));
	else if (strcmp(a->node, b->node))
		REFUSE(d, "node of VNF %s (deployed: %s, file: %s)", a->name, a->node, b->node);
	else if (strcmp(a->host, b->host))
		REFUSE(d, "host of VNF %s (deployed: %s, file: %s)", a->name, a->host, b->host);
	else if (a->space == CALVIN_USER && a->burst != b->burst)
		REFUSE(d, "burst of VNF %s (deployed: %u, file: %u)", a->name, a->burst, b->burst);
	else if (a->space == CALVIN_USER && a->pmd != b->pmd)
		REFUSE(d, "PMD of VNF %s (deployed: %s, file: %s)", a->name,
		       calvin_pmd_name(a->pmd), calvin_pmd_name(b->pmd));
	return !d->refused[0];
}

static bool settings_equal(const struct calvin_chain_spec *a, const struct calvin_chain_spec *b)
{
	return a->budget_ns == b->budget_ns && a->probe.count == b->probe.count &&
	       a->probe.rate == b->probe.rate && a->probe.mode == b->probe.mode &&
	       a->probe.size == b->probe.size &&
	       !memcmp(&a->monitor, &b->monitor, sizeof(a->monitor)) &&
	       !memcmp(&a->supervise, &b->supervise, sizeof(a->supervise));
}

void calvin_spec_diff(const struct calvin_chain_spec *old, const struct calvin_chain_spec *new,
		      struct calvin_spec_diff *d)
{
	unsigned int i;

	memset(d, 0, sizeof(*d));
	if (!chain_same(old, new, d))
		return;
	for (i = 0; i < old->nr_vnfs; i++)
		if (!vnf_same(&old->vnfs[i], &new->vnfs[i], i, d))
			return;
	for (i = 0; i < old->nr_vnfs; i++) {
		d->params[i] = !calvin_vnf_params_equal(&old->vnfs[i], &new->vnfs[i]);
		d->nr_params += d->params[i];
	}
	d->settings = !settings_equal(old, new);
	d->supervise = memcmp(&old->supervise, &new->supervise, sizeof(old->supervise)) != 0;
}
