// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of a host's topology read from its libvirt capabilities: this
 * build machine's, a two-node SMT host's, and what is refused. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "plan/plan.h"

/* virsh capabilities on this build machine (libvirt 9.0), cut short */
static const char here[] =
    "<capabilities>\n  <host>\n    <uuid>x</uuid>\n    <cpu>\n      <arch>x86_64</arch>\n"
    "      <topology sockets='1' dies='1' cores='2' threads='1'/>\n    </cpu>\n"
    "    <topology>\n      <cells num='1'>\n        <cell id='0'>\n"
    "          <memory unit='KiB'>7694072</memory>\n          <distances>\n"
    "            <sibling id='0' value='10'/>\n          </distances>\n"
    "          <cpus num='2'>\n"
    "            <cpu id='0' socket_id='0' die_id='0' core_id='0' siblings='0'/>\n"
    "            <cpu id='1' socket_id='0' die_id='0' core_id='1' siblings='1'/>\n"
    "          </cpus>\n        </cell>\n      </cells>\n    </topology>\n  </host>\n"
    "  <guest><os_type>hvm</os_type></guest>\n</capabilities>\n";

/* two NUMA nodes, two threads per core, siblings listed apart */
static const char smt[] = "<capabilities><host><topology><cells num='2'>"
			  "<cell id='0'><cpus num='4'>"
			  "<cpu id='0' core_id='0' siblings='0,4'/>"
			  "<cpu id='1' core_id='1' siblings='1,5'/>"
			  "<cpu id='4' core_id='0' siblings='0,4'/>"
			  "<cpu id='5' core_id='1' siblings='1,5'/>"
			  "</cpus></cell>"
			  "<cell id=\"1\"><cpus num='4'>"
			  "<cpu id='2' siblings='2-3'/><cpu id='3' siblings='2-3'/>"
			  "<cpu id='6' siblings='6'/><cpu id='7'/>"
			  "</cpus></cell></cells></topology></host></capabilities>";

static void test_here(void **state)
{
	struct calvin_topology t;
	char why[256];

	assert_int_equal(calvin_topology_from_caps(here, &t, why, sizeof(why)), 0);
	assert_int_equal(t.nr_cpus, 2);
	assert_int_equal(t.nr_nodes, 1);
	assert_int_equal(calvin_cpumask_count(&t.online), 2);
	assert_int_equal(t.node[0], 0);
	assert_int_equal(t.node[1], 0);
	assert_int_equal(t.core[1], 1);
	assert_true(calvin_cpumask_empty(&t.isolcpus));
	assert_int_equal(t.nr_holds, 0);
}

static void test_smt(void **state)
{
	struct calvin_topology t;
	struct calvin_cpumask m;
	char why[256];

	assert_int_equal(calvin_topology_from_caps(smt, &t, why, sizeof(why)), 0);
	assert_int_equal(t.nr_cpus, 8);
	assert_int_equal(t.nr_nodes, 2);
	assert_int_equal(t.core[4], 0);
	assert_int_equal(t.core[5], 1);
	assert_int_equal(t.core[3], 2);
	assert_int_equal(t.core[6], 6);
	assert_int_equal(t.core[7], 7);
	assert_int_equal(t.node[6], 1);
	assert_int_equal(calvin_topology_node_cpus(&t, 1, &m), 4);
	assert_int_equal(calvin_topology_core_cpus(&t, 0, &m), 2);
}

static void test_refused(void **state)
{
	static const struct {
		const char *xml, *why;
	} cases[] = {
		{ "<capabilities><host></host></capabilities>", "no <topology>" },
		{ "<topology><cells num='0'></cells></topology>", "lists no CPU" },
		{ "<topology><cell id='0'><cpu socket_id='0'/></cell></topology>", "has no id" },
		{ "<topology><cell id='0'><cpu id='4096'/></cell></topology>",
		  "has no id below 1024" },
		{ "<topology><cell id='x'><cpu id='0'/></cell></topology>",
		  "a <cell> of the host's" },
		{ "<topology><cell id='0'><cpu id='0' </topology>", "ends inside a tag" },
		{ "<topology><cell id='0'><cpu xid='0'/></cell></topology>", "has no id" },
	};
	struct calvin_topology t;
	char why[256];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		why[0] = '\0';
		if (calvin_topology_from_caps(cases[i].xml, &t, why, sizeof(why)) != -EINVAL)
			fail_msg("case %zu read", i);
		if (!strstr(why, cases[i].why))
			fail_msg("case %zu: '%s' does not say '%s'", i, why, cases[i].why);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_here),
		cmocka_unit_test(test_smt),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
