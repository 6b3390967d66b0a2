// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The conventional stack's addresses, routes and relays (see bench_lib.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench/lib/bench_lib.h"

static void addr(char *out, unsigned int link, unsigned int end)
{
	snprintf(out, CALVIN_STACK_ADDR_MAX, "10.71.%u.%u", link, end);
}

static void route(struct calvin_stack_node *n, unsigned int link, bool east)
{
	struct calvin_stack_route *r = &n->routes[n->nr_routes++];

	snprintf(r->prefix, sizeof(r->prefix), "10.71.%u.0/%d", link, CALVIN_STACK_PREFIXLEN);
	r->east = east;
	memcpy(r->via, east ? n->east_peer : n->west_peer, sizeof(r->via));
}

static enum calvin_stack_role role_of(const struct calvin_node *nodes, unsigned int i,
				      unsigned int nr)
{
	if (i == 0)
		return CALVIN_STACK_PROBE;
	if (i + 1 == nr)
		return CALVIN_STACK_SERVER;
	return nodes[i].space == CALVIN_USER ? CALVIN_STACK_RELAY : CALVIN_STACK_ROUTER;
}

/* Where a UDP datagram leaving node i eastward must be addressed: the
 * next relay east of it, or the server. */
static void next_end(const struct calvin_stack_plan *p, unsigned int i, char *out)
{
	unsigned int j;

	for (j = i + 1; j + 1 < p->nr_nodes; j++)
		if (p->node[j].role == CALVIN_STACK_RELAY)
			break;
	snprintf(out, CALVIN_STACK_ADDR_MAX, "%s", p->node[j].west);
}

int calvin_stack_plan(const struct calvin_node *nodes, unsigned int nr, struct calvin_stack_plan *p)
{
	struct calvin_stack_node *n;
	unsigned int i, l;

	memset(p, 0, sizeof(*p));
	if (nr < 3 || nr > CALVIN_MAX_NODES || nr - 1 > 255)
		return -EINVAL;
	p->nr_nodes = nr;
	for (i = 0; i < nr; i++) {
		n = &p->node[i];
		n->role = role_of(nodes, i, nr);
		if (i > 0) {
			addr(n->west, i - 1, 2);
			addr(n->west_peer, i - 1, 1);
		}
		if (i + 1 < nr) {
			addr(n->east, i, 1);
			addr(n->east_peer, i, 2);
		}
		/* every link beyond a neighbour: through that neighbour */
		for (l = 0; i >= 2 && l + 1 < i; l++)
			route(n, l, false);
		for (l = i + 1; l + 1 < nr; l++)
			route(n, l, true);
	}
	for (i = 1; i + 1 < nr; i++)
		if (p->node[i].role == CALVIN_STACK_RELAY)
			next_end(p, i, p->node[i].relay_to);
	next_end(p, 0, p->entry);
	snprintf(p->server, sizeof(p->server), "%s", p->node[nr - 1].west);
	return 0;
}
