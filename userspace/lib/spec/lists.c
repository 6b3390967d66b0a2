// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Chain spec lists of mappings: the acl's rules and the router's routes,
 * their keys and the checks of each item. */
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "spec_priv.h"

#define RULE(field) offsetof(struct calvin_acl_rule, field)
enum { RULE_ACTION, RULE_PROTO, RULE_SRC, RULE_DST, RULE_SPORT, RULE_DPORT, RULE_END };
static const struct spec_key rule_keys[] = {
    [RULE_ACTION] = {.name = "action",
		     .type = KEY_WORD,
		     .off = RULE(action),
		     .words = calvin_acl_action_words,
		     .required = "'action: allow' or 'action: deny'"},
    [RULE_PROTO] = {.name = "proto", .type = KEY_PROTO, .off = RULE(proto)},
    [RULE_SRC] = {.name = "src", .type = KEY_PREFIX, .off = RULE(src)},
    [RULE_DST] = {.name = "dst", .type = KEY_PREFIX, .off = RULE(dst)},
    [RULE_SPORT] = {.name = "sport", .type = KEY_PORTS, .off = RULE(sport)},
    [RULE_DPORT] = {.name = "dport", .type = KEY_PORTS, .off = RULE(dport)},
    [RULE_END] = {NULL},
};

static const char *family_name(uint8_t family)
{
	return family == AF_INET ? "IPv4" : "IPv6";
}

static int rule_after(struct spec_ctx *c, void *item, struct spec_seen *seen)
{
	static const int ports[] = {RULE_SPORT, RULE_DPORT};
	struct calvin_acl_rule *rule = item;
	yaml_node_t *later;
	unsigned int i;

	for (i = 0; i < 2; i++)
		if (seen->key[ports[i]] && rule->proto != IPPROTO_TCP && rule->proto != IPPROTO_UDP)
			return calvin_spec_err(
			    c, seen->key[ports[i]]->start_mark,
			    "%s needs proto tcp or udp; add 'proto: udp' (or tcp) "
			    "or remove %s",
			    rule_keys[ports[i]].name, rule_keys[ports[i]].name);
	if (rule->src.family && rule->dst.family && rule->src.family != rule->dst.family) {
		later = seen->val[RULE_DST];
		if (seen->val[RULE_SRC]->start_mark.index > later->start_mark.index)
			later = seen->val[RULE_SRC];
		return calvin_spec_err(c, later->start_mark,
				       "rule has an %s src and an %s dst; use one family in a rule "
				       "(write a rule per family)",
				       family_name(rule->src.family),
				       family_name(rule->dst.family));
	}
	return 0;
}

#define ROUTE(field) offsetof(struct calvin_route, field)
enum { ROUTE_PREFIX, ROUTE_VIA, ROUTE_END };
static const struct spec_key route_keys[] = {
    [ROUTE_PREFIX] = {.name = "prefix",
		      .type = KEY_PREFIX,
		      .off = ROUTE(prefix),
		      .required = "the destination, e.g. 'prefix: 10.70.0.0/24'"},
    [ROUTE_VIA] = {.name = "via",
		   .type = KEY_WORD,
		   .off = ROUTE(via),
		   .words = calvin_route_via_words,
		   .required = "'via: west', 'via: east' or 'via: drop'"},
    [ROUTE_END] = {NULL},
};

/* The same prefix twice is a mistake: the second could never match. */
static int route_after(struct spec_ctx *c, void *item, struct spec_seen *seen)
{
	struct calvin_router_spec *router = &c->vnf->router;
	struct calvin_route *route = item;
	char buf[CALVIN_PREFIX_STR_MAX];
	struct calvin_route *r;

	for (r = router->routes; r < route; r++)
		if (r->prefix.family == route->prefix.family &&
		    r->prefix.len == route->prefix.len &&
		    !memcmp(r->prefix.addr, route->prefix.addr, sizeof(r->prefix.addr)))
			return calvin_spec_err(
			    c, seen->val[ROUTE_PREFIX]->start_mark,
			    "route to %s is listed twice (first at line %d); keep one",
			    calvin_prefix_str(&route->prefix, buf, sizeof(buf)), r->pos.line);
	return 0;
}

struct list_desc {
	const char *key, *item; /* "rules", "rule" */
	unsigned int max;
	bool required; /* an empty list is an error */
	const char *example;
	const char *fix; /* what to do when there are too many */
	const struct spec_key *keys;
	size_t item_size, pos_off;
	int (*after)(struct spec_ctx *c, void *item, struct spec_seen *seen);
};

static const struct list_desc rules_desc = {
    "rules",
    "rule",
    CALVIN_ACL_MAX_RULES,
    false,
    "'- {action: allow, proto: udp, dport: 7357}'",
    "merge rules or split the acl",
    rule_keys,
    sizeof(struct calvin_acl_rule),
    offsetof(struct calvin_acl_rule, pos),
    rule_after,
};

static const struct list_desc routes_desc = {
    "routes",
    "route",
    CALVIN_ROUTER_MAX_ROUTES,
    true,
    "'- {prefix: 10.70.0.0/24, via: east}'",
    "merge routes or split the router",
    route_keys,
    sizeof(struct calvin_route),
    offsetof(struct calvin_route, pos),
    route_after,
};

static bool is_null(yaml_node_t *n)
{
	const char *s = (const char *)n->data.scalar.value;

	return n->type == YAML_SCALAR_NODE &&
	       (!strcmp(s, "") || !strcmp(s, "~") || !strcmp(s, "null"));
}

/* Fills items[] from a list of mappings; returns the count in *nr. */
static int set_list(struct spec_ctx *c, yaml_node_t *n, const struct list_desc *d, void *items,
		    unsigned int *nr)
{
	char label[64], what[32];
	struct calvin_pos pos;
	struct spec_seen seen;
	yaml_node_item_t *it;
	yaml_node_t *in;
	char *item;
	int err;

	*nr = 0;
	if (n->type != YAML_SEQUENCE_NODE && !is_null(n))
		return calvin_spec_err(c, n->start_mark,
				       "%s must be a list; write one %s item per %s", d->key,
				       d->example, d->item);
	if (n->type != YAML_SEQUENCE_NODE ||
	    n->data.sequence.items.start == n->data.sequence.items.top) {
		if (d->required)
			return calvin_spec_err(c, n->start_mark,
					       "%s is empty; list at least one %s, e.g. %s", d->key,
					       d->item, d->example);
		return 0;
	}
	for (it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
		in = yaml_document_get_node(c->doc, *it);
		if (!in)
			return calvin_spec_err(c, n->start_mark,
					       "broken YAML document; report a bug");
		if (*nr >= d->max)
			return calvin_spec_err(c, in->start_mark,
					       "%s has more than %u %s; the map holds %u: %s",
					       calvin_spec_vnf_label(c, label, sizeof(label)),
					       d->max, d->key, d->max, d->fix);
		if (in->type != YAML_MAPPING_NODE)
			return calvin_spec_err(c, in->start_mark,
					       "%s %u must be a mapping; write it as %s", d->item,
					       *nr + 1, d->example);
		item = (char *)items + (size_t)*nr * d->item_size;
		pos.line = (int)in->start_mark.line + 1;
		pos.col = (int)in->start_mark.column + 1;
		memcpy(item + d->pos_off, &pos, sizeof(pos));
		snprintf(what, sizeof(what), "%s %u", d->item, *nr + 1);
		err = calvin_spec_walk_mapping(c, in, what, d->keys, item, &seen);
		if (!err)
			err = d->after(c, item, &seen);
		if (err)
			return err;
		(*nr)++;
	}
	return 0;
}

int calvin_spec_set_rules(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n,
			  void *field)
{
	struct calvin_acl_spec *acl = field;
	unsigned int i;

	/* a rule without ports matches every port */
	for (i = 0; i < CALVIN_ACL_MAX_RULES; i++) {
		acl->rules[i].sport = (struct calvin_port_range){0, 65535};
		acl->rules[i].dport = (struct calvin_port_range){0, 65535};
	}
	return set_list(c, n, &rules_desc, acl->rules, &acl->nr_rules);
}

int calvin_spec_set_routes(struct spec_ctx *c, const struct spec_key *k, yaml_node_t *n,
			   void *field)
{
	struct calvin_router_spec *router = field;

	return set_list(c, n, &routes_desc, router->routes, &router->nr_routes);
}
