// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the isolation decisions: the host record's lines and what
 * they add up to, which CPUs to isolate, packet steering, realtime checks,
 * and which CPUs cgroup v1 leaves unbalanced. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "plan/plan.h"

static struct calvin_hostrec_entry e;

static void test_line_round_trip(void **unused)
{
	static const char *const lines[] = {
		"mode v1 /sys/fs/cgroup/cpuset\n",
		"chain tactile-fwd 1,3-4\n",
		"leave tactile-fwd\n",
		"mkdir /sys/fs/cgroup/cpuset/calvin-isolated\n",
		"file /proc/irq/24/smp_affinity_list 0-1\n",
		"file /some/file \n", /* a file that held nothing */
		"file /proc/irq/default_smp_affinity ff,ffffffff\n",
		"ctrl /sys/fs/cgroup cpuset\n",
		"moved /sys/fs/cgroup/cpuset /sys/fs/cgroup/cpuset/calvin-housekeeping\n",
		"found /sys/fs/cgroup/cpuset/calvin-isolated\n",
	};
	char buf[2048];
	size_t i;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		assert_int_equal(calvin_hostrec_parse(lines[i], &e), 0);
		assert_int_equal(calvin_hostrec_format(&e, buf, sizeof(buf)), 0);
		assert_string_equal(buf, lines[i]);
	}
	assert_int_equal(calvin_hostrec_parse("file /a/b some value\n", &e), 0);
	assert_int_equal(e.kind, HR_FILE);
	assert_string_equal(e.path, "/a/b");
	assert_string_equal(e.value, "some value");
}

static void test_line_bad(void **unused)
{
	static const char *const bad[] = {
		"",	    "\n",	"mode",	       "mode v1",     "chain c",
		"moved /a", "bogus /a", "leave a b",   "mkdir /a /b", "file",
		"ctrl /a ", "chain  1", "found /a /b",
	};
	char buf[64];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(calvin_hostrec_parse(bad[i], &e), -EINVAL);
	/* what could not be read back is not written */
	memset(&e, 0, sizeof(e));
	e.kind = HR_FILE;
	strcpy(e.path, "/a b");
	assert_int_equal(calvin_hostrec_format(&e, buf, sizeof(buf)), -EINVAL);
	strcpy(e.path, "/a");
	strcpy(e.value, "x\ny");
	assert_int_equal(calvin_hostrec_format(&e, buf, sizeof(buf)), -EINVAL);
	e.kind = HR_CHAIN;
	e.value[0] = '\0';
	assert_int_equal(calvin_hostrec_format(&e, buf, sizeof(buf)), -EINVAL);
	e.kind = HR_MKDIR;
	memset(e.path, 'a', sizeof(e.path) - 1);
	assert_int_equal(calvin_hostrec_format(&e, buf, sizeof(buf)), -ENAMETOOLONG);
}

static void add(struct calvin_hostrec *r, const char *line)
{
	assert_int_equal(calvin_hostrec_parse(line, &e), 0);
	assert_int_equal(calvin_hostrec_add(r, &e), 0);
}

static void test_record(void **unused)
{
	struct calvin_hostrec r = { 0 };
	struct calvin_cpumask cpus;
	const char *names[8], *root = NULL;
	int i;

	assert_int_equal(calvin_hostrec_mode(&r, &root), CALVIN_ISOLATE_NONE);
	add(&r, "mode v1 /cg/cpuset");
	add(&r, "chain a 1");
	add(&r, "file /proc/irq/1/smp_affinity_list 0-3");
	add(&r, "chain b 2-3");
	add(&r, "file /proc/irq/1/smp_affinity_list 0"); /* a later write: not the original */
	add(&r, "leave a");
	add(&r, "chain c 1");
	add(&r, "leave c");
	add(&r, "chain c 3"); /* joined again */
	assert_int_equal(calvin_hostrec_mode(&r, &root), CALVIN_ISOLATE_V1);
	assert_string_equal(root, "/cg/cpuset");
	assert_false(calvin_hostrec_has_chain(&r, "a", &cpus));
	assert_true(calvin_hostrec_has_chain(&r, "b", &cpus));
	assert_int_equal(calvin_cpumask_count(&cpus), 2);
	assert_true(calvin_hostrec_has_chain(&r, "c", &cpus));
	assert_true(calvin_cpumask_isset(&cpus, 3) && !calvin_cpumask_isset(&cpus, 1));
	assert_int_equal(calvin_hostrec_chains(&r, names, 8), 2);
	assert_string_equal(names[0], "b");
	assert_string_equal(names[1], "c");
	assert_int_equal(calvin_hostrec_chains(&r, names, 1), 1);
	assert_string_equal(calvin_hostrec_original(&r, "/proc/irq/1/smp_affinity_list"), "0-3");
	assert_null(calvin_hostrec_original(&r, "/proc/irq/2/smp_affinity_list"));
	assert_true(calvin_hostrec_has(&r, HR_CHAIN, "a", NULL));
	assert_true(calvin_hostrec_has(&r, HR_CHAIN, "a", "1"));
	assert_false(calvin_hostrec_has(&r, HR_CHAIN, "a", "2"));
	assert_false(calvin_hostrec_has(&r, HR_MKDIR, "a", NULL));
	/* the array grows past its first allocation */
	for (i = 0; i < 100; i++)
		add(&r, "mkdir /x");
	assert_int_equal(r.nr, 109);
	calvin_hostrec_free(&r);
	assert_int_equal(r.nr, 0);
	add(&r, "mode v2 /cg2");
	assert_int_equal(calvin_hostrec_mode(&r, NULL), CALVIN_ISOLATE_V2);
	calvin_hostrec_free(&r);
}

/* Which cgroups calvin made: the newest of a path's mkdir and found lines
 * says; a cgroup that was there before is never calvin's to remove. */
static void test_made(void **unused)
{
	struct calvin_hostrec r = { 0 };

	add(&r, "mkdir /cg/a");
	add(&r, "found /cg/b");
	add(&r, "mkdir /cg/c"); /* made by another between calvin's look and its mkdir */
	add(&r, "found /cg/c");
	add(&r, "found /cg/d"); /* found, gone, then made by calvin */
	add(&r, "mkdir /cg/d");
	assert_true(calvin_hostrec_made(&r, "/cg/a"));
	assert_false(calvin_hostrec_made(&r, "/cg/b"));
	assert_false(calvin_hostrec_made(&r, "/cg/c"));
	assert_true(calvin_hostrec_made(&r, "/cg/d"));
	assert_false(calvin_hostrec_made(&r, "/cg/e"));
	calvin_hostrec_free(&r);
}

static void test_targets(void **unused)
{
	struct calvin_cpumask online, a, b, iso, hk;
	const struct calvin_cpumask *sets[2] = { &a, &b };
	char buf[64];

	calvin_cpumask_parse_list("0-3", &online);
	calvin_cpumask_parse_list("1", &a);
	calvin_cpumask_parse_list("1,3,7", &b); /* 7 is not online */
	assert_int_equal(calvin_isolate_targets(sets, 2, &online, &iso, &hk), 0);
	assert_string_equal(calvin_cpumask_list(&iso, buf, sizeof(buf)), "1,3");
	assert_string_equal(calvin_cpumask_list(&hk, buf, sizeof(buf)), "0,2");
	/* two chains that share CPU 1 isolate it once */
	assert_int_equal(calvin_isolate_targets(sets, 1, &online, &iso, &hk), 0);
	assert_string_equal(calvin_cpumask_list(&iso, buf, sizeof(buf)), "1");
	assert_string_equal(calvin_cpumask_list(&hk, buf, sizeof(buf)), "0,2-3");
	/* nothing left for housekeeping */
	calvin_cpumask_parse_list("0-3", &a);
	assert_int_equal(calvin_isolate_targets(sets, 1, &online, &iso, &hk), -ENOSPC);
}

static void test_steer(void **unused)
{
	struct calvin_cpumask iso, hk, old, out;
	char buf[64];

	calvin_cpumask_parse_list("1", &iso);
	calvin_cpumask_parse_list("0", &hk);
	/* off stays off */
	calvin_cpumask_parse_list("", &old);
	assert_false(calvin_isolate_steer(&old, &iso, &hk, &out));
	/* housekeeping only: nothing to do */
	calvin_cpumask_parse_list("0", &old);
	assert_false(calvin_isolate_steer(&old, &iso, &hk, &out));
	/* both: the isolated CPU goes */
	calvin_cpumask_parse_list("0-1", &old);
	assert_true(calvin_isolate_steer(&old, &iso, &hk, &out));
	assert_string_equal(calvin_cpumask_list(&out, buf, sizeof(buf)), "0");
	/* only isolated CPUs: steered to housekeeping rather than turned off */
	calvin_cpumask_parse_list("1", &old);
	assert_true(calvin_isolate_steer(&old, &iso, &hk, &out));
	assert_string_equal(calvin_cpumask_list(&out, buf, sizeof(buf)), "0");
}

static void chain(struct calvin_chain_spec *s, enum calvin_sched sched, unsigned int user_mask)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	strcpy(s->path, "c.yaml");
	s->nr_vnfs = 3;
	s->realtime.sched = sched;
	s->realtime.sched_pos.line = 9;
	s->realtime.sched_pos.col = 10;
	for (i = 0; i < 3; i++) {
		snprintf(s->vnfs[i].name, sizeof(s->vnfs[i].name), "v%u", i);
		s->vnfs[i].space = user_mask >> i & 1 ? CALVIN_USER : CALVIN_KERNEL;
	}
}

static void test_realtime(void **unused)
{
	static struct calvin_chain_spec s;
	struct calvin_cpumask hk;
	char err[CALVIN_ERR_MAX];

	calvin_cpumask_parse_list("0", &hk);
	/* kernel VNF 0 has no CPU; user VNFs 1 and 2 on cores of their own */
	chain(&s, CALVIN_SCHED_FIFO, 0x6);
	assert_int_equal(calvin_realtime_check(&s, (int[]){ -1, 1, 2 }, &hk, err, sizeof(err)), 0);
	/* sharing a core */
	assert_int_equal(calvin_realtime_check(&s, (int[]){ -1, 1, 1 }, &hk, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "c.yaml:9:10: sched: fifo would starve one of user VNFs v1 and "
				 "v2, which share CPU 1; drop 'sched: fifo' or use a host with a "
				 "core per VNF");
	/* on the housekeeping core */
	assert_int_equal(calvin_realtime_check(&s, (int[]){ -1, 0, 1 }, &hk, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "would starve housekeeping: user VNF v1 shares CPU 0"));
	/* not pinned */
	assert_int_equal(calvin_realtime_check(&s, (int[]){ -1, 2, -1 }, &hk, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "c.yaml:9:10: sched: fifo needs user VNF v2 pinned"));
	/* SCHED_OTHER may share anything */
	chain(&s, CALVIN_SCHED_OTHER, 0x6);
	assert_int_equal(calvin_realtime_check(&s, (int[]){ -1, 0, 0 }, &hk, err, sizeof(err)), 0);
}

static void test_v1_unbalanced(void **unused)
{
	struct calvin_cpumask online, balanced, out;
	char buf[64];

	calvin_cpumask_parse_list("0-3", &online);
	calvin_cpumask_parse_list("0,2", &balanced);
	calvin_cpuset_v1_unbalanced(false, &balanced, &online, &out);
	assert_string_equal(calvin_cpumask_list(&out, buf, sizeof(buf)), "1,3");
	/* the root balancing makes one domain of everything */
	calvin_cpuset_v1_unbalanced(true, &balanced, &online, &out);
	assert_true(calvin_cpumask_empty(&out));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_round_trip), cmocka_unit_test(test_line_bad),
		cmocka_unit_test(test_record),		cmocka_unit_test(test_made),
		cmocka_unit_test(test_targets),		cmocka_unit_test(test_steer),
		cmocka_unit_test(test_realtime),	cmocka_unit_test(test_v1_unbalanced),
	};

	return cmocka_run_group_tests_name("isolation", tests, NULL, NULL);
}
