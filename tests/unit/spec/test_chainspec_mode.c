// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of a chain's mode (latency | throughput): the default, each
 * value, each error with its file:line:col, and which interfaces run XDP
 * and checksum in software in each mode. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "spec/spec.h"

/* lines 1-8: probe -> k (kernel) -> u (user) -> server */
#define HEAD                                                                                       \
	"name: c\nbudget: 1ms\nvnfs:\n  - name: k\n    kind: forward\n  - name: u\n"               \
	"    kind: forward\n    space: user\n"

static int parse(const char *yaml, struct calvin_chain_spec *s, char *err)
{
	return calvin_spec_parse(yaml, strlen(yaml), "t.yaml", s, err, CALVIN_ERR_MAX);
}

static void test_values(void **unused)
{
	struct calvin_chain_spec s;
	char err[CALVIN_ERR_MAX];

	assert_int_equal(parse(HEAD, &s, err), 0);
	assert_int_equal(s.mode, CALVIN_MODE_LATENCY);
	assert_int_equal(s.mode_pos.line, 0);
	assert_int_equal(parse(HEAD "mode: latency\n", &s, err), 0);
	assert_int_equal(s.mode, CALVIN_MODE_LATENCY);
	assert_int_equal(parse("mode: throughput\n" HEAD, &s, err), 0);
	assert_int_equal(s.mode, CALVIN_MODE_THROUGHPUT);
	assert_int_equal(s.mode_pos.line, 1);
	assert_int_equal(s.mode_pos.col, 7);
	assert_string_equal(calvin_chain_mode_name(s.mode), "throughput");
}

static const struct {
	const char *yaml, *where, *what;
} bad[] = {
	{ HEAD "mode: fast\n",
	  "t.yaml:9:7: ", "unknown mode 'fast'; use one of: latency, throughput" },
	{ HEAD "mode: [throughput]\n", "t.yaml:9:7: ", "mode" },
	{ HEAD "mode: throughput\nbackend: libvirt\n",
	  "t.yaml:9:7: ", "mode: throughput needs 'backend: netns'" },
	/* tc has the forwarder only: the error names the VNF */
	{ "name: c\nbudget: 1ms\nmode: throughput\nvnfs:\n  - name: a\n    kind: acl\n",
	  "t.yaml:5:5: ", "a: kind acl has no tc program" },
};

static void test_bad(void **unused)
{
	struct calvin_chain_spec s;
	char err[CALVIN_ERR_MAX];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(bad[i].yaml, &s, err), -EINVAL);
		print_message("%s\n", err);
		assert_memory_equal(err, bad[i].where, strlen(bad[i].where));
		assert_non_null(strstr(err, bad[i].what));
		assert_null(strchr(err, '\n'));
	}
}

/* Latency: XDP everywhere, endpoints checksum in software. Throughput:
 * the kernel VNF is at tc, so the probe keeps its offloads and needs no
 * pass program; the kernel VNF's east faces the user VNF's XDP and
 * checksums in software; the server faces XDP (the user VNF) too. */
static void test_ports(void **unused)
{
	struct calvin_chain_spec s;
	struct calvin_node n[CALVIN_MAX_NODES];
	char err[CALVIN_ERR_MAX];
	unsigned int nr;

	assert_int_equal(parse(HEAD, &s, err), 0);
	nr = calvin_chain_nodes(&s, n);
	assert_int_equal(nr, 4);
	assert_true(calvin_port_has_xdp(&s, n, nr, 0, true));
	assert_true(calvin_port_has_xdp(&s, n, nr, 1, true));
	assert_true(calvin_port_sw_csum(&s, n, nr, 0, true));
	assert_false(calvin_port_sw_csum(&s, n, nr, 1, true));
	assert_true(calvin_port_sw_csum(&s, n, nr, 3, false));

	assert_int_equal(parse(HEAD "mode: throughput\n", &s, err), 0);
	nr = calvin_chain_nodes(&s, n);
	assert_false(calvin_port_has_xdp(&s, n, nr, 0, true));
	assert_false(calvin_port_has_xdp(&s, n, nr, 1, false));
	assert_true(calvin_port_has_xdp(&s, n, nr, 2, false));
	assert_true(calvin_port_has_xdp(&s, n, nr, 3, false));
	assert_false(calvin_port_sw_csum(&s, n, nr, 0, true));
	assert_false(calvin_port_sw_csum(&s, n, nr, 1, false));
	assert_true(calvin_port_sw_csum(&s, n, nr, 1, true));
	assert_false(calvin_port_sw_csum(&s, n, nr, 2, true));
	assert_true(calvin_port_sw_csum(&s, n, nr, 3, false));

	/* a user VNF first: the probe faces XDP, and keeps its pass program */
	assert_int_equal(parse("name: c\nbudget: 1ms\nmode: throughput\nvnfs:\n  - name: u\n"
			       "    kind: forward\n    space: user\n",
			       &s, err),
			 0);
	nr = calvin_chain_nodes(&s, n);
	assert_true(calvin_port_has_xdp(&s, n, nr, 0, true));
	assert_true(calvin_port_sw_csum(&s, n, nr, 0, true));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_ports),
	};

	return cmocka_run_group_tests_name("chainspec_mode", tests, NULL, NULL);
}
