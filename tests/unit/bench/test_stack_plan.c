// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the conventional stack `calvin bench` compares against:
 * its addresses, routes and relays (bench/lib/bench_lib.h), and calvin-relay's
 * flow table and port list (bench/lib/bench_lib.h). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <arpa/inet.h>
#include <cmocka.h>

#include "bench/lib/bench_lib.h"

/* probe, a kernel node, a user node, a kernel node, a user node, server */
static unsigned int nodes(struct calvin_node *n)
{
	static const enum calvin_space sp[] = { CALVIN_KERNEL, CALVIN_KERNEL, CALVIN_USER,
						CALVIN_KERNEL, CALVIN_USER,   CALVIN_KERNEL };
	unsigned int i;

	memset(n, 0, sizeof(*n) * 6);
	for (i = 0; i < 6; i++) {
		n[i].space = sp[i];
		n[i].nr_vnfs = i && i < 5;
	}
	return 6;
}

static void test_plan(void **state)
{
	struct calvin_node n[CALVIN_MAX_NODES];
	struct calvin_stack_plan p;

	assert_int_equal(calvin_stack_plan(n, nodes(n), &p), 0);
	assert_int_equal(p.node[0].role, CALVIN_STACK_PROBE);
	assert_int_equal(p.node[1].role, CALVIN_STACK_ROUTER);
	assert_int_equal(p.node[2].role, CALVIN_STACK_RELAY);
	assert_int_equal(p.node[5].role, CALVIN_STACK_SERVER);
	/* link k: .1 at its west end, .2 at its east end */
	assert_string_equal(p.node[0].west, "");
	assert_string_equal(p.node[0].east, "10.71.0.1");
	assert_string_equal(p.node[2].west, "10.71.1.2");
	assert_string_equal(p.node[2].west_peer, "10.71.1.1");
	assert_string_equal(p.node[2].east, "10.71.2.1");
	assert_string_equal(p.node[2].east_peer, "10.71.2.2");
	assert_string_equal(p.node[5].east, "");
	/* the probe sends to the first relay; relays to the next, then the server */
	assert_string_equal(p.entry, "10.71.1.2");
	assert_string_equal(p.node[2].relay_to, "10.71.3.2");
	assert_string_equal(p.node[4].relay_to, "10.71.4.2");
	assert_string_equal(p.server, "10.71.4.2");
	/* every link beyond a neighbour, through that neighbour */
	assert_int_equal(p.node[0].nr_routes, 4);
	assert_string_equal(p.node[0].routes[0].prefix, "10.71.1.0/24");
	assert_true(p.node[0].routes[0].east);
	assert_string_equal(p.node[0].routes[0].via, "10.71.0.2");
	assert_int_equal(p.node[3].nr_routes, 3);
	assert_string_equal(p.node[3].routes[0].prefix, "10.71.0.0/24");
	assert_false(p.node[3].routes[0].east);
	assert_string_equal(p.node[3].routes[0].via, "10.71.2.1");
	assert_string_equal(p.node[3].routes[2].prefix, "10.71.4.0/24");
	assert_string_equal(p.node[3].routes[2].via, "10.71.3.2");
	assert_int_equal(p.node[5].nr_routes, 4);
}

static void test_plan_no_relay(void **state)
{
	struct calvin_node n[3] = { { 0 } };
	struct calvin_stack_plan p;

	/* a kernel VNF alone: the probe sends to the server */
	assert_int_equal(calvin_stack_plan(n, 3, &p), 0);
	assert_string_equal(p.entry, "10.71.1.2");
	assert_string_equal(p.server, "10.71.1.2");
	assert_int_equal(calvin_stack_plan(n, 2, &p), -EINVAL);
}

static struct sockaddr_in client(const char *a, uint16_t port)
{
	struct sockaddr_in c = { .sin_family = AF_INET, .sin_port = htons(port) };

	inet_pton(AF_INET, a, &c.sin_addr);
	return c;
}

static void test_flows(void **state)
{
	struct calvin_relay_flows t;
	struct calvin_relay_flow *f, *g;
	struct sockaddr_in c = client("10.71.0.1", 4000);
	bool fresh;
	int i;

	calvin_relay_flows_init(&t);
	f = calvin_relay_flow_get(&t, &c, 0, &fresh);
	assert_true(fresh);
	assert_int_equal(f->fd, -1);
	f->fd = 10;
	assert_ptr_equal(calvin_relay_flow_get(&t, &c, 0, &fresh), f);
	assert_false(fresh);
	/* the same client on another port is another flow */
	g = calvin_relay_flow_get(&t, &c, 1, &fresh);
	assert_true(fresh && g != f);
	g->fd = 11;
	assert_ptr_equal(calvin_relay_flow_by_fd(&t, 10), f);
	assert_null(calvin_relay_flow_by_fd(&t, 12));
	/* a full table: a new client takes the least recently used slot */
	for (i = 0; i < CALVIN_RELAY_MAX_FLOWS - 2; i++) {
		c = client("10.71.0.1", (uint16_t)(5000 + i));
		calvin_relay_flow_get(&t, &c, 0, &fresh)->fd = 100 + i;
	}
	c = client("10.71.0.1", 4000);
	calvin_relay_flow_get(&t, &c, 0, &fresh); /* f is used again: g is the oldest */
	c = client("10.71.0.9", 4000);
	f = calvin_relay_flow_get(&t, &c, 0, &fresh);
	assert_true(fresh);
	assert_ptr_equal(f, g);
	assert_int_equal(f->fd, 11); /* the evicted flow's, for the caller to close */
}

static void test_ports(void **state)
{
	uint16_t p[CALVIN_RELAY_MAX_PORTS];

	assert_int_equal(calvin_relay_parse_ports("7357,11111,9", p), 3);
	assert_int_equal(p[0], 7357);
	assert_int_equal(p[2], 9);
	assert_int_equal(calvin_relay_parse_ports("7357", p), 1);
	assert_int_equal(calvin_relay_parse_ports("", p), -EINVAL);
	assert_int_equal(calvin_relay_parse_ports("0", p), -EINVAL);
	assert_int_equal(calvin_relay_parse_ports("65536", p), -EINVAL);
	assert_int_equal(calvin_relay_parse_ports("1,1", p), -EINVAL);
	assert_int_equal(calvin_relay_parse_ports("1,", p), -EINVAL);
	assert_int_equal(calvin_relay_parse_ports("1;2", p), -EINVAL);
	assert_int_equal(calvin_relay_parse_ports("1,2,3,4,5,6,7,8,9", p), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_plan_no_relay),
		cmocka_unit_test(test_flows),
		cmocka_unit_test(test_ports),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
