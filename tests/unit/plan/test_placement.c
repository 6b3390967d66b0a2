// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of what `calvin status` reads back from /proc about a VNF,
 * and how it shows it. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "plan/plan.h"
#include "util/util.h"

/* A real line of this kernel's /proc/PID/stat (a SCHED_FIFO calvin-vnf on
 * CPU 1), its command name made awkward. */
static const char stat_line[] =
    "4242 (calvin-vnf (x) y) R 1 4241 4241 0 -1 4194560 5227 0 0 0 12000 3 0 0 -51 0 5 0 "
    "987654 171986944 17608 18446744073709551615 1 1 0 0 0 0 0 4096 1024 0 0 0 17 1 50 1 0 "
    "0 0 0 0 0 0 0 0 0 0\n";

static void test_procstat(void **unused)
{
	struct calvin_procstat st;

	assert_int_equal(calvin_procstat_parse(stat_line, &st), 0);
	assert_int_equal(st.state, 'R');
	assert_int_equal(st.flags, 4194560);
	assert_int_equal(st.start, 987654);
	assert_int_equal(st.last_cpu, 1);
	assert_int_equal(st.rt_priority, 50);
	assert_int_equal(st.policy, 1);
	assert_string_equal(calvin_sched_policy_name(st.policy), "fifo");
	assert_string_equal(calvin_sched_policy_name(0), "other");
	assert_string_equal(calvin_sched_policy_name(42), "?");
	/* cut short, or no command name */
	assert_int_equal(calvin_procstat_parse("4242 (x) R 1 2 3\n", &st), -EINVAL);
	assert_int_equal(calvin_procstat_parse("4242 x R 1", &st), -EINVAL);
	assert_int_equal(calvin_procstat_parse("4242 (x)", &st), -EINVAL);
}

static void test_procstatus(void **unused)
{
	static const char text[] = "Name:\tcalvin-vnf\nVmLck:\t   70312 kB\nThreads:\t4\n"
				   "Cpus_allowed:\t2\nCpus_allowed_list:\t1\nMems_allowed:\t1\n";
	struct calvin_cpumask m;
	unsigned long kb;

	assert_int_equal(calvin_procstatus_parse(text, &m, &kb), 0);
	assert_int_equal(kb, 70312);
	assert_true(calvin_cpumask_isset(&m, 1));
	assert_int_equal(calvin_cpumask_count(&m), 1);
	/* Cpus_allowed alone is not Cpus_allowed_list */
	assert_int_equal(calvin_procstatus_parse("Cpus_allowed:\t3\n", &m, &kb), -EINVAL);
	assert_int_equal(kb, 0);
}

static char *print(bool json, const struct calvin_vnf_placement *p)
{
	static char out[1024];
	struct json_object *o;
	FILE *f;

	if (json) {
		o = calvin_placement_jobj(p);
		assert_non_null(o);
		snprintf(out, sizeof(out), "%s",
			 json_object_to_json_string_ext(o, JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
		return out;
	}
	f = fmemopen(out, sizeof(out), "w");
	assert_non_null(f);
	calvin_placement_print(f, p);
	fclose(f);
	return out;
}

static void test_print(void **unused)
{
	struct calvin_vnf_placement p = { .name = "fwd-u",
					  .pid = 4242,
					  .last_cpu = 1,
					  .policy = 1,
					  .priority = 50,
					  .cpuset = "/calvin-isolated",
					  .locked_kb = 70312,
					  .isolated_by = "cgroup v1 cpusets, no load balancing" };

	calvin_cpumask_set(&p.allowed, 1);
	assert_string_equal(print(false, &p),
			    "  fwd-u        pid 4242  cpus 1  last ran on 1  fifo 50  cpuset "
			    "/calvin-isolated  isolated (cgroup v1 cpusets, no load balancing)  "
			    "locked 70312 kB\n");
	assert_string_equal(
	    print(true, &p),
	    "{\"name\":\"fwd-u\",\"pid\":4242,\"running\":true,\"cpus_allowed\":\"1\","
	    "\"last_cpu\":1,\"policy\":\"fifo\",\"priority\":50,\"cpuset\":"
	    "\"/calvin-isolated\",\"locked_kb\":70312,\"isolated\":true,"
	    "\"isolated_by\":\"cgroup v1 cpusets, no load balancing\"}");
	p.policy = 0;
	p.priority = 0;
	p.locked_kb = 0;
	p.isolated_by = NULL;
	calvin_cpumask_set(&p.allowed, 0);
	assert_string_equal(print(false, &p), "  fwd-u        pid 4242  cpus 0-1  last ran on 1  "
					      "other  cpuset /calvin-isolated  not isolated\n");
	/* a cgroup's name is whoever made it's: escaped, in text and JSON */
	snprintf(p.cpuset, sizeof(p.cpuset), "/evil\033]0;x\a\"}");
	assert_non_null(strstr(print(false, &p), "cpuset /evil\\x1b]0;x\\x07\"}  not"));
	assert_non_null(strstr(print(true, &p), "\"cpuset\":\"/evil\\\\x1b]0;x\\\\x07\\\"}\""));
	p.pid = 0;
	assert_string_equal(print(false, &p), "  fwd-u        not running\n");
	assert_string_equal(print(true, &p), "{\"name\":\"fwd-u\",\"pid\":0,\"running\":false}");
}

/* A VNF in a VM: its agent's view (guest pid, vCPUs), and libvirt's of
 * the vCPU on the host. */
static void test_print_vm(void **unused)
{
	struct calvin_vnf_placement p = { .name = "fwd-u",
					  .pid = 212,
					  .last_cpu = 1,
					  .isolated_by = "isolcpus in the VM",
					  .vm = "calvin-t.fwd-u",
					  .host_last_cpu = 3 };

	calvin_cpumask_set(&p.allowed, 1);
	calvin_cpumask_set(&p.host_allowed, 3);
	assert_string_equal(
	    print(false, &p),
	    "  fwd-u        pid 212 in VM calvin-t.fwd-u  vCPUs 1  last ran on vCPU 1  "
	    "other  isolated (isolcpus in the VM)  vCPU on host CPUs 3 (last 3)\n");
	assert_string_equal(print(true, &p),
			    "{\"name\":\"fwd-u\",\"pid\":212,\"running\":true,\"vm\":"
			    "\"calvin-t.fwd-u\",\"cpus_allowed\":\"1\",\"last_cpu\":1,\"policy\":"
			    "\"other\",\"priority\":0,\"locked_kb\":0,\"isolated\":true,"
			    "\"isolated_by\":\"isolcpus in the VM\",\"host_cpus\":\"3\","
			    "\"host_last_cpu\":3}");
	/* libvirt did not say where the vCPU runs */
	p.host_last_cpu = -1;
	p.isolated_by = NULL;
	assert_string_equal(print(false, &p),
			    "  fwd-u        pid 212 in VM calvin-t.fwd-u  vCPUs 1  "
			    "last ran on vCPU 1  other  not isolated\n");
	p.pid = 0;
	assert_string_equal(print(false, &p),
			    "  fwd-u        not running (in VM calvin-t.fwd-u)\n");
	p.exited = true;
	p.exit_status = 256;
	assert_string_equal(print(false, &p), "  fwd-u        not running (exited in VM "
					      "calvin-t.fwd-u, wait status 256)\n");
	assert_string_equal(print(true, &p), "{\"name\":\"fwd-u\",\"pid\":0,\"running\":false,"
					     "\"vm\":\"calvin-t.fwd-u\",\"exit_status\":256}");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_procstat),
		cmocka_unit_test(test_procstatus),
		cmocka_unit_test(test_print),
		cmocka_unit_test(test_print_vm),
	};

	return cmocka_run_group_tests_name("placement", tests, NULL, NULL);
}
