// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the placement planner, on fake hosts read by the host
 * reader: 1, 2, 8 and 64 CPUs; isolcpus, isolated partitions, nohz_full,
 * SMT, NUMA, other chains, restricted affinity and cpusets; every policy,
 * the failure messages and the degradation order. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "fake_host.h"

static struct calvin_topology t;
static struct calvin_chain_spec s;
static struct calvin_plan p;
static char err[CALVIN_ERR_MAX];

static void chain(unsigned int n, unsigned int user_mask, enum calvin_placement pl, bool share)
{
	fake_chain(&s, n, user_mask, pl, share);
}

/* Read the fake host, plan; returns what the planner returned. */
static int plan_on(const int *nic)
{
	assert_int_equal(fake_read(&h, &t), 0);
	return calvin_plan_make(&s, &t, nic, &p, err, sizeof(err));
}

static void assert_list(const struct calvin_cpumask *set, const char *want)
{
	char buf[256];

	assert_string_equal(calvin_cpumask_list(set, buf, sizeof(buf)), want);
}

static void assert_vnf(unsigned int i, int cpu, enum calvin_grant g, enum calvin_isolation iso,
		       enum calvin_plan_wait w)
{
	assert_int_equal(p.vnf[i].cpu, cpu);
	assert_int_equal(p.vnf[i].granted, g);
	assert_int_equal(p.vnf[i].isolation, iso);
	assert_int_equal(p.vnf[i].wait, w);
	assert_int_equal(p.vnf[i].owns, w == CALVIN_PLAN_WAIT_BUSY);
}

static void test_one_cpu(void **unused)
{
	fake_host(&h, 1);
	chain(1, 0x1, CALVIN_PLACE_PINNED, false);
	assert_int_equal(plan_on(NULL), -ENOSPC);
	assert_string_equal(err, "placement pinned needs 1 dedicated core; 1 online, 0 isolated, "
				 "1 for housekeeping; set 'allow-sharing: true' or 'placement: "
				 "shared'");
	/* sharing: the housekeeping core, waiting for packets */
	s.allow_sharing = true;
	assert_int_equal(plan_on(NULL), 0);
	assert_vnf(0, 0, CALVIN_GRANT_SHARED, CALVIN_ISOL_NONE, CALVIN_PLAN_WAIT_WAKEUP);
	assert_string_equal(p.vnf[0].why, "no core left to dedicate; no VNF core to share");
	assert_int_equal(p.nr_degraded, 1);
	assert_list(&p.housekeeping, "0");
}

/* This build machine: 2 CPUs, no isolcpus. */
static void test_two_cpus(void **unused)
{
	fake_host(&h, 2);
	/* isolated: CPU 1 to isolate at run time, CPU 0 for housekeeping */
	chain(2, 0x2, CALVIN_PLACE_ISOLATED, false);
	assert_int_equal(plan_on(NULL), 0);
	assert_vnf(0, -1, CALVIN_GRANT_SOFTIRQ, CALVIN_ISOL_NONE, CALVIN_PLAN_WAIT_NONE);
	assert_vnf(1, 1, CALVIN_GRANT_ISOLATED, CALVIN_ISOL_RUN_TIME, CALVIN_PLAN_WAIT_BUSY);
	assert_list(&p.isolate, "1");
	assert_list(&p.housekeeping, "0");
	assert_int_equal(p.nr_degraded, 0);
	/* pinned: the same core, not isolated */
	s.placement = CALVIN_PLACE_PINNED;
	assert_int_equal(plan_on(NULL), 0);
	assert_vnf(1, 1, CALVIN_GRANT_DEDICATED, CALVIN_ISOL_NONE, CALVIN_PLAN_WAIT_BUSY);
	assert_true(calvin_cpumask_empty(&p.isolate));
	/* two user VNFs: not without sharing */
	chain(2, 0x3, CALVIN_PLACE_PINNED, false);
	assert_int_equal(plan_on(NULL), -ENOSPC);
	assert_string_equal(err, "placement pinned needs 2 dedicated cores; 2 online, 0 isolated, "
				 "1 for housekeeping; set 'allow-sharing: true' or 'placement: "
				 "shared'");
	s.allow_sharing = true;
	assert_int_equal(plan_on(NULL), 0);
	/* two of the chain's VNFs on one core: one process polls both */
	assert_vnf(0, 1, CALVIN_GRANT_SHARED_CORE, CALVIN_ISOL_NONE, CALVIN_PLAN_WAIT_LOOP);
	assert_vnf(1, 1, CALVIN_GRANT_SHARED_CORE, CALVIN_ISOL_NONE, CALVIN_PLAN_WAIT_LOOP);
	assert_int_equal(calvin_plan_loop_leader(&p, 0), 0);
	assert_int_equal(calvin_plan_loop_leader(&p, 1), 0);
	assert_string_equal(p.vnf[0].why, "a later VNF shares its core");
	assert_string_equal(p.vnf[1].why, "no core left to dedicate");
	assert_list(&p.housekeeping, "0");
	/* shared-core: yield, a process each taking turns */
	s.shared_core = CALVIN_SHARED_YIELD;
	assert_int_equal(plan_on(NULL), 0);
	assert_vnf(0, 1, CALVIN_GRANT_SHARED_CORE, CALVIN_ISOL_NONE, CALVIN_PLAN_WAIT_YIELD);
	assert_vnf(1, 1, CALVIN_GRANT_SHARED_CORE, CALVIN_ISOL_NONE, CALVIN_PLAN_WAIT_YIELD);
	assert_int_equal(calvin_plan_loop_leader(&p, 1), 1);
}

/* 8 CPUs, isolcpus=2, two user VNFs: CPU 2 is used, not thrown away. */
static void test_isolcpus_fewer_than_vnfs(void **unused)
{
	fake_host(&h, 8);
	fake_write(&h, "sys/devices/system/cpu/isolated", "2\n");
	/* the kernel leaves isolcpus out of every task's default affinity */
	fake_write(&h, "proc/self/status", "Cpus_allowed_list:\t0-1,3-7\n");
	chain(2, 0x3, CALVIN_PLACE_ISOLATED, true);
	assert_int_equal(plan_on(NULL), 0);
	assert_vnf(0, 2, CALVIN_GRANT_ISOLATED, CALVIN_ISOL_NOW, CALVIN_PLAN_WAIT_BUSY);
	assert_vnf(1, 7, CALVIN_GRANT_DEDICATED, CALVIN_ISOL_NONE, CALVIN_PLAN_WAIT_BUSY);
	assert_string_equal(p.vnf[1].why, "no isolated core left (isolated: 2)");
	assert_int_equal(p.vnf[1].asked, CALVIN_GRANT_ISOLATED);
	assert_int_equal(p.nr_degraded, 1);
	/* isolcpus chosen at boot: calvin isolates nothing more */
	assert_true(calvin_cpumask_empty(&p.isolate));
	assert_list(&p.housekeeping, "0-1,3-6");
	s.allow_sharing = false;
	assert_int_equal(plan_on(NULL), -ENOSPC);
	assert_string_equal(err, "placement isolated needs 2 isolated cores; 8 online, 1 isolated, "
				 "1 for housekeeping; set 'allow-sharing: true' or 'placement: "
				 "shared', or isolate more CPUs (isolcpus= on the kernel command "
				 "line)");
}

/* isolated, then dedicated, then cores shared between VNFs, then shared
 * with housekeeping. */
static void test_degradation_order(void **unused)
{
	fake_host(&h, 3);
	fake_write(&h, "sys/devices/system/cpu/isolated", "2\n");
	chain(4, 0xf, CALVIN_PLACE_ISOLATED, true);
	assert_int_equal(plan_on(NULL), 0);
	/* v2 shares the non-isolated core first, v3 then the isolated one */
	assert_vnf(0, 2, CALVIN_GRANT_SHARED_CORE, CALVIN_ISOL_NOW, CALVIN_PLAN_WAIT_LOOP);
	assert_vnf(1, 1, CALVIN_GRANT_SHARED_CORE, CALVIN_ISOL_NONE, CALVIN_PLAN_WAIT_LOOP);
	assert_vnf(2, 1, CALVIN_GRANT_SHARED_CORE, CALVIN_ISOL_NONE, CALVIN_PLAN_WAIT_LOOP);
	assert_vnf(3, 2, CALVIN_GRANT_SHARED_CORE, CALVIN_ISOL_NOW, CALVIN_PLAN_WAIT_LOOP);
	/* a loop per core: v0 runs v3, v1 runs v2 */
	assert_int_equal(calvin_plan_loop_leader(&p, 3), 0);
	assert_int_equal(calvin_plan_loop_leader(&p, 2), 1);
	assert_string_equal(p.vnf[0].why, "a later VNF shares its core");
	assert_string_equal(p.vnf[1].why,
			    "no isolated core left (isolated: 2); a later VNF shares its core");
	assert_string_equal(p.vnf[2].why,
			    "no isolated core left (isolated: 2); no core left to dedicate");
	assert_int_equal(p.nr_degraded, 4);
	assert_list(&p.housekeeping, "0");
	/* three VNFs: the first keeps its isolated core */
	chain(3, 0x7, CALVIN_PLACE_ISOLATED, true);
	assert_int_equal(plan_on(NULL), 0);
	assert_vnf(0, 2, CALVIN_GRANT_ISOLATED, CALVIN_ISOL_NOW, CALVIN_PLAN_WAIT_BUSY);
	assert_vnf(1, 1, CALVIN_GRANT_SHARED_CORE, CALVIN_ISOL_NONE, CALVIN_PLAN_WAIT_LOOP);
	assert_vnf(2, 1, CALVIN_GRANT_SHARED_CORE, CALVIN_ISOL_NONE, CALVIN_PLAN_WAIT_LOOP);
	/* no core but housekeeping's: shared with housekeeping */
	fake_record(&h, "other", "housekeeping 0\nvnf x 1 owns\nvnf y 2 owns isolated\n");
	chain(1, 0x1, CALVIN_PLACE_ISOLATED, true);
	assert_int_equal(plan_on(NULL), 0);
	assert_vnf(0, 0, CALVIN_GRANT_SHARED, CALVIN_ISOL_NONE, CALVIN_PLAN_WAIT_WAKEUP);
	assert_string_equal(p.vnf[0].why, "no isolated core left (isolated: 2); no core left to "
					  "dedicate; no VNF core to share");
}

/* nohz_full: preferred for VNFs, never housekeeping. */
static void test_nohz_full(void **unused)
{
	fake_host(&h, 8);
	fake_write(&h, "sys/devices/system/cpu/nohz_full", "1-3\n");
	chain(2, 0x3, CALVIN_PLACE_PINNED, false);
	assert_int_equal(plan_on(NULL), 0);
	assert_vnf(0, 3, CALVIN_GRANT_DEDICATED, CALVIN_ISOL_NONE, CALVIN_PLAN_WAIT_BUSY);
	assert_vnf(1, 2, CALVIN_GRANT_DEDICATED, CALVIN_ISOL_NONE, CALVIN_PLAN_WAIT_BUSY);
	assert_list(&p.housekeeping, "0,4-7");
	/* isolated without isolcpus: nohz_full cores are isolated first */
	s.placement = CALVIN_PLACE_ISOLATED;
	assert_int_equal(plan_on(NULL), 0);
	assert_list(&p.isolate, "2-3");
	/* every CPU tickless: nowhere for housekeeping */
	fake_write(&h, "sys/devices/system/cpu/nohz_full", "0-7\n");
	assert_int_equal(plan_on(NULL), -ENODEV);
	assert_string_equal(err, "no CPU for housekeeping: of the 8 allowed (0-7), 8 are "
				 "nohz_full, 0 isolated, 0 other chains' VNF cores; allow calvin a "
				 "CPU that is none of these (taskset, cgroup cpuset)");
}

/* SMT pairs (c, c+4): an isolated VNF never has a busy sibling. */
static void test_smt(void **unused)
{
	fake_host(&h, 8);
	fake_smt_pairs(&h, 8);
	fake_write(&h, "sys/devices/system/cpu/isolated", "4-7\n");
	chain(3, 0x7, CALVIN_PLACE_ISOLATED, false);
	assert_int_equal(plan_on(NULL), 0);
	/* 4 is CPU 0's sibling (housekeeping) */
	assert_vnf(0, 7, CALVIN_GRANT_ISOLATED, CALVIN_ISOL_NOW, CALVIN_PLAN_WAIT_BUSY);
	assert_vnf(1, 6, CALVIN_GRANT_ISOLATED, CALVIN_ISOL_NOW, CALVIN_PLAN_WAIT_BUSY);
	assert_vnf(2, 5, CALVIN_GRANT_ISOLATED, CALVIN_ISOL_NOW, CALVIN_PLAN_WAIT_BUSY);
	/* the siblings of isolated VNF cores stay idle */
	assert_list(&p.housekeeping, "0");
	chain(4, 0xf, CALVIN_PLACE_ISOLATED, false);
	assert_int_equal(plan_on(NULL), -ENOSPC);
	assert_string_equal(err, "placement isolated needs 4 isolated cores; 8 online, 4 "
				 "isolated, 1 SMT sibling of busy cores, 1 for housekeeping; set "
				 "'allow-sharing: true' or 'placement: shared', or isolate more "
				 "CPUs (isolcpus= on the kernel command line)");
	/* pinned: whole cores first, away from housekeeping's */
	fake_write(&h, "sys/devices/system/cpu/isolated", "\n");
	chain(3, 0x7, CALVIN_PLACE_PINNED, false);
	assert_int_equal(plan_on(NULL), 0);
	assert_int_equal(p.vnf[0].cpu, 7);
	assert_int_equal(p.vnf[1].cpu, 6);
	assert_int_equal(p.vnf[2].cpu, 5);
}

/* cgroup v2 isolated partitions count as isolated now, before cores calvin
 * would isolate itself. */
static void test_partitions(void **unused)
{
	fake_host(&h, 8);
	fake_write(&h, "proc/self/mountinfo",
		   "30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n");
	fake_write(&h, "sys/fs/cgroup/cpuset.cpus.effective", "0-5\n");
	fake_write(&h, "sys/fs/cgroup/cpuset.cpus.isolated", "6-7\n");
	chain(3, 0x7, CALVIN_PLACE_ISOLATED, false);
	assert_int_equal(plan_on(NULL), 0);
	assert_vnf(0, 7, CALVIN_GRANT_ISOLATED, CALVIN_ISOL_NOW, CALVIN_PLAN_WAIT_BUSY);
	assert_vnf(1, 6, CALVIN_GRANT_ISOLATED, CALVIN_ISOL_NOW, CALVIN_PLAN_WAIT_BUSY);
	assert_vnf(2, 5, CALVIN_GRANT_ISOLATED, CALVIN_ISOL_RUN_TIME, CALVIN_PLAN_WAIT_BUSY);
	assert_list(&p.isolate, "5");
	assert_list(&p.housekeeping, "0-4");
}

/* Two NUMA nodes: the node of the NIC where known, else the node the chain
 * is on already. */
static void test_numa(void **unused)
{
	const int nic[2] = {1, 1};

	fake_host(&h, 8);
	fake_numa(&h, "0-3", "4-7");
	chain(2, 0x3, CALVIN_PLACE_PINNED, false);
	assert_int_equal(plan_on(NULL), 0);
	assert_int_equal(p.vnf[0].cpu, 3);
	assert_int_equal(p.vnf[1].cpu, 2);
	assert_int_equal(plan_on(nic), 0);
	assert_int_equal(p.vnf[0].cpu, 7);
	assert_int_equal(p.vnf[1].cpu, 6);
	/* isolated: only on the NIC's node */
	fake_write(&h, "sys/devices/system/cpu/isolated", "2,6\n");
	s.placement = CALVIN_PLACE_ISOLATED;
	assert_int_equal(plan_on(nic), -ENOSPC);
	assert_string_equal(err, "placement isolated needs 2 isolated cores; 8 online, 2 "
				 "isolated, none free on NUMA node 1 of v1's NIC, 1 for "
				 "housekeeping; set 'allow-sharing: true' or 'placement: shared', "
				 "or isolate more CPUs (isolcpus= on the kernel command line)");
	s.allow_sharing = true;
	assert_int_equal(plan_on(nic), 0);
	assert_vnf(0, 6, CALVIN_GRANT_ISOLATED, CALVIN_ISOL_NOW, CALVIN_PLAN_WAIT_BUSY);
	assert_vnf(1, 7, CALVIN_GRANT_DEDICATED, CALVIN_ISOL_NONE, CALVIN_PLAN_WAIT_BUSY);
	assert_string_equal(p.vnf[1].why, "no isolated core free on NUMA node 1 of its NIC");
}

/* Cores other deployed chains hold are not given again; the chain's own
 * record is not another chain's. */
static void test_other_chains(void **unused)
{
	fake_host(&h, 8);
	fake_record(&h, "tactile-nc", "housekeeping 0-5\nvnf enc 7 owns\nvnf dec 6 shares\n");
	fake_record(&h, "mine", "housekeeping 0\nvnf v0 5 owns\n");
	chain(2, 0x3, CALVIN_PLACE_PINNED, false);
	assert_int_equal(plan_on(NULL), 0);
	assert_int_equal(p.vnf[0].cpu, 5);
	assert_int_equal(p.vnf[1].cpu, 4);
	assert_list(&p.housekeeping, "0-3");
	fake_free(&h);
	fake_host(&h, 4);
	fake_record(&h, "tactile-nc", "housekeeping 0\nvnf enc 3 owns\n");
	chain(3, 0x7, CALVIN_PLACE_PINNED, false);
	assert_int_equal(plan_on(NULL), -ENOSPC);
	assert_string_equal(err, "placement pinned needs 3 dedicated cores; 4 online, 0 isolated, "
				 "1 held by chain tactile-nc, 1 for housekeeping; set "
				 "'allow-sharing: true' or 'placement: shared'");
	/* an isolated core of another chain keeps its SMT sibling free */
	fake_free(&h);
	fake_host(&h, 8);
	fake_smt_pairs(&h, 8);
	fake_record(&h, "other", "housekeeping 0\nvnf enc 7 owns isolated\n");
	chain(1, 0x1, CALVIN_PLACE_PINNED, false);
	assert_int_equal(plan_on(NULL), 0);
	assert_int_equal(p.vnf[0].cpu, 6);
	assert_false(calvin_cpumask_isset(&p.housekeeping, 3));
}

/* The controller's affinity and cpuset limit what it may pin; isolcpus
 * CPUs outside the affinity are still usable. */
static void test_restricted(void **unused)
{
	fake_host(&h, 8);
	fake_write(&h, "proc/self/status", "Cpus_allowed_list:\t0-3\n");
	chain(2, 0x3, CALVIN_PLACE_PINNED, false);
	assert_int_equal(plan_on(NULL), 0);
	assert_int_equal(p.vnf[0].cpu, 3);
	assert_int_equal(p.vnf[1].cpu, 2);
	assert_list(&p.housekeeping, "0-1");
	fake_write(&h, "proc/self/status", "Cpus_allowed_list:\t0-7\n");
	fake_write(&h, "proc/self/mountinfo",
		   "34 31 0:31 / /sys/fs/cgroup/cpuset rw - cgroup cgroup rw,cpuset\n");
	fake_write(&h, "proc/self/cgroup", "3:cpuset:/box\n");
	fake_write(&h, "sys/fs/cgroup/cpuset/box/cpuset.effective_cpus", "4-5\n");
	assert_int_equal(plan_on(NULL), -ENOSPC);
	assert_string_equal(err, "placement pinned needs 2 dedicated cores; 8 online, 2 allowed "
				 "(4-5), 0 isolated, 1 for housekeeping; set 'allow-sharing: true' "
				 "or 'placement: shared'");
	chain(1, 0x1, CALVIN_PLACE_PINNED, false);
	assert_int_equal(plan_on(NULL), 0);
	assert_int_equal(p.vnf[0].cpu, 5);
	assert_list(&p.housekeeping, "4");
}

/* shared: nothing pinned; the VNFs wait for packets. */
static void test_shared(void **unused)
{
	fake_host(&h, 8);
	chain(3, 0x5, CALVIN_PLACE_SHARED, false);
	assert_int_equal(plan_on(NULL), 0);
	assert_vnf(0, -1, CALVIN_GRANT_SHARED, CALVIN_ISOL_NONE, CALVIN_PLAN_WAIT_WAKEUP);
	assert_vnf(1, -1, CALVIN_GRANT_SOFTIRQ, CALVIN_ISOL_NONE, CALVIN_PLAN_WAIT_NONE);
	assert_int_equal(p.vnf[0].asked, CALVIN_GRANT_SHARED);
	assert_int_equal(p.nr_degraded, 0);
	assert_list(&p.housekeeping, "0-7");
}

/* 64 CPUs, two nodes, SMT pairs (c, c+32): every user VNF a whole core of
 * its own (31 of them: housekeeping has one), on housekeeping's node while
 * it has room. */
static void test_64_cpus(void **unused)
{
	unsigned int n = CALVIN_MAX_VNFS < 31 ? CALVIN_MAX_VNFS : 31, i, j;

	fake_host(&h, 64);
	fake_smt_pairs(&h, 64);
	fake_numa(&h, "0-15,32-47", "16-31,48-63");
	chain(n, ~0u, CALVIN_PLACE_ISOLATED, false);
	assert_int_equal(plan_on(NULL), 0);
	assert_int_equal(p.vnf[0].cpu, 47);
	for (i = 0; i < n; i++) {
		assert_int_equal(p.vnf[i].granted, CALVIN_GRANT_ISOLATED);
		assert_int_equal(p.vnf[i].isolation, CALVIN_ISOL_RUN_TIME);
		assert_int_not_equal(t.core[p.vnf[i].cpu], t.core[0]);
		for (j = 0; j < i; j++)
			assert_int_not_equal(t.core[p.vnf[i].cpu], t.core[p.vnf[j].cpu]);
		if (i < 15)
			assert_int_equal(t.node[p.vnf[i].cpu], 0);
	}
	assert_int_equal(calvin_cpumask_count(&p.isolate), n);
	/* housekeeping's core is whole; the siblings of VNF cores stay idle */
	assert_true(calvin_cpumask_isset(&p.housekeeping, 0));
	assert_true(calvin_cpumask_isset(&p.housekeeping, 32));
	assert_false(calvin_cpumask_isset(&p.housekeeping, 15));
	/* pinned: every VNF a core of its own, whole cores first */
	chain(CALVIN_MAX_VNFS, ~0u, CALVIN_PLACE_PINNED, false);
	assert_int_equal(plan_on(NULL), 0);
	for (i = 0; i < CALVIN_MAX_VNFS; i++) {
		assert_int_equal(p.vnf[i].granted, CALVIN_GRANT_DEDICATED);
		for (j = 0; j < i; j++)
			assert_int_not_equal(p.vnf[i].cpu, p.vnf[j].cpu);
	}
}

/* As many user VNFs as a chain may have, on this machine's 2 CPUs. */
static void test_max_vnfs_two_cpus(void **unused)
{
	unsigned int i;

	fake_host(&h, 2);
	chain(CALVIN_MAX_VNFS, ~0u, CALVIN_PLACE_PINNED, true);
	assert_int_equal(plan_on(NULL), 0);
	/* more than one loop may poll: a process each, taking turns */
	for (i = 0; i < CALVIN_MAX_VNFS; i++)
		assert_vnf(i, 1, CALVIN_GRANT_SHARED_CORE, CALVIN_ISOL_NONE,
			   CALVIN_PLAN_WAIT_YIELD);
	assert_int_equal(p.nr_degraded, CALVIN_MAX_VNFS);
}

/* This machine's real host: a plan for one pinned VNF. */
static void test_real_host_plan(void **unused)
{
	struct calvin_host_source src = {"/", NULL, "mine"};

	assert_int_equal(calvin_host_read(&src, &t, err, sizeof(err)), 0);
	chain(1, 0x1, CALVIN_PLACE_PINNED, true);
	assert_int_equal(calvin_plan_make(&s, &t, NULL, &p, err, sizeof(err)), 0);
	assert_true(p.vnf[0].cpu >= 0);
	assert_false(calvin_cpumask_empty(&p.housekeeping));
}

#define T(fn) cmocka_unit_test_teardown(fn, fake_teardown)

/* Under libvirt every VM takes a core, kernel VNFs' included; VNFs that
 * share a node share its VM's core. */
static void test_libvirt_vms(void **unused)
{
	fake_host(&h, 4);
	chain(3, 0x4, CALVIN_PLACE_PINNED, false); /* kernel, kernel, user */
	s.backend = CALVIN_BACKEND_LIBVIRT;
	strcpy(s.vnfs[1].node, "v0"); /* v1 runs in v0's VM */
	assert_int_equal(plan_on(NULL), 0);
	assert_vnf(0, 3, CALVIN_GRANT_DEDICATED, CALVIN_ISOL_NONE, CALVIN_PLAN_WAIT_BUSY);
	assert_int_equal(p.vnf[1].cpu, 3);
	assert_vnf(2, 2, CALVIN_GRANT_DEDICATED, CALVIN_ISOL_NONE, CALVIN_PLAN_WAIT_BUSY);
	assert_list(&p.housekeeping, "0-1");
	/* two VMs on a 2-CPU host: they share CPU 1 when allowed */
	fake_free(&h);
	fake_host(&h, 2);
	assert_int_equal(plan_on(NULL), -ENOSPC);
	assert_non_null(strstr(err, "needs 2 dedicated cores"));
	s.allow_sharing = true;
	assert_int_equal(plan_on(NULL), 0);
	assert_int_equal(p.vnf[0].cpu, 1);
	assert_int_equal(p.vnf[2].cpu, 1);
	assert_false(p.vnf[0].owns);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_one_cpu),
	    T(test_two_cpus),
	    T(test_isolcpus_fewer_than_vnfs),
	    T(test_degradation_order),
	    T(test_nohz_full),
	    T(test_smt),
	    T(test_partitions),
	    T(test_numa),
	    T(test_other_chains),
	    T(test_restricted),
	    T(test_shared),
	    T(test_64_cpus),
	    T(test_max_vnfs_two_cpus),
	    T(test_libvirt_vms),
	    cmocka_unit_test(test_real_host_plan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
