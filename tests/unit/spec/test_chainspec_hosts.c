// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of a chain across hosts: the hosts list, each node's host,
 * the ovn section, what runs where, and the file:line:col of each error a
 * user can make in them. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "spec/spec.h"

#define HEAD "name: c\nbudget: 1ms\nbackend: libvirt\n"
#define HOSTS                                                                                      \
	"hosts:\n"                                                                                 \
	"  - {name: a, uri: 'qemu+tcp://10.99.0.11/system', chassis: a}\n"                         \
	"  - {name: b, uri: 'qemu+ssh://root@edge-b/system', chassis: edge-b.example}\n"
#define OVN "ovn: {nb: 'tcp:10.99.0.2:6641'}\n"
#define VNFS                                                                                       \
	"vnfs:\n  - {name: fwd-k, kind: forward}\n"                                                \
	"  - {name: fwd-u, kind: forward, space: user, host: b}\n"

/* 32 VNFs: a 1040-byte telemetry block */
#define V(n) "  - {name: v" n ", kind: forward}\n"
#define VNFS16(x)                                                                                  \
	V("a" x) V("b" x) V("c" x) V("d" x) V("e" x) V("f" x) V("g" x) V("h" x) V("i" x) V("j" x) \
	V("k" x) V("l" x) V("m" x) V("n" x) V("o" x) V("p" x)

static int parse(const char *yaml, struct calvin_chain_spec *s, char *err, size_t len)
{
	return calvin_spec_parse(yaml, strlen(yaml), "dir/t.yaml", s, err, len);
}

static void test_single_host(void **state)
{
	struct calvin_chain_spec s;
	char err[CALVIN_ERR_MAX], where[256];

	assert_int_equal(parse("name: c\nbudget: 1ms\nvnfs:\n  - {name: f, kind: forward}\n", &s,
			       err, sizeof(err)),
			 0);
	assert_int_equal(s.nr_hosts, 0);
	assert_string_equal(s.vnfs[0].host, "local");
	assert_string_equal(s.server.host, "local");
	assert_false(calvin_spec_multihost(&s));
	assert_null(calvin_spec_host(&s, "local"));
	calvin_spec_where(&s, where, sizeof(where));
	assert_string_equal(where, "local: probe, f, server");
}

static void test_two_hosts(void **state)
{
	struct calvin_chain_spec s;
	char err[CALVIN_ERR_MAX], where[256];

	assert_int_equal(
	    parse(HEAD HOSTS OVN VNFS "server: {name: srv, host: b}\n", &s, err, sizeof(err)), 0);
	assert_int_equal(s.nr_hosts, 2);
	assert_string_equal(s.hosts[0].name, "a");
	assert_string_equal(s.hosts[0].uri, "qemu+tcp://10.99.0.11/system");
	assert_string_equal(s.hosts[1].chassis, "edge-b.example");
	assert_int_equal(s.hosts[1].pos.line, 6);
	assert_int_equal(s.hosts[1].pos.col, 12);
	assert_string_equal(s.ovn.nb, "tcp:10.99.0.2:6641");
	assert_int_equal(s.ovn.underlay_mtu, 1500);
	assert_int_equal(calvin_link_mtu(&s), 1442);
	assert_int_equal(s.ovn.pos.line, 7);
	assert_string_equal(s.vnfs[0].host, "local");
	assert_string_equal(s.vnfs[1].host, "b");
	assert_string_equal(s.server.host, "b");
	assert_true(calvin_spec_multihost(&s));
	assert_ptr_equal(calvin_spec_host(&s, "b"), &s.hosts[1]);
	calvin_spec_where(&s, where, sizeof(where));
	assert_string_equal(where, "local: probe, fwd-k; a (chassis a, "
				   "qemu+tcp://10.99.0.11/system): no node; b (chassis "
				   "edge-b.example, qemu+ssh://root@edge-b/system): fwd-u, srv");
	/* cut short, never past the buffer */
	calvin_spec_where(&s, where, 20);
	assert_string_equal(where, "local: probe, fwd-k");
}

static void test_ovn_remotes(void **state)
{
	static const char *const ok[] = { "tcp:10.99.0.2:6641", "ssl:192.0.2.1:6641",
					  "tcp:[fd00::2]:6641", "unix:/var/run/ovn/ovnnb_db.sock" };
	static const struct {
		const char *remote, *why;
	} refused[] = {
		{ "tcp:central:6641", "not a host name" },
		{ "tcp:10.99.0.2", "no IP:PORT" },
		{ "tcp:10.99.0.2:", "no port" },
		{ "tcp:10.99.0.2:0", "no port" },
		{ "tcp:10.99.0.2:65536", "no port" },
		{ "tcp:10.99.0.2:+6641", "no port" },
		{ "tcp:fd00::2:6641", "IPv6 one in brackets" },
		{ "tcp:10.99.0.2:6641,tcp:10.99.0.3:6641", "several remotes" },
		{ "ptcp:6641", "not a remote calvin takes" },
		{ "unix:ovnnb_db.sock", "absolute path" },
		{ "unix:/run/../etc/x", "without '..'" },
		{ "punix:/tmp/x", "not a remote calvin takes" },
	};
	char why[256];
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (calvin_ovn_remote_check(ok[i], why, sizeof(why)))
			fail_msg("%s refused: %s", ok[i], why);
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		why[0] = '\0';
		if (calvin_ovn_remote_check(refused[i].remote, why, sizeof(why)) != -EINVAL)
			fail_msg("%s allowed", refused[i].remote);
		if (!strstr(why, refused[i].why))
			fail_msg("%s: '%s' does not say '%s'", refused[i].remote, why,
				 refused[i].why);
	}
}

static void test_ssl(void **state)
{
	struct calvin_chain_spec s;
	char err[CALVIN_ERR_MAX];

	assert_int_equal(parse(HEAD HOSTS
			       "ovn:\n  nb: ssl:10.0.0.2:6641\n  private-key: /etc/k.pem\n"
			       "  certificate: /etc/c.pem\n  ca-cert: /etc/ca.pem\n" VNFS,
			       &s, err, sizeof(err)),
			 0);
	assert_string_equal(s.ovn.private_key, "/etc/k.pem");
	assert_string_equal(s.ovn.ca_cert, "/etc/ca.pem");
}

struct bad_case {
	const char *yaml;
	const char *error; /* the whole line */
};

static const struct bad_case bad_cases[] = {
	{ HEAD "hosts:\n  - {name: b, uri: 'qemu+tcp://h/system', chassis: b}\n" VNFS,
	  "dir/t.yaml:4:1: hosts needs an ovn section: links between hosts are OVN logical "
	  "switches; add 'ovn: {nb: tcp:IP:6641}'" },
	{ HEAD OVN "vnfs:\n  - {name: f, kind: forward}\n",
	  "dir/t.yaml:4:1: the ovn section applies to chains with hosts only; add hosts: or "
	  "remove the section" },
	{ HEAD HOSTS OVN "vnfs:\n  - {name: f, kind: forward, host: c}\n",
	  "dir/t.yaml:9:36: unknown host 'c' for kernel VNF 'f'; list it under hosts: or "
	  "use one of: local, a, b" },
	{ HEAD HOSTS OVN "vnfs:\n  - {name: f, kind: forward}\nserver: {host: z}\n",
	  "dir/t.yaml:10:16: unknown host 'z' for server 'server'; list it under hosts: or "
	  "use one of: local, a, b" },
	{ HEAD "hosts:\n  - {name: b, uri: 'qemu+tcp://h/system', chassis: b}\n"
	       "  - {name: b, uri: 'qemu+tcp://i/system', chassis: c}\n" OVN VNFS,
	  "dir/t.yaml:6:12: host 'b' is listed twice (first at line 5); give each host its "
	  "own name" },
	{ HEAD "hosts:\n  - {name: b, uri: 'qemu+tcp://h/system', chassis: b}\n"
	       "  - {name: c, uri: 'qemu+tcp://h/system', chassis: c}\n" OVN VNFS,
	  "dir/t.yaml:6:20: uri qemu+tcp://h/system is host 'b''s already; list each host "
	  "once" },
	{ HEAD "hosts:\n  - {name: b, uri: 'qemu+tcp://h/system', chassis: b}\n"
	       "  - {name: c, uri: 'qemu+tcp://i/system', chassis: b}\n" OVN VNFS,
	  "dir/t.yaml:6:52: chassis 'b' is host 'b''s already; each host is a chassis of its own" },
	{ HEAD "hosts:\n  - {name: local, uri: 'qemu+tcp://h/system', chassis: b}\n" OVN VNFS,
	  "dir/t.yaml:5:12: host name 'local' is reserved for the host calvin runs on, "
	  "which is never listed; choose another name" },
	{ HEAD "hosts:\n  - {name: b, uri: 'qemu:///system', chassis: b}\n" OVN VNFS,
	  "dir/t.yaml:5:20: uri qemu:///system is this host's own libvirt; a listed host is"
	  " another one: write qemu+ssh:// or qemu+tls://HOST/system" },
	/* the attacks of issue 13, through a host's uri */
	{ HEAD
	  "hosts:\n  - {name: b, uri: 'qemu+ext:///system?command=/tmp/x', chassis: b}\n" OVN VNFS,
	  "dir/t.yaml:5:20: uri transport ext runs a program the URI names, as root; use "
	  "qemu:///system, qemu:///session, or qemu+ssh://, qemu+tls:// or "
	  "qemu+tcp://HOST/system" },
	{ HEAD
	  "hosts:\n  - {name: b, uri: 'qemu+ssh://h/system?netcat=/tmp/nc', chassis: b}\n" OVN VNFS,
	  "dir/t.yaml:5:20: uri parameter netcat names a program libvirt would run; remove "
	  "it (calvin allows no_tty and mode only)" },
	{ HEAD
	  "hosts:\n  - {name: b, uri: 'qemu+ssh://-oProxyCommand=x/system', chassis: b}\n" OVN VNFS,
	  "dir/t.yaml:5:20: uri needs a host name or address after '//' (e.g. "
	  "qemu+ssh://edge1/system)" },
	{ HEAD "hosts:\n  - {name: b, uri: 'qemu+tcp://h/system', chassis: '-x'}\n" OVN VNFS,
	  "dir/t.yaml:5:52: chassis '-x' is not an OVN chassis name; write the host's "
	  "system-id (letters, digits, '.', '_', ':', '-', at most 64)" },
	{ HEAD "hosts:\n  - {name: b, chassis: b}\n" OVN VNFS,
	  "dir/t.yaml:5:5: missing required key 'uri' in host 1; add its libvirt URI, e.g. 'uri: "
	  "qemu+ssh://edge-b/system'" },
	{ HEAD "hosts:\n  - {name: b, uri: 'qemu+tcp://h/system', chassis: b, cpus: 2}\n" OVN VNFS,
	  "dir/t.yaml:5:55: unknown key 'cpus' in host 1; valid keys: name, uri, chassis" },
	{ HEAD "hosts: []\n" OVN VNFS,
	  "dir/t.yaml:4:8: hosts must be a list of 1 to 8 hosts; write one '- {name: NAME, uri: "
	  "URI, chassis: NAME}' item per host" },
	{ HEAD "hosts:\n  - b\n" OVN VNFS,
	  "dir/t.yaml:5:5: host 1 must be a mapping; write '- {name: NAME, uri: URI, chassis: "
	  "NAME}'" },
	/* on another host every node is a VM */
	{ "name: c\nbudget: 1ms\n" HOSTS OVN VNFS,
	  "dir/t.yaml:9:53: user VNF 'fwd-u' is on host 'b', and on another host every node"
	  " runs in a VM; set 'backend: libvirt' or put it on host local" },
	{ "name: c\nbudget: 1ms\n" HOSTS OVN "vnfs:\n  - {name: f, kind: acl, host: a}\n",
	  "dir/t.yaml:8:32: kernel VNF 'f' is on host 'a', and on another host every node "
	  "runs in a VM; set 'backend: libvirt' or put it on host local" },
	{ "name: c\nbudget: 1ms\n" HOSTS OVN
	  "vnfs:\n  - {name: f, kind: forward}\nserver: {host: a}\n",
	  "dir/t.yaml:9:16: server 'server' is on host 'a', and on another host every node "
	  "runs in a VM; set 'backend: libvirt' or put it on host local" },
	{ HEAD HOSTS OVN
	  "vnfs:\n  - {name: f, kind: forward, node: n}\n  - {name: g, kind: acl, node: n, host: "
	  "a}\n",
	  "dir/t.yaml:10:41: VNFs 'f' and 'g' share node 'n' but not its host; put both on "
	  "one host" },
	{ HEAD HOSTS "ovn: {nb: 'tcp:central:6641'}\n" VNFS,
	  "dir/t.yaml:7:11: nb tcp:central:6641 has no IP address before its port; write an IPv4 "
	  "address or an IPv6 one in brackets, not a host name" },
	{ HEAD HOSTS "ovn:\n" VNFS,
	  "dir/t.yaml:7:1: the ovn section needs nb, the northbound database; add 'nb: "
	  "tcp:IP:6641'" },
	{ HEAD HOSTS "ovn: {}\n" VNFS,
	  "dir/t.yaml:7:6: missing required key 'nb' in ovn; add the northbound database, e.g. "
	  "'nb: tcp:192.0.2.1:6641'" },
	{ HEAD HOSTS "ovn: {nb: 'tcp:10.0.0.2:6641', ca-cert: /etc/ca.pem}\n" VNFS,
	  "dir/t.yaml:7:32: ca-cert applies to an ssl: database only; remove it" },
	{ HEAD HOSTS "ovn: {nb: 'ssl:10.0.0.2:6641', ca-cert: /etc/ca.pem}\n" VNFS,
	  "dir/t.yaml:7:11: an ssl: database needs private-key, certificate and ca-cert; add "
	  "private-key: /PATH" },
	{ HEAD HOSTS
	  "ovn: {nb: 'ssl:10.0.0.2:6641', private-key: k.pem, certificate: /c, ca-cert: /a}\n" VNFS,
	  "dir/t.yaml:7:45: private-key 'k.pem' is not an absolute path; write the file's "
	  "whole path" },
	{ HEAD HOSTS OVN "vnfs:\n  - {name: f, kind: forward, host: B}\n",
	  "dir/t.yaml:9:36: host 'B' is not a valid name; use lower-case letters, digits "
	  "and '-', starting with a letter" },
};

static void test_bad(void **state)
{
	struct calvin_chain_spec s;
	char err[CALVIN_ERR_MAX];
	size_t i;

	for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		err[0] = '\0';
		if (parse(bad_cases[i].yaml, &s, err, sizeof(err)) != -EINVAL)
			fail_msg("case %zu parsed", i);
		if (strcmp(err, bad_cases[i].error))
			fail_msg("case %zu:\n got  %s\n want %s", i, err, bad_cases[i].error);
	}
}

/* Moving a node to another host is no live update. */
static void test_diff(void **state)
{
	struct calvin_chain_spec *a = test_malloc(sizeof(*a)), *b = test_malloc(sizeof(*b));
	struct calvin_spec_diff d;
	char err[CALVIN_ERR_MAX];

	assert_int_equal(parse(HEAD HOSTS OVN VNFS, a, err, sizeof(err)), 0);
	assert_int_equal(parse(HEAD HOSTS OVN VNFS, b, err, sizeof(err)), 0);
	calvin_spec_diff(a, b, &d);
	assert_string_equal(d.refused, "");
	strcpy(b->vnfs[1].host, "a");
	calvin_spec_diff(a, b, &d);
	assert_string_equal(d.refused, "host of VNF fwd-u (deployed: b, file: a)");
	strcpy(b->vnfs[1].host, "b");
	strcpy(b->hosts[0].uri, "qemu+tcp://10.99.0.13/system");
	calvin_spec_diff(a, b, &d);
	assert_string_equal(d.refused,
			    "hosts or ovn section (where the chain's nodes and links are)");
	test_free(a);
	test_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_host), cmocka_unit_test(test_two_hosts),
		cmocka_unit_test(test_ovn_remotes), cmocka_unit_test(test_ssl),
		cmocka_unit_test(test_bad),	    cmocka_unit_test(test_diff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
