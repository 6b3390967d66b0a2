// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the comparison of a deployed chain's spec with a new one
 * (spec/spec.h): by meaning, positions and unused bytes never count;
 * what the running chain cannot take is named. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "spec/spec.h"

/* 70 kB each: not on the stack */
static struct calvin_chain_spec old_spec, new_spec;
static struct calvin_spec_diff d;

static void parse(const char *yaml, struct calvin_chain_spec *s)
{
	char err[CALVIN_ERR_MAX];

	/* garbage first: what the parser does not set must not count */
	memset(s, 0xa5, sizeof(*s));
	if (calvin_spec_parse(yaml, strlen(yaml), "t.yaml", s, err, sizeof(err)))
		fail_msg("%s", err);
}

static void diff(const char *a, const char *b)
{
	parse(a, &old_spec);
	parse(b, &new_spec);
	calvin_spec_diff(&old_spec, &new_spec, &d);
}

#define ACL "name: c\nbudget: 1ms\n" ACL_VNFS
#define ACL_VNFS                                                                                   \
	"vnfs:\n"                                                                                  \
	"  - name: fw\n    kind: acl\n    default: deny\n    rules:\n"                             \
	"      - {action: allow, proto: udp, dst: 10.70.0.2, dport: 7357}\n"                       \
	"      - {action: allow, proto: icmp}\n"                                                   \
	"  - name: fwd-u\n    kind: forward\n    space: user\n"

/* The acl's rules move down a line and a column: no change at all. */
static const char acl_moved[] =
    "# a comment above everything\n"
    "name: c\nbudget: 1ms\nvnfs:\n"
    "  - name: fw\n    kind: acl\n    default: deny\n    rules:\n"
    "      # a comment above the rules\n"
    "      -  {action: allow, proto: udp, dst: 10.70.0.2, dport: 7357}\n"
    "      - {action: allow, proto: icmp}\n"
    "  - name: fwd-u\n    kind: forward\n    space: user\n";

static void test_positions_only(void **state)
{
	diff(ACL, acl_moved);
	assert_int_not_equal(old_spec.vnfs[0].acl.rules[0].pos.line,
			     new_spec.vnfs[0].acl.rules[0].pos.line);
	assert_string_equal(d.refused, "");
	assert_int_equal(d.nr_params, 0);
	assert_false(d.params[0]);
	assert_false(d.settings);
	assert_true(calvin_vnf_params_equal(&old_spec.vnfs[0], &new_spec.vnfs[0]));
}

static void test_acl_rule_changed(void **state)
{
	static const char changed[] =
	    "name: c\nbudget: 1ms\nvnfs:\n"
	    "  - name: fw\n    kind: acl\n    default: deny\n    rules:\n"
	    "      - {action: allow, proto: udp, dst: 10.70.0.2, dport: 7358}\n"
	    "      - {action: allow, proto: icmp}\n"
	    "  - name: fwd-u\n    kind: forward\n    space: user\n";

	diff(ACL, changed);
	assert_string_equal(d.refused, "");
	assert_int_equal(d.nr_params, 1);
	assert_true(d.params[0]);
	assert_false(d.params[1]);
}

/* Order decides in an acl (first match), not in a router (longest prefix). */
static void test_order(void **state)
{
	static const char swapped[] =
	    "name: c\nbudget: 1ms\nvnfs:\n"
	    "  - name: fw\n    kind: acl\n    default: deny\n    rules:\n"
	    "      - {action: allow, proto: icmp}\n"
	    "      - {action: allow, proto: udp, dst: 10.70.0.2, dport: 7357}\n"
	    "  - name: fwd-u\n    kind: forward\n    space: user\n";
#define ROUTER(a, b)                                                                               \
	"name: c\nbudget: 1ms\nvnfs:\n  - name: r\n    kind: router\n    routes:\n"                \
	"      - {prefix: " a "}\n      - {prefix: " b "}\n"

	diff(ACL, swapped);
	assert_true(d.params[0]);
	diff(ROUTER("10.70.0.0/24, via: east", "10.0.0.0/8, via: drop"),
	     ROUTER("10.0.0.0/8, via: drop", "10.70.0.0/24, via: east"));
	assert_string_equal(d.refused, "");
	assert_int_equal(d.nr_params, 0);
	diff(ROUTER("10.70.0.0/24, via: east", "10.0.0.0/8, via: drop"),
	     ROUTER("10.70.0.0/24, via: east", "10.0.0.0/8, via: west"));
	assert_int_equal(d.nr_params, 1);
}

#define IMPAIR(params) "name: c\nbudget: 1ms\nvnfs:\n  - name: lossy\n    kind: impair\n" params

static void test_kinds(void **state)
{
	diff(IMPAIR("    loss: 5%\n"), IMPAIR("    loss: 5%\n    seed: 1\n"));
	assert_int_equal(d.nr_params, 0); /* the default, written out */
	diff(IMPAIR("    loss: 5%\n"), IMPAIR("    loss: 6%\n"));
	assert_int_equal(d.nr_params, 1);
	diff(IMPAIR("    model: gilbert-elliott\n    p: 1%\n    r: 30%\n"),
	     IMPAIR("    model: gilbert-elliott\n    r: 30%\n    p: 1%\n"));
	assert_int_equal(d.nr_params, 0);
#define RL(params) "name: c\nbudget: 1ms\nvnfs:\n  - name: rl\n    kind: ratelimit\n" params
	diff(RL("    pps: 1000\n"), RL("    pps: 1000\n    burst: 10\n"));
	assert_int_equal(d.nr_params, 0); /* pps/100 is the default burst */
	diff(RL("    pps: 1000\n"), RL("    pps: 1000\n    per: flow\n"));
	assert_int_equal(d.nr_params, 1);
}

/* User VNFs' parameters are compared too; the caller refuses the change. */
static void test_user_params(void **state)
{
#define NC(k)                                                                                      \
	"name: c\nbudget: 1ms\nvnfs:\n  - {name: enc, kind: nc-encode, k: " k "}\n"                   \
	"  - {name: dec, kind: nc-decode, k: " k "}\n"
	diff(NC("4"), "# moved\n" NC("4"));
	assert_int_equal(d.nr_params, 0);
	diff(NC("4"), NC("8"));
	assert_string_equal(d.refused, "");
	assert_true(d.params[0]);
}

static void test_refused(void **state)
{
	static const struct {
		const char *yaml, *refused;
	} cases[] = {
		{ ACL "server: {kind: reflect}\n", "server kind (deployed: echo, file: reflect)" },
		{ ACL "server: {name: mec}\n", "server name (deployed: server, file: mec)" },
		{ ACL "probe: {port: 7358}\n", "probe port (deployed: 7357, file: 7358)" },
		{ ACL "placement: shared\n", "placement (deployed: pinned, file: shared)" },
		{ ACL "allow-sharing: true\n", "allow-sharing (deployed: false, file: true)" },
		{ ACL "shared-core: yield\n", "shared-core (deployed: loop, file: yield)" },
		{ ACL "mtu: 3000\n", "mtu (deployed: 1500, file: 3000)" },
		{ ACL "backend: libvirt\n", "backend (deployed: netns, file: libvirt)" },
		{ ACL "    burst: 32\n", "burst of VNF fwd-u (deployed: 1, file: 32)" },
		{ ACL "    pmd: af_packet\n",
		  "PMD of VNF fwd-u (deployed: af_xdp, file: af_packet)" },
		{ ACL "  - name: more\n    kind: forward\n",
		  "VNF list (deployed: 2 VNFs, file: 3)" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		diff(ACL, cases[i].yaml);
		assert_string_equal(d.refused, cases[i].refused);
	}
}

static void test_settings(void **state)
{
	diff(ACL, ACL "probe: {count: 10}\n");
	assert_string_equal(d.refused, "");
	assert_int_equal(d.nr_params, 0);
	assert_true(d.settings);
	diff(ACL, "name: c\nbudget: 2ms\n" ACL_VNFS);
	assert_true(d.settings);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_positions_only), cmocka_unit_test(test_acl_rule_changed),
		cmocka_unit_test(test_order),	       cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_user_params),    cmocka_unit_test(test_refused),
		cmocka_unit_test(test_settings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
