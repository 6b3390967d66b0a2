// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the placement planner and the CPU list parser. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "plan.h"

static void test_cpulist(void **unused)
{
	static bool set[CALVIN_MAX_CPUS];

	assert_int_equal(calvin_cpulist_parse("0-3,8,10-11\n", set), 0);
	assert_true(set[0] && set[3] && set[8] && set[10] && set[11]);
	assert_false(set[4] || set[9] || set[12]);
	assert_int_equal(calvin_cpulist_parse("", set), 0);
	assert_false(set[0]);
	assert_int_equal(calvin_cpulist_parse("3-1", set), -EINVAL);
	assert_int_equal(calvin_cpulist_parse("1,,2", set), -EINVAL);
	assert_int_equal(calvin_cpulist_parse("x", set), -EINVAL);
	assert_int_equal(calvin_cpulist_parse("1024", set), -EINVAL);
}

/* A chain of n VNFs, the user-space ones given by mask. */
static void chain(struct calvin_chain_spec *s, unsigned int n, unsigned int user_mask,
		  enum calvin_placement p, bool share)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	s->nr_vnfs = n;
	s->placement = p;
	s->allow_sharing = share;
	for (i = 0; i < n; i++)
		s->vnfs[i].space = (user_mask >> i) & 1 ? CALVIN_USER : CALVIN_KERNEL;
}

static void host(struct calvin_topology *t, unsigned int cpus, const char *isolated)
{
	unsigned int c;

	memset(t, 0, sizeof(*t));
	t->nr_cpus = cpus;
	for (c = 0; c < cpus; c++)
		t->online[c] = true;
	assert_int_equal(calvin_cpulist_parse(isolated, t->isolated), 0);
}

static void test_pinned(void **unused)
{
	static struct calvin_chain_spec s;
	static struct calvin_topology t;
	struct calvin_plan p;
	char err[256];

	host(&t, 4, "");
	chain(&s, 3, 0x6, CALVIN_PLACE_PINNED, false); /* kernel, user, user */
	assert_int_equal(calvin_plan_make(&s, &t, &p, err, sizeof(err)), 0);
	assert_int_equal(p.housekeeping, 0);
	assert_int_equal(p.vnf_cpu[0], -1);
	assert_int_equal(p.vnf_cpu[1], 3);
	assert_int_equal(p.vnf_cpu[2], 2);
	assert_false(p.shared);
}

static void test_not_enough_cores(void **unused)
{
	static struct calvin_chain_spec s;
	static struct calvin_topology t;
	struct calvin_plan p;
	char err[256];

	host(&t, 2, "");
	chain(&s, 2, 0x3, CALVIN_PLACE_PINNED, false);
	assert_int_equal(calvin_plan_make(&s, &t, &p, err, sizeof(err)), -ENOSPC);
	assert_non_null(strstr(err, "needs 2 cores"));
	assert_non_null(strstr(err, "allow-sharing"));
	/* allowed to share: both on CPU 1, flagged */
	s.allow_sharing = true;
	assert_int_equal(calvin_plan_make(&s, &t, &p, err, sizeof(err)), 0);
	assert_true(p.shared);
	assert_int_equal(p.vnf_cpu[0], 1);
	assert_int_equal(p.vnf_cpu[1], 1);
}

static void test_isolated(void **unused)
{
	static struct calvin_chain_spec s;
	static struct calvin_topology t;
	struct calvin_plan p;
	char err[256];

	host(&t, 8, "2,5");
	chain(&s, 2, 0x3, CALVIN_PLACE_ISOLATED, false);
	assert_int_equal(calvin_plan_make(&s, &t, &p, err, sizeof(err)), 0);
	assert_int_equal(p.vnf_cpu[0], 5);
	assert_int_equal(p.vnf_cpu[1], 2);
	host(&t, 8, "");
	assert_int_equal(calvin_plan_make(&s, &t, &p, err, sizeof(err)), -ENOSPC);
	assert_non_null(strstr(err, "isolcpus"));
	/* sharing allowed: dedicated, not isolated, cores */
	s.allow_sharing = true;
	assert_int_equal(calvin_plan_make(&s, &t, &p, err, sizeof(err)), 0);
	assert_int_equal(p.vnf_cpu[0], 7);
	assert_int_equal(p.vnf_cpu[1], 6);
}

static void test_shared_and_single_cpu(void **unused)
{
	static struct calvin_chain_spec s;
	static struct calvin_topology t;
	struct calvin_plan p;
	char err[256];

	host(&t, 4, "");
	chain(&s, 1, 0x1, CALVIN_PLACE_SHARED, false);
	assert_int_equal(calvin_plan_make(&s, &t, &p, err, sizeof(err)), 0);
	assert_int_equal(p.vnf_cpu[0], -1);
	host(&t, 1, "");
	chain(&s, 1, 0x1, CALVIN_PLACE_PINNED, true);
	assert_int_equal(calvin_plan_make(&s, &t, &p, err, sizeof(err)), 0);
	assert_int_equal(p.vnf_cpu[0], 0);
	assert_true(p.shared);
}

/* Under libvirt every VM takes a core, kernel VNFs' included; VNFs that
 * share a node share its VM's core. */
static void test_libvirt_vms(void **unused)
{
	static struct calvin_chain_spec s;
	static struct calvin_topology t;
	struct calvin_plan p;
	char err[256];

	host(&t, 4, "");
	chain(&s, 3, 0x4, CALVIN_PLACE_PINNED, false); /* kernel, kernel, user */
	s.backend = CALVIN_BACKEND_LIBVIRT;
	strcpy(s.vnfs[0].name, "a");
	strcpy(s.vnfs[1].name, "b");
	strcpy(s.vnfs[1].node, "a"); /* b runs in a's VM */
	strcpy(s.vnfs[2].name, "c");
	assert_int_equal(calvin_plan_make(&s, &t, &p, err, sizeof(err)), 0);
	assert_int_equal(p.housekeeping, 0);
	assert_int_equal(p.vnf_cpu[0], 3);
	assert_int_equal(p.vnf_cpu[1], 3);
	assert_int_equal(p.vnf_cpu[2], 2);
	assert_false(p.shared);

	host(&t, 2, "");
	assert_int_equal(calvin_plan_make(&s, &t, &p, err, sizeof(err)), -ENOSPC);
	assert_non_null(strstr(err, "needs 2 cores for VMs besides housekeeping CPU 0"));
	s.allow_sharing = true;
	assert_int_equal(calvin_plan_make(&s, &t, &p, err, sizeof(err)), 0);
	assert_true(p.shared);
	assert_int_equal(p.vnf_cpu[0], 1);
	assert_int_equal(p.vnf_cpu[2], 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_pinned),
		cmocka_unit_test(test_not_enough_cores),
		cmocka_unit_test(test_isolated),
		cmocka_unit_test(test_shared_and_single_cpu),
		cmocka_unit_test(test_libvirt_vms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
