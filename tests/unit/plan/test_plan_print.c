// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of how a plan is shown (`calvin plan`, text and JSON) and
 * written as a plan record, on fake hosts. */
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
static char *out;

static void chain(unsigned int n, unsigned int user_mask, enum calvin_placement pl)
{
	fake_chain(&s, n, user_mask, pl, true);
}

/* Plan on the fake host and print it with fn into out. */
static void show(void (*fn)(FILE *, const struct calvin_chain_spec *,
			    const struct calvin_topology *, const struct calvin_plan *))
{
	char err[256];
	size_t len;
	FILE *f;

	assert_int_equal(fake_read(&h, &t), 0);
	assert_int_equal(calvin_plan_make(&s, &t, NULL, &p, err, sizeof(err)), 0);
	free(out);
	f = open_memstream(&out, &len);
	assert_non_null(f);
	fn(f, &s, &t, &p);
	fclose(f);
}

static void assert_has(const char *want)
{
	if (!strstr(out, want))
		fail_msg("missing \"%s\" in:\n%s", want, out);
}

static void assert_lacks(const char *unwanted)
{
	if (strstr(out, unwanted))
		fail_msg("unexpected \"%s\" in:\n%s", unwanted, out);
}

/* 8 CPUs, isolcpus=2, SMT pairs, another chain on CPU 6. */
static void host_8(void)
{
	fake_host(&h, 8);
	fake_smt_pairs(&h, 8);
	fake_write(&h, "sys/devices/system/cpu/isolated", "2\n");
	fake_record(&h, "other", "housekeeping 0\nvnf enc 5 owns\n");
	chain(3, 0x5, CALVIN_PLACE_ISOLATED);
}

static void test_text(void **unused)
{
	host_8();
	show(calvin_plan_print_text);
	assert_has("chain mine: placement isolated, allow-sharing; 1 VNF degraded\n"
		   "mode latency: kernel VNFs in XDP, endpoints checksum in software\n"
		   "mtu 1500: the endpoints' links; 1600 between VNFs\n");
	assert_has("  v0               user   cpu 2, owns it, isolated now, wait busy\n");
	assert_has("  v1               kernel no core: the softirq of the CPU that delivers its "
		   "packets (XDP)\n");
	assert_has("  v2               user   cpu 7, owns it, not isolated, wait busy\n"
		   "                          degraded from isolated to dedicated: no isolated "
		   "core left (isolated: 2)\n");
	assert_has("cores:\n  cpu 2 (v0): busy: one VNF owns it and polls without pause\n"
		   "  cpu 7 (v2): busy: ");
	assert_has("housekeeping (probe, controller, emulator threads): cpu 0-1,3-4; IRQs stay "
		   "where they are (only isolation at run time moves them)\n");
	assert_has("  online 0-7, isolcpus 2, isolated partitions none, nohz_full none\n");
	assert_has("  SMT siblings: 0,4 1,5 2,6 3,7; NUMA: unknown\n");
	assert_has("  calvin's affinity 0-7, cpuset 0-7 (no cpuset cgroup); VNFs may use 0-7\n");
	assert_has("  other chains: other/enc cpu 5 (owns)\n");
	/* on a host with no isolcpus, the cores to isolate at run time */
	fake_write(&h, "sys/devices/system/cpu/isolated", "\n");
	show(calvin_plan_print_text);
	assert_has("  v0               user   cpu 7, owns it, to isolate at run time, wait busy\n");
	assert_has("housekeeping (probe, controller, emulator threads, IRQs): cpu 0-1,4\n");
	assert_has("to isolate at run time: cpu 6-7 (calvin up isolates it once the VNFs run)\n");
}

static void test_text_sharing(void **unused)
{
	fake_host(&h, 2);
	chain(3, 0x7, CALVIN_PLACE_PINNED);
	show(calvin_plan_print_text);
	assert_has("  v0               user   cpu 1, shares it with VNFs v1, v2, not isolated, "
		   "wait loop\n");
	/* the planner's choice per core, and why */
	assert_has("cores:\n  cpu 1 (v0, v1, v2): shared loop: VNFs and nothing else of calvin's;"
		   " one process polls them all in turn at real-time priority, no switch between"
		   " them (shared-core: loop)\n");
	s.shared_core = CALVIN_SHARED_YIELD;
	show(calvin_plan_print_text);
	assert_has("  v0               user   cpu 1, shares it with VNFs v1, v2, not isolated, "
		   "wait yield\n");
	assert_has("cores:\n  cpu 1 (v0, v1, v2): shared: VNFs and nothing else of calvin's; a "
		   "process each, taking turns polling at real-time priority, each yielding the "
		   "core on an empty poll\n");
	fake_free(&h);
	fake_host(&h, 1);
	chain(1, 0x1, CALVIN_PLACE_PINNED);
	show(calvin_plan_print_text);
	assert_has("  v0               user   cpu 0, shares it with housekeeping, not isolated, "
		   "wait wakeup\n");
	chain(2, 0x3, CALVIN_PLACE_PINNED);
	show(calvin_plan_print_text);
	assert_has("  v1               user   cpu 0, shares it with housekeeping and VNF v0, not "
		   "isolated, wait wakeup\n");
	assert_has("cores:\n  cpu 0 (v0, v1): wake-up: the VNFs share it with other work "
		   "(housekeeping), so they sleep until a frame wakes them\n");
	chain(1, 0x1, CALVIN_PLACE_SHARED);
	show(calvin_plan_print_text);
	assert_has("  v0               user   not pinned (placement shared), wait wakeup\n");
	assert_lacks("cores:");
	assert_has("cpu 0 (nothing is pinned: placement shared); IRQs stay where");
}

static void test_json(void **unused)
{
	host_8();
	show(calvin_plan_print_json);
	assert_has("{\"chain\":\"mine\",\"placement\":\"isolated\",\"allow_sharing\":true,"
		   "\"mode\":\"latency\",\"mtu\":1500,\"degraded\":1,\"vnfs\":[");
	assert_has("{\"name\":\"v0\",\"space\":\"user\",\"cpu\":2,\"owns\":true,"
		   "\"isolation\":\"now\",\"wait\":\"busy\",\"asked\":\"isolated\","
		   "\"granted\":\"isolated\",\"degraded\":false,\"why\":\"\",\"host\":\"local\"}");
	assert_has("{\"name\":\"v1\",\"space\":\"kernel\",\"cpu\":null,\"owns\":false,"
		   "\"isolation\":\"none\",\"wait\":\"none\",\"asked\":\"softirq\"");
	assert_has("\"granted\":\"dedicated\",\"degraded\":true,\"why\":\"no isolated core left "
		   "(isolated: 2)\",\"host\":\"local\"}");
	assert_has("\"housekeeping\":[0,1,3,4],\"isolate_at_run_time\":[],");
	assert_has("\"isolcpus\":[2],");
	assert_has("\"smt\":[{\"cpus\":[0,4]},{\"cpus\":[1,5]},{\"cpus\":[2,6]},{\"cpus\":[3,7]}]");
	assert_has("\"held\":[{\"chain\":\"other\",\"vnf\":\"enc\",\"cpu\":5,\"kind\":\"owns\","
		   "\"isolated\":false}],\"unread\":\"\"}}\n");
}

/* The plan of s on the fake host, as `calvin up` records it, in path. */
static void record(char *path, size_t len)
{
	FILE *f;

	show(calvin_plan_print_text);
	snprintf(path, len, "%s/deployed.plan", h.run_dir);
	f = fopen(path, "w");
	assert_non_null(f);
	calvin_plan_record_write(f, &s, &p);
	fclose(f);
}

/* What `calvin up` writes is what the reader of another chain reads. */
static void test_record_roundtrip(void **unused)
{
	char path[PATH_MAX], line[256];
	struct calvin_cpumask hk;
	unsigned int i;
	FILE *f;

	host_8();
	record(path, sizeof(path));
	assert_int_equal(calvin_plan_record_housekeeping(path, &hk), 0);
	assert_true(calvin_cpumask_equal(&hk, &p.housekeeping));
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line, "policy isolated\n");
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line, "housekeeping 0-1,3-4\n");
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line, "isolate\n");
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line, "vnf v0 2 owns isolated\n");
	fclose(f);
	assert_int_equal(fake_read(&h, &t), 0);
	assert_int_equal(t.nr_holds, 3);
	/* records are read in directory order */
	i = strcmp(t.holds[0].chain, "deployed") ? 1 : 0;
	assert_string_equal(t.holds[i].chain, "deployed");
	assert_string_equal(t.holds[i].vnf, "v0");
	assert_int_equal(t.holds[i].cpu, 2);
	assert_true(t.holds[i].isolated);
	assert_string_equal(t.holds[i + 1].vnf, "v2");
	assert_int_equal(t.holds[i + 1].cpu, 7);
	assert_int_equal(t.holds[i + 1].kind, CALVIN_HOLD_OWNS);
	assert_false(t.holds[i + 1].isolated);
	snprintf(path, sizeof(path), "%s/none.plan", h.run_dir);
	assert_int_equal(calvin_plan_record_places(path, &s, &p), -ENOENT);
	assert_int_equal(calvin_plan_record_housekeeping(path, &hk), -ENOENT);
	assert_int_equal(calvin_plan_record_degraded_read(path, NULL, 0), -ENOENT);
}

/* How each VNF waits is in the record: the supervisor and status find a
 * loop's process by it, whatever a plan made later would say. */
static void test_record_places(void **unused)
{
	static struct calvin_plan back;
	char path[PATH_MAX];
	unsigned int i;

	fake_host(&h, 2);
	chain(3, 0x7, CALVIN_PLACE_PINNED);
	record(path, sizeof(path));
	memset(&back, 0, sizeof(back));
	assert_int_equal(calvin_plan_record_places(path, &s, &back), 0);
	for (i = 0; i < 3; i++) {
		assert_int_equal(back.vnf[i].cpu, 1);
		assert_int_equal(back.vnf[i].wait, CALVIN_PLAN_WAIT_LOOP);
		assert_int_equal(calvin_plan_loop_leader(&back, i), 0);
	}
	/* a process each: every VNF its own leader (the record of the first
	 * plan goes first: the planner reads it as another chain's) */
	unlink(path);
	s.shared_core = CALVIN_SHARED_YIELD;
	record(path, sizeof(path));
	memset(&back, 0, sizeof(back));
	assert_int_equal(calvin_plan_record_places(path, &s, &back), 0);
	for (i = 0; i < 3; i++) {
		assert_int_equal(back.vnf[i].wait, CALVIN_PLAN_WAIT_YIELD);
		assert_int_equal(calvin_plan_loop_leader(&back, i), i);
	}
}

/* What the plan degraded is in the record, for the reports to say. */
static void test_record_degraded(void **unused)
{
	struct calvin_degraded d[CALVIN_MAX_VNFS];
	char path[PATH_MAX], line[256];

	host_8();
	record(path, sizeof(path));
	assert_int_equal(calvin_plan_record_degraded_read(path, d, CALVIN_MAX_VNFS), 1);
	assert_string_equal(d[0].vnf, "v2");
	assert_int_equal(d[0].asked, CALVIN_GRANT_ISOLATED);
	assert_int_equal(d[0].granted, CALVIN_GRANT_DEDICATED);
	assert_string_equal(d[0].why, "no isolated core left (isolated: 2)");
	calvin_degraded_text(&d[0], line, sizeof(line));
	assert_string_equal(line, "v2 asked isolated, got dedicated: no isolated core left "
				  "(isolated: 2)");
	/* nothing degraded: no line */
	chain(3, 0x5, CALVIN_PLACE_SHARED);
	record(path, sizeof(path));
	assert_int_equal(calvin_plan_record_degraded_read(path, d, CALVIN_MAX_VNFS), 0);
}

static int free_out(void **unused)
{
	free(out);
	out = NULL;
	return fake_teardown(unused);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_teardown(test_text, free_out),
	    cmocka_unit_test_teardown(test_text_sharing, free_out),
	    cmocka_unit_test_teardown(test_json, free_out),
	    cmocka_unit_test_teardown(test_record_roundtrip, free_out),
	    cmocka_unit_test_teardown(test_record_places, free_out),
	    cmocka_unit_test_teardown(test_record_degraded, free_out),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
