// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of planning a chain across hosts: each host's VNFs on that
 * host's CPUs (read from libvirt capabilities), the cores other chains'
 * domains pin there (their domain XML), admission per host, no isolation
 * on another host, and how the plan, its record and its JSON name hosts. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <json-c/json.h>

#include "plan/plan.h"

static struct calvin_topology local, ta, tb;
static const struct calvin_topology *all[1 + CALVIN_MAX_HOSTS];
static struct calvin_chain_spec s;
static struct calvin_plan p;
static char err[CALVIN_ERR_MAX], why[256];

/* A host of n CPUs (one NUMA node, no SMT) as its libvirt describes it. */
static void caps_host(struct calvin_topology *t, unsigned int n)
{
	char xml[4096];
	size_t len;
	unsigned int c;

	len = (size_t)snprintf(xml, sizeof(xml),
			       "<capabilities><host><topology><cells num='1'>"
			       "<cell id='0'><cpus num='%u'>",
			       n);
	for (c = 0; c < n; c++)
		len += (size_t)snprintf(xml + len, sizeof(xml) - len,
					"<cpu id='%u' siblings='%u'/>", c, c);
	snprintf(xml + len, sizeof(xml) - len,
		 "</cpus></cell></cells></topology></host>"
		 "</capabilities>");
	assert_int_equal(calvin_topology_from_caps(xml, t, why, sizeof(why)), 0);
	assert_true(t->remote);
}

/* A domain's XML as libvirt gives it, pinned as calvin pins a VM. */
static const char *domain(const char *name, int hk, int vnf)
{
	static char xml[1024];

	snprintf(xml, sizeof(xml),
		 "<domain type='qemu' id='3'>\n  <name>%s</name>\n  <uuid>u</uuid>\n"
		 "  <vcpu placement='static'>2</vcpu>\n  <cputune>\n"
		 "    <vcpupin vcpu='0' cpuset='%d'/>\n    <vcpupin vcpu='1' cpuset='%d'/>\n"
		 "    <emulatorpin cpuset='%d'/>\n  </cputune>\n</domain>\n",
		 name, hk, vnf, hk);
	return xml;
}

/* The two-host chain: v0 (kernel) in a VM on host a, v1 (user) on b. */
static void chain(enum calvin_placement pl, bool share)
{
	memset(&s, 0, sizeof(s));
	strcpy(s.name, "mine");
	strcpy(s.path, "mine.yaml");
	strcpy(s.server.name, "server");
	strcpy(s.server.host, CALVIN_LOCAL_HOST);
	s.backend = CALVIN_BACKEND_LIBVIRT;
	s.placement = pl;
	s.allow_sharing = share;
	s.nr_hosts = 2;
	strcpy(s.hosts[0].name, "a");
	strcpy(s.hosts[0].uri, "qemu+tcp://10.99.0.11/system");
	strcpy(s.hosts[1].name, "b");
	strcpy(s.hosts[1].uri, "qemu+tcp://10.99.0.12/system");
	s.nr_vnfs = 2;
	strcpy(s.vnfs[0].name, "v0");
	s.vnfs[0].space = CALVIN_KERNEL;
	strcpy(s.vnfs[0].host, "a");
	strcpy(s.vnfs[1].name, "v1");
	s.vnfs[1].space = CALVIN_USER;
	strcpy(s.vnfs[1].host, "b");
	calvin_topology_init(&local, 2);
	caps_host(&ta, 2);
	caps_host(&tb, 2);
	memset(all, 0, sizeof(all));
	all[0] = &local;
	all[1] = &ta;
	all[2] = &tb;
}

static int plan(void)
{
	err[0] = '\0';
	return calvin_plan_make_hosts(&s, all, NULL, &p, err, sizeof(err));
}

static void assert_list(const struct calvin_cpumask *set, const char *want)
{
	char buf[256];

	assert_string_equal(calvin_cpumask_list(set, buf, sizeof(buf)), want);
}

/* Each VM on a core of its own host; CPU 1 on a and CPU 1 on b are two
 * cores, not one shared. */
static void test_each_host_its_cpus(void **unused)
{
	chain(CALVIN_PLACE_PINNED, false);
	assert_int_equal(calvin_plan_host_of(&s, 0), 1);
	assert_int_equal(calvin_plan_host_of(&s, 1), 2);
	assert_int_equal(plan(), 0);
	assert_int_equal(p.vnf[0].cpu, 1);
	assert_int_equal(p.vnf[0].host, 1);
	assert_true(p.vnf[0].owns);
	assert_int_equal(p.vnf[1].cpu, 1);
	assert_int_equal(p.vnf[1].host, 2);
	assert_true(p.vnf[1].owns);
	assert_int_equal(p.nr_degraded, 0);
	assert_list(&p.remote_housekeeping[0], "0");
	assert_list(&p.remote_housekeeping[1], "0");
	/* no VNF here: all of this host is housekeeping */
	assert_list(&p.housekeeping, "0-1");
	/* a one-host chain plans as before: host 0 */
	s.nr_hosts = 0;
	s.vnfs[0].host[0] = s.vnfs[1].host[0] = '\0';
	assert_int_equal(calvin_plan_make(&s, &local, NULL, &p, err, sizeof(err)), -ENOSPC);
	s.allow_sharing = true;
	assert_int_equal(calvin_plan_make(&s, &local, NULL, &p, err, sizeof(err)), 0);
	assert_int_equal(p.vnf[0].host, 0);
	assert_int_equal(p.vnf[0].cpu, 1);
	assert_int_equal(p.vnf[1].cpu, 1);
	assert_false(p.vnf[1].owns);
}

/* What calvin domains on a host hold, from their XML. */
static void test_domain_holds(void **unused)
{
	struct calvin_topology t;
	const struct calvin_hold *h;

	caps_host(&t, 4);
	/* vCPU 1's CPU for its VNF, vCPU 0's and the emulator's (one CPU)
	 * for housekeeping */
	assert_int_equal(calvin_holds_from_domain(domain("calvin-other.fwd", 0, 3), "mine", &t, why,
						  sizeof(why)),
			 2);
	h = &t.holds[0];
	assert_string_equal(h->chain, "other");
	assert_string_equal(h->vnf, "fwd");
	assert_int_equal(h->cpu, 0);
	assert_int_equal(h->kind, CALVIN_HOLD_HOUSEKEEPING);
	assert_int_equal(t.holds[1].cpu, 3);
	assert_int_equal(t.holds[1].kind, CALVIN_HOLD_OWNS);
	/* a second chain's VM on CPU 3: both share it */
	assert_int_equal(
	    calvin_holds_from_domain(domain("calvin-third.x", 0, 3), NULL, &t, why, sizeof(why)),
	    2);
	assert_int_equal(t.holds[1].kind, CALVIN_HOLD_SHARES);
	assert_int_equal(t.holds[3].kind, CALVIN_HOLD_SHARES);
	/* the chain's own domains, other domains and names that are not
	 * calvin-CHAIN.NODE hold nothing */
	assert_int_equal(
	    calvin_holds_from_domain(domain("calvin-mine.v1", 0, 2), "mine", &t, why, sizeof(why)),
	    0);
	assert_int_equal(
	    calvin_holds_from_domain(domain("webserver", 0, 2), "mine", &t, why, sizeof(why)), 0);
	assert_int_equal(
	    calvin_holds_from_domain(domain("calvin-nodot", 0, 2), "mine", &t, why, sizeof(why)),
	    0);
	/* unpinned */
	assert_int_equal(calvin_holds_from_domain("<domain><name>calvin-o.f</name></domain>",
						  "mine", &t, why, sizeof(why)),
			 0);
	assert_int_equal(t.nr_holds, 4);
	/* what does not parse is refused */
	assert_int_equal(calvin_holds_from_domain("<capabilities/>", NULL, &t, why, sizeof(why)),
			 -EINVAL);
	assert_string_equal(why, "not a domain's XML");
	assert_int_equal(
	    calvin_holds_from_domain("<domain><name>calvin-o.f</name><cputune><vcpupin "
				     "vcpu='1' cpuset='x'/></cputune></domain>",
				     NULL, &t, why, sizeof(why)),
	    -EINVAL);
	assert_string_equal(why, "domain calvin-o.f: a CPU pin without a CPU list");
	assert_int_equal(
	    calvin_holds_from_domain("<domain><name>calvin-o.f</name><cputune><vcpupin "
				     "cpuset='1'/></cputune></domain>",
				     NULL, &t, why, sizeof(why)),
	    -EINVAL);
	assert_int_equal(t.nr_holds, 4);
}

/* Two controllers planning one host at once: what was defined there
 * after the plan read it, against the core the plan chose. */
static void test_hold_collision(void **unused)
{
	static struct calvin_topology then, now;
	struct calvin_vnf_place owns = { .cpu = 3, .owns = true, .host = 1 },
				shares = { .cpu = 3, .owns = false, .host = 1 },
				unpinned = { .cpu = -1, .owns = true, .host = 1 };
	const struct calvin_hold *h;

	caps_host(&then, 4);
	/* planned while another chain shared CPU 3 and kept house on 0 */
	assert_int_equal(calvin_holds_from_domain(domain("calvin-old.fwd", 0, 3), "mine", &then,
						  why, sizeof(why)),
			 2);
	now = then;
	/* nothing new: no collision, whatever the plan chose */
	assert_null(calvin_hold_collision(&then, &now, &owns));
	assert_null(calvin_hold_collision(&then, &now, &shares));
	/* a new VM keeping house on 3 collides only with a core v owns */
	assert_int_equal(calvin_holds_from_domain(domain("calvin-new.hk", 3, 2), "mine", &now, why,
						  sizeof(why)),
			 2);
	h = calvin_hold_collision(&then, &now, &owns);
	assert_non_null(h);
	assert_string_equal(h->chain, "new");
	assert_int_equal(h->cpu, 3);
	assert_null(calvin_hold_collision(&then, &now, &shares));
	/* a new VM owning CPU 3 collides with both */
	now = then;
	now.nr_holds = 1; /* old's housekeeping only: 3 was free when planned */
	then.nr_holds = 1;
	assert_int_equal(calvin_holds_from_domain(domain("calvin-new.fwd", 0, 3), "mine", &now,
						  why, sizeof(why)),
			 2);
	h = calvin_hold_collision(&then, &now, &shares);
	assert_non_null(h);
	assert_string_equal(h->vnf, "fwd");
	assert_int_equal(h->kind, CALVIN_HOLD_OWNS);
	assert_non_null(calvin_hold_collision(&then, &now, &owns));
	/* another CPU, or a VNF the plan did not pin: none */
	owns.cpu = 2;
	assert_null(calvin_hold_collision(&then, &now, &owns));
	assert_null(calvin_hold_collision(&then, &now, &unpinned));
}

/* Another chain's VM holds b's only free core: refused in one line naming
 * the host, without sharing; with it, v1 takes b's housekeeping core, never
 * the other chain's VNF core. */
static void test_held_on_remote_host(void **unused)
{
	chain(CALVIN_PLACE_PINNED, false);
	assert_int_equal(calvin_holds_from_domain(domain("calvin-other.fwd", 0, 1), "mine", &tb,
						  why, sizeof(why)),
			 2);
	assert_int_equal(plan(), -ENOSPC);
	assert_string_equal(err, "host b: placement pinned needs 1 dedicated core; 2 online, 0 "
				 "isolated, 2 held by chain other, 1 for housekeeping; set "
				 "'allow-sharing: true' or 'placement: shared'");
	assert_null(strchr(err, '\n'));
	s.allow_sharing = true;
	assert_int_equal(plan(), 0);
	assert_int_equal(p.vnf[1].cpu, 0);
	assert_int_equal(p.vnf[1].granted, CALVIN_GRANT_SHARED);
	assert_int_equal(p.nr_degraded, 1);
	/* host a is not b: its VM keeps its own core */
	assert_int_equal(p.vnf[0].cpu, 1);
	assert_true(p.vnf[0].owns);
	/* on a bigger b, v1 gets a core nobody holds */
	caps_host(&tb, 4);
	calvin_holds_from_domain(domain("calvin-other.fwd", 0, 3), "mine", &tb, why, sizeof(why));
	s.allow_sharing = false;
	assert_int_equal(plan(), 0);
	assert_int_equal(p.vnf[1].cpu, 2);
	assert_true(p.vnf[1].owns);
	assert_list(&p.remote_housekeeping[1], "0-1");
}

/* calvin isolates nothing on another host. */
static void test_no_isolation_remote(void **unused)
{
	chain(CALVIN_PLACE_ISOLATED, false);
	caps_host(&tb, 4);
	assert_int_equal(plan(), -ENOSPC);
	assert_non_null(strstr(err, "host a: placement isolated needs 1 isolated core"));
	assert_non_null(strstr(err, "or 'placement: pinned' (calvin cannot isolate CPUs on "
				    "another host)"));
	s.allow_sharing = true;
	assert_int_equal(plan(), 0);
	assert_int_equal(p.vnf[1].granted, CALVIN_GRANT_DEDICATED);
	assert_int_equal(p.vnf[1].isolation, CALVIN_ISOL_NONE);
	assert_string_equal(p.vnf[1].why, "calvin cannot isolate CPUs on another host");
	assert_true(calvin_cpumask_empty(&p.isolate));
}

/* A host whose CPUs were not read: its VNFs are not pinned, and say why. */
static void test_unread_host(void **unused)
{
	chain(CALVIN_PLACE_PINNED, false);
	all[2] = NULL;
	assert_int_equal(plan(), 0);
	assert_int_equal(p.vnf[1].cpu, -1);
	assert_int_equal(p.vnf[1].host, 2);
	assert_int_equal(p.vnf[1].granted, CALVIN_GRANT_SHARED);
	assert_string_equal(p.vnf[1].why, "its host's CPUs were not read");
	assert_int_equal(p.nr_degraded, 1);
	assert_true(calvin_cpumask_empty(&p.remote_housekeeping[1]));
}

static char *text(void (*fn)(FILE *f))
{
	static char *buf;
	size_t len;
	FILE *f;

	free(buf);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	fn(f);
	fclose(f);
	return buf;
}

static void print_plan(FILE *f)
{
	calvin_plan_print_text(f, &s, &local, &p);
	calvin_plan_print_remote_text(f, &s, all, &p);
}

static void write_record(FILE *f)
{
	calvin_plan_record_write(f, &s, &p);
}

/* The plan says where each VNF runs and what is not done there; this
 * host's record holds none of another host's CPUs. */
static void test_print(void **unused)
{
	struct json_object *o, *v;
	const char *out;

	chain(CALVIN_PLACE_PINNED, false);
	caps_host(&ta, 4);
	calvin_holds_from_domain(domain("calvin-other.fwd", 0, 3), "mine", &ta, why, sizeof(why));
	assert_int_equal(plan(), 0);
	out = text(print_plan);
	assert_non_null(strstr(out, "  v0               kernel cpu 2 on host a, owns it, not "
				    "isolated, wait busy\n"));
	assert_non_null(strstr(out, "  v1               user   cpu 1 on host b, owns it,"));
	assert_non_null(strstr(out, "  cpu 1 on host b (v1): busy"));
	assert_non_null(strstr(out, "host a (qemu+tcp://10.99.0.11/system), read through its "
				    "libvirt:\n  online 0-3;"));
	assert_non_null(strstr(out, "  other chains: other/fwd cpu 0 (housekeeping), other/fwd "
				    "cpu 3 (owns)\n"));
	assert_non_null(strstr(out, "  housekeeping there (vCPU 0 and emulator threads of its "
				    "VMs): cpu 0-1\n"));
	assert_non_null(strstr(out, "  not done there: calvin cannot isolate CPUs there"));
	out = text(write_record);
	assert_null(strstr(out, "\nvnf "));
	o = calvin_plan_jobj(&s, &local, &p);
	assert_true(json_object_object_get_ex(o, "vnfs", &v));
	assert_string_equal(
	    json_object_get_string(json_object_object_get(json_object_array_get_idx(v, 1), "host")),
	    "b");
	json_object_put(o);
	o = calvin_plan_remote_jobj(&s, all, &p);
	assert_int_equal(json_object_array_length(o), 2);
	v = json_object_array_get_idx(o, 0);
	assert_string_equal(json_object_get_string(json_object_object_get(v, "name")), "a");
	assert_string_equal(json_object_to_json_string(json_object_object_get(v, "housekeeping")),
			    "[ 0, 1 ]");
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_host_its_cpus),
		cmocka_unit_test(test_domain_holds),
		cmocka_unit_test(test_held_on_remote_host),
		cmocka_unit_test(test_hold_collision),
		cmocka_unit_test(test_no_isolation_remote),
		cmocka_unit_test(test_unread_host),
		cmocka_unit_test(test_print),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
