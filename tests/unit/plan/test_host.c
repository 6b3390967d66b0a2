// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the host reader (fake trees and this machine's own /sys),
 * the CPU list codec and the plan record. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fake_host.h"

static struct calvin_topology t;

static void assert_list(const struct calvin_cpumask *s, const char *want)
{
	char buf[256];

	assert_string_equal(calvin_cpumask_list(s, buf, sizeof(buf)), want);
}

static void test_cpulist(void **unused)
{
	struct calvin_cpumask s;
	char small[8];

	assert_int_equal(calvin_cpumask_parse_list("0-3,8,10-11\n", &s), 0);
	assert_list(&s, "0-3,8,10-11");
	assert_int_equal(calvin_cpumask_count(&s), 7);
	assert_int_equal(calvin_cpumask_parse_list("", &s), 0);
	assert_true(calvin_cpumask_empty(&s));
	assert_list(&s, "");
	assert_int_equal(calvin_cpumask_parse_list("3-1", &s), -EINVAL);
	assert_int_equal(calvin_cpumask_parse_list("1,,2", &s), -EINVAL);
	assert_int_equal(calvin_cpumask_parse_list("1,", &s), -EINVAL);
	assert_int_equal(calvin_cpumask_parse_list("x", &s), -EINVAL);
	assert_int_equal(calvin_cpumask_parse_list("1024", &s), -ERANGE);
	assert_int_equal(calvin_cpumask_parse_list("0-1023", &s), 0);
	assert_int_equal(calvin_cpumask_count(&s), 1024);
	/* a list that does not fit is NULL, never cut */
	assert_int_equal(calvin_cpumask_parse_list("0,2,4,6,8", &s), 0);
	assert_null(calvin_cpumask_list(&s, small, sizeof(small)));
}

/* 8 CPUs in SMT pairs on two NUMA nodes, isolcpus, nohz_full. */
static void test_read_topology(void **unused)
{

	fake_host(&h, 8);
	fake_smt_pairs(&h, 8);
	fake_numa(&h, "0-1,4-5", "2-3,6-7");
	fake_write(&h, "sys/devices/system/cpu/isolated", "3,7\n");
	fake_write(&h, "sys/devices/system/cpu/nohz_full", "2-3,6-7\n");
	assert_int_equal(fake_read(&h, &t), 0);
	assert_int_equal(t.nr_cpus, 8);
	assert_list(&t.online, "0-7");
	assert_list(&t.isolcpus, "3,7");
	assert_list(&t.nohz_full, "2-3,6-7");
	assert_int_equal(t.core[6], 2);
	assert_int_equal(t.core[2], 2);
	assert_int_equal(t.core[0], 0);
	assert_int_equal(t.nr_nodes, 2);
	assert_int_equal(t.node[5], 0);
	assert_int_equal(t.node[6], 1);
	assert_true(calvin_cpumask_empty(&t.partitions));
	assert_string_equal(t.unread, "");
	/* an empty nohz_full reads "(null)" on some kernels */
	fake_write(&h, "sys/devices/system/cpu/nohz_full", "(null)\n");
	assert_int_equal(fake_read(&h, &t), 0);
	assert_true(calvin_cpumask_empty(&t.nohz_full));
}

static void test_read_errors(void **unused)
{
	struct calvin_host_source src = {NULL, NULL, NULL};
	char err[256], want[256];

	fake_host(&h, 2);
	src.root = h.root;
	fake_write(&h, "sys/devices/system/cpu/isolated", "garbage\n");
	assert_int_equal(calvin_host_read(&src, &t, err, sizeof(err)), 0);
	assert_string_equal(t.unread, "sys/devices/system/cpu/isolated");
	fake_rm(&h, "sys/devices/system/cpu/online");
	assert_int_equal(calvin_host_read(&src, &t, err, sizeof(err)), -ENOENT);
	snprintf(want, sizeof(want),
		 "cannot read the online CPUs from %s/sys/devices/system/cpu/online: No such "
		 "file or directory",
		 h.root);
	assert_string_equal(err, want);
}

/* The controller's affinity, and its cgroup v1 cpuset in a hybrid layout
 * like this build machine's (cpuset v1, a cgroup2 mount without it). */
static void test_read_affinity_cgroup_v1(void **unused)
{

	fake_host(&h, 8);
	fake_write(&h, "proc/self/status", "Name:\tx\nCpus_allowed_list:\t0-3\nother:\t1\n");
	assert_int_equal(fake_read(&h, &t), 0);
	assert_list(&t.affinity, "0-3");
	assert_list(&t.cpuset, "0-7");
	assert_string_equal(t.cpuset_from, "");
	fake_write(&h, "proc/self/mountinfo",
		   "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
		   "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
		   "34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset\n"
		   "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n");
	fake_write(&h, "proc/self/cgroup", "4:memory:/x\n3:cpuset:/calvin\n1:cpu:/\n0::/\n");
	fake_write(&h, "sys/fs/cgroup/cpuset/calvin/cpuset.effective_cpus", "4-5\n");
	fake_write(&h, "sys/fs/cgroup/cpuset/calvin/cpuset.cpus", "4-6\n");
	assert_int_equal(fake_read(&h, &t), 0);
	assert_list(&t.cpuset, "4-5");
	assert_string_equal(t.cpuset_from, "/sys/fs/cgroup/cpuset/calvin/cpuset.effective_cpus");
	/* older kernels: only cpuset.cpus */
	fake_rm(&h, "sys/fs/cgroup/cpuset/calvin/cpuset.effective_cpus");
	assert_int_equal(fake_read(&h, &t), 0);
	assert_list(&t.cpuset, "4-6");
	/* the root cgroup, as on this build machine */
	fake_write(&h, "proc/self/cgroup", "3:cpuset:/\n0::/\n");
	fake_write(&h, "sys/fs/cgroup/cpuset/cpuset.effective_cpus", "0-7\n");
	assert_int_equal(fake_read(&h, &t), 0);
	assert_string_equal(t.cpuset_from, "/sys/fs/cgroup/cpuset/cpuset.effective_cpus");
	/* a mount of a sub-hierarchy (a container's view) */
	fake_write(&h, "proc/self/mountinfo",
		   "34 31 0:31 /ctr /sys/fs/cgroup/cpuset rw - cgroup cgroup rw,cpuset\n");
	fake_write(&h, "proc/self/cgroup", "3:cpuset:/ctr/app\n");
	fake_write(&h, "sys/fs/cgroup/cpuset/app/cpuset.effective_cpus", "6\n");
	assert_int_equal(fake_read(&h, &t), 0);
	assert_list(&t.cpuset, "6");
	assert_string_equal(t.cpuset_from, "/sys/fs/cgroup/cpuset/app/cpuset.effective_cpus");
}

/* cgroup v2: the controller's cpuset.cpus.effective, and isolated
 * partitions from the root's cpuset.cpus.isolated. */
static void test_read_cgroup_v2(void **unused)
{

	fake_host(&h, 8);
	fake_write(&h, "proc/self/mountinfo",
		   "30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n");
	fake_write(&h, "proc/self/cgroup", "0::/system.slice/calvin.service\n");
	fake_write(&h, "sys/fs/cgroup/system.slice/calvin.service/cpuset.cpus.effective", "0-5\n");
	fake_write(&h, "sys/fs/cgroup/cpuset.cpus.isolated", "6-7\n");
	assert_int_equal(fake_read(&h, &t), 0);
	assert_list(&t.cpuset, "0-5");
	assert_string_equal(t.cpuset_from,
			    "/sys/fs/cgroup/system.slice/calvin.service/cpuset.cpus.effective");
	assert_list(&t.partitions, "6-7");
}

/* Kernels before 6.8 have no cpuset.cpus.isolated: every cgroup whose
 * partition is "isolated" (and valid) counts. */
static void test_read_partitions_walk(void **unused)
{

	fake_host(&h, 8);
	fake_write(&h, "proc/self/mountinfo",
		   "30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n");
	fake_write(&h, "sys/fs/cgroup/rt/cpuset.cpus.partition", "root\n");
	fake_write(&h, "sys/fs/cgroup/rt/cpuset.cpus.effective", "4-7\n");
	fake_write(&h, "sys/fs/cgroup/rt/a/cpuset.cpus.partition", "isolated\n");
	fake_write(&h, "sys/fs/cgroup/rt/a/cpuset.cpus.effective", "5-6\n");
	fake_write(&h, "sys/fs/cgroup/rt/b/cpuset.cpus.partition",
		   "isolated invalid (Cpu list in cpuset.cpus not exclusive)\n");
	fake_write(&h, "sys/fs/cgroup/rt/b/cpuset.cpus.effective", "7\n");
	assert_int_equal(fake_read(&h, &t), 0);
	assert_list(&t.partitions, "5-6");
	/* no cpuset in the controller's own cgroup: no limit */
	assert_list(&t.cpuset, "0-7");
}

/* Other chains' plan records: every one but the chain's own. */
static void test_read_holds(void **unused)
{

	fake_host(&h, 8);
	fake_record(&h, "tactile-nc",
		    "# comment\npolicy pinned\nhousekeeping 0-5\nisolate 7\n"
		    "vnf enc 7 owns isolated\nvnf dec 6 shares\nfuture words here\n");
	fake_record(&h, "mine", "housekeeping 0\nvnf a 5 owns\n");
	fake_record(&h, "Bad_Name", "vnf a 4 owns\n");
	fake_write(&h, "run/calvin/tactile-nc.state", "vnf x 3 owns\n");
	assert_int_equal(fake_read(&h, &t), 0);
	assert_int_equal(t.nr_holds, 2);
	assert_string_equal(t.holds[0].chain, "tactile-nc");
	assert_string_equal(t.holds[0].vnf, "enc");
	assert_int_equal(t.holds[0].cpu, 7);
	assert_int_equal(t.holds[0].kind, CALVIN_HOLD_OWNS);
	assert_true(t.holds[0].isolated);
	assert_int_equal(t.holds[1].cpu, 6);
	assert_int_equal(t.holds[1].kind, CALVIN_HOLD_SHARES);
	assert_false(t.holds[1].isolated);
}

static void test_record_lines(void **unused)
{
	struct calvin_cpumask hk;
	struct calvin_hold hold;

	assert_int_equal(calvin_plan_record_line("vnf enc 3 housekeeping\n", &hk, &hold), 1);
	assert_int_equal(hold.kind, CALVIN_HOLD_HOUSEKEEPING);
	assert_int_equal(calvin_plan_record_line("housekeeping 0,2\n", &hk, &hold), 0);
	assert_list(&hk, "0,2");
	assert_int_equal(calvin_plan_record_line("housekeeping x\n", &hk, &hold), -EINVAL);
	assert_int_equal(calvin_plan_record_line("vnf enc 1024 owns\n", &hk, &hold), -EINVAL);
	assert_int_equal(calvin_plan_record_line("vnf enc 1 grabs\n", &hk, &hold), -EINVAL);
	assert_int_equal(calvin_plan_record_line("vnf Enc 1 owns\n", &hk, &hold), -EINVAL);
	assert_int_equal(
	    calvin_plan_record_line("vnf abcdefghijklmnopqrstuvwxyz 1 owns\n", &hk, &hold),
	    -EINVAL);
	assert_int_equal(calvin_plan_record_line("# vnf a 1 owns\n", &hk, &hold), 0);
	assert_int_equal(calvin_plan_record_line("\n", &hk, &hold), 0);
	/* a degraded line is no hold: an older reader skips it */
	assert_int_equal(calvin_plan_record_line("degraded a dedicated shared x\n", &hk, &hold), 0);
}

static void test_record_degraded_lines(void **unused)
{
	struct calvin_degraded d;

	assert_int_equal(
	    calvin_plan_record_degraded("degraded fwd-u isolated shared-core no core left to "
					"dedicate; a later VNF shares its core\n",
					&d),
	    1);
	assert_string_equal(d.vnf, "fwd-u");
	assert_int_equal(d.asked, CALVIN_GRANT_ISOLATED);
	assert_int_equal(d.granted, CALVIN_GRANT_SHARED_CORE);
	assert_string_equal(d.why, "no core left to dedicate; a later VNF shares its core");
	assert_int_equal(calvin_plan_record_degraded("degraded a dedicated shared -\n", &d), 1);
	assert_string_equal(d.why, "");
	assert_int_equal(calvin_plan_record_degraded("vnf a 1 owns\n", &d), 0);
	assert_int_equal(calvin_plan_record_degraded("# degraded a x y\n", &d), 0);
	/* not a grant, not worse than asked, not a name, cut short */
	assert_int_equal(calvin_plan_record_degraded("degraded a best shared x\n", &d), -EINVAL);
	assert_int_equal(calvin_plan_record_degraded("degraded a shared dedicated x\n", &d),
			 -EINVAL);
	assert_int_equal(calvin_plan_record_degraded("degraded A dedicated shared x\n", &d),
			 -EINVAL);
	assert_int_equal(calvin_plan_record_degraded("degraded a dedicated\n", &d), -EINVAL);
}

/* This machine's own /sys and /proc: no crash, every online CPU found (on
 * the build machine, CPUs 0-1). */
static void test_real_host(void **unused)
{
	struct calvin_host_source src = {"/", NULL, NULL};
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	char err[256];

	assert_int_equal(calvin_host_read(&src, &t, err, sizeof(err)), 0);
	assert_true(n >= 1);
	assert_int_equal(calvin_cpumask_count(&t.online), (unsigned int)n);
	assert_true(calvin_cpumask_isset(&t.online, 0));
	if (n >= 2)
		assert_true(calvin_cpumask_isset(&t.online, 1));
	assert_false(calvin_cpumask_empty(&t.affinity));
	assert_false(calvin_cpumask_empty(&t.cpuset));
	assert_true(t.core[0] >= 0 && t.core[0] < CALVIN_MAX_CPUS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cpulist),
	    cmocka_unit_test_teardown(test_read_topology, fake_teardown),
	    cmocka_unit_test_teardown(test_read_errors, fake_teardown),
	    cmocka_unit_test_teardown(test_read_affinity_cgroup_v1, fake_teardown),
	    cmocka_unit_test_teardown(test_read_cgroup_v2, fake_teardown),
	    cmocka_unit_test_teardown(test_read_partitions_walk, fake_teardown),
	    cmocka_unit_test_teardown(test_read_holds, fake_teardown),
	    cmocka_unit_test(test_record_lines),
	    cmocka_unit_test(test_record_degraded_lines),
	    cmocka_unit_test(test_real_host),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
