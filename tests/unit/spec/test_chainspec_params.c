// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the chain spec parser's VNF kinds: one good spec per kind
 * parsed into the expected values, the example chains, and the pure value
 * parsers (prefixes, ports, protocols, percentages, integers). */
#include <arpa/inet.h>
#include <errno.h>
#include <glob.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "spec/spec_priv.h" /* the parameter values too */

#define HEAD "name: c\nbudget: 1ms\nvnfs:\n" /* lines 1-3 */

static struct calvin_chain_spec s; /* 100 kB: not on the stack */

static int parse_as(const char *yaml, const char *path)
{
	char err[CALVIN_ERR_MAX];
	int ret;

	ret = calvin_spec_parse(yaml, strlen(yaml), path, &s, err, sizeof(err));
	if (ret)
		print_message("%s\n", err);
	return ret;
}

static int parse(const char *yaml)
{
	return parse_as(yaml, "t.yaml");
}

static void assert_prefix(const struct calvin_prefix *p, int family, int len, const char *addr)
{
	uint8_t want[16] = {0};

	assert_int_equal(p->family, family);
	assert_int_equal(p->len, len);
	if (family)
		assert_int_equal(inet_pton(family, addr, want), 1);
	assert_memory_equal(p->addr, want, sizeof(want));
}

static void assert_ports(const struct calvin_port_range *r, int lo, int hi)
{
	assert_int_equal(r->lo, lo);
	assert_int_equal(r->hi, hi);
}

static void test_acl(void **state)
{
	static const char yaml[] =
	    HEAD "  - name: fw\n"
		 "    kind: acl\n"
		 "    default: deny\n"
		 "    rules:\n"
		 "      - {action: allow, proto: udp, src: 10.70.0.0/24, dst: 10.70.0.2, "
		 "sport: 1000-2000, dport: 7357}\n"
		 "      - action: deny\n"
		 "        proto: 58\n"
		 "        src: 2001:db8::/32\n"
		 "        dst: ::1\n"
		 "      - {action: allow, proto: icmp, dst: any}\n"
		 "  - {name: open, kind: acl}\n";
	const struct calvin_acl_rule *r = s.vnfs[0].acl.rules;

	assert_int_equal(parse(yaml), 0);
	assert_int_equal(s.vnfs[0].kind, CALVIN_VNF_ACL);
	assert_int_equal(s.vnfs[0].space, CALVIN_KERNEL);
	assert_string_equal(s.vnfs[0].node, "fw");
	assert_int_equal(s.vnfs[0].acl.default_action, CALVIN_ACL_DENY);
	assert_int_equal(s.vnfs[0].acl.nr_rules, 3);
	assert_int_equal(r[0].action, CALVIN_ACL_ALLOW);
	assert_int_equal(r[0].proto, IPPROTO_UDP);
	assert_prefix(&r[0].src, AF_INET, 24, "10.70.0.0");
	assert_prefix(&r[0].dst, AF_INET, 32, "10.70.0.2");
	assert_ports(&r[0].sport, 1000, 2000);
	assert_ports(&r[0].dport, 7357, 7357);
	assert_int_equal(r[0].pos.line, 8);
	assert_int_equal(r[0].pos.col, 9);
	assert_int_equal(r[1].action, CALVIN_ACL_DENY);
	assert_int_equal(r[1].proto, IPPROTO_ICMPV6);
	assert_prefix(&r[1].src, AF_INET6, 32, "2001:db8::");
	assert_prefix(&r[1].dst, AF_INET6, 128, "::1");
	assert_ports(&r[1].sport, 0, 65535);
	assert_ports(&r[1].dport, 0, 65535);
	assert_int_equal(r[1].pos.line, 9);
	assert_int_equal(r[1].pos.col, 9);
	assert_int_equal(r[2].proto, IPPROTO_ICMP);
	assert_prefix(&r[2].src, 0, 0, NULL);
	assert_prefix(&r[2].dst, 0, 0, NULL);
	assert_int_equal(r[2].pos.line, 13);
	/* nothing is required: default allow and no rules forwards everything */
	assert_int_equal(s.vnfs[1].acl.default_action, CALVIN_ACL_ALLOW);
	assert_int_equal(s.vnfs[1].acl.nr_rules, 0);
}

static void test_router(void **state)
{
	static const char yaml[] = HEAD "  - name: rt\n"
					"    kind: router\n"
					"    space: kernel\n"
					"    routes:\n"
					"      - {prefix: 10.70.0.2/32, via: east}\n"
					"      - {prefix: 10.70.0.1, via: west}\n"
					"      - prefix: 2001:db8:1::/48\n"
					"        via: drop\n"
					"      - {prefix: any, via: east}\n";
	const struct calvin_route *r = s.vnfs[0].router.routes;

	assert_int_equal(parse(yaml), 0);
	assert_int_equal(s.vnfs[0].kind, CALVIN_VNF_ROUTER);
	assert_int_equal(s.vnfs[0].router.nr_routes, 4);
	assert_prefix(&r[0].prefix, AF_INET, 32, "10.70.0.2");
	assert_int_equal(r[0].via, CALVIN_VIA_EAST);
	assert_int_equal(r[0].pos.line, 8);
	assert_int_equal(r[0].pos.col, 9);
	assert_prefix(&r[1].prefix, AF_INET, 32, "10.70.0.1");
	assert_int_equal(r[1].via, CALVIN_VIA_WEST);
	assert_prefix(&r[2].prefix, AF_INET6, 48, "2001:db8:1::");
	assert_int_equal(r[2].via, CALVIN_VIA_DROP);
	assert_int_equal(r[2].pos.line, 10);
	assert_prefix(&r[3].prefix, 0, 0, NULL);
}

static void test_ratelimit(void **state)
{
	static const char yaml[] =
	    HEAD "  - {name: a, kind: ratelimit, pps: 20000}\n"
		 "  - {name: b, kind: ratelimit, bytes-per-second: 1000000, per: flow}\n"
		 "  - {name: c, kind: ratelimit, pps: 50, bytes-per-second: 1000}\n"
		 "  - {name: d, kind: ratelimit, pps: 1000, burst: 7, bytes-per-second: 0x100000,"
		 " burst-bytes: 9000}\n";
	const struct calvin_vnf_spec *v = s.vnfs;

	assert_int_equal(parse(yaml), 0);
	assert_int_equal(v[0].space, CALVIN_KERNEL);
	assert_int_equal(v[0].ratelimit.pps, 20000);
	assert_int_equal(v[0].ratelimit.burst_packets, 200);
	assert_int_equal(v[0].ratelimit.bytes_per_sec, 0);
	assert_int_equal(v[0].ratelimit.burst_bytes, 0);
	assert_int_equal(v[0].ratelimit.per, CALVIN_RL_PER_VNF);
	assert_int_equal(v[1].ratelimit.pps, 0);
	assert_int_equal(v[1].ratelimit.burst_packets, 0);
	assert_int_equal(v[1].ratelimit.bytes_per_sec, 1000000);
	assert_int_equal(v[1].ratelimit.burst_bytes, 10000);
	assert_int_equal(v[1].ratelimit.per, CALVIN_RL_PER_FLOW);
	/* small rates still get a bucket of one packet, one full frame */
	assert_int_equal(v[2].ratelimit.burst_packets, 1);
	assert_int_equal(v[2].ratelimit.burst_bytes, 1514);
	assert_int_equal(v[3].ratelimit.burst_packets, 7);
	assert_int_equal(v[3].ratelimit.bytes_per_sec, 1048576);
	assert_int_equal(v[3].ratelimit.burst_bytes, 9000);
}

static void test_impair(void **state)
{
	static const char yaml[] = HEAD
	    "  - {name: a, kind: impair, loss: 5%, duplicate: 0.5%}\n"
	    "  - {name: b, kind: impair, model: gilbert-elliott, p: 1%, r: 30%,\n"
	    "     loss-good: 0.0001%, loss-bad: 50%, seed: 0x10, direction: rev}\n"
	    "  - {name: c, kind: impair, model: uniform, loss: 100%, seed: 42, direction: fwd}\n"
	    "  - {name: d, kind: impair, duplicate: 0.00005%}\n";
	const struct calvin_impair_spec *a = &s.vnfs[0].impair, *b = &s.vnfs[1].impair;

	assert_int_equal(parse(yaml), 0);
	assert_int_equal(s.vnfs[0].space, CALVIN_KERNEL);
	assert_int_equal(a->model, CALVIN_LOSS_UNIFORM);
	assert_int_equal(a->loss_ppm, 50000);
	assert_int_equal(a->duplicate_ppm, 5000);
	assert_int_equal(a->ge_loss_good_ppm, 0);
	assert_int_equal(a->ge_loss_bad_ppm, 1000000);
	assert_int_equal(a->seed, 1);
	assert_int_equal(a->direction, CALVIN_DIRS_BOTH);
	assert_int_equal(b->model, CALVIN_LOSS_GILBERT_ELLIOTT);
	assert_int_equal(b->ge_p_ppm, 10000);
	assert_int_equal(b->ge_r_ppm, 300000);
	assert_int_equal(b->ge_loss_good_ppm, 1);
	assert_int_equal(b->ge_loss_bad_ppm, 500000);
	assert_int_equal(b->loss_ppm, 0);
	assert_int_equal(b->seed, 16);
	assert_int_equal(b->direction, CALVIN_DIRS_REV);
	assert_int_equal(s.vnfs[2].impair.loss_ppm, 1000000);
	assert_int_equal(s.vnfs[2].impair.seed, 42);
	assert_int_equal(s.vnfs[2].impair.direction, CALVIN_DIRS_FWD);
	assert_int_equal(s.vnfs[3].impair.duplicate_ppm, 1); /* rounded to the nearest */
}

static void test_nc(void **state)
{
	static const char yaml[] =
	    HEAD "  - {name: enc, kind: nc-encode, k: 64, r: 0}\n"
		 "  - {name: dec, kind: nc-decode, space: user, k: 64, r: 0, flush: 500us,\n"
		 "     burst: 32, pmd: af_packet, flush-early: false}\n"
		 "  - {name: e2, kind: nc-encode, direction: rev}\n"
		 "  - {name: d2, kind: nc-decode, direction: rev}\n";

	assert_int_equal(parse(yaml), 0);
	assert_int_equal(s.vnfs[0].kind, CALVIN_VNF_NC_ENCODE);
	assert_int_equal(s.vnfs[0].space, CALVIN_USER);
	assert_int_equal(s.vnfs[0].burst, 1);
	assert_int_equal(s.vnfs[0].pmd, CALVIN_PMD_AF_XDP);
	assert_int_equal(s.vnfs[0].nc.flush_ns, 1000000);
	assert_true(s.vnfs[0].nc.flush_early);
	assert_int_equal(s.vnfs[0].nc.direction, CALVIN_DIRS_BOTH);
	assert_int_equal(s.vnfs[1].kind, CALVIN_VNF_NC_DECODE);
	assert_int_equal(s.vnfs[1].nc.k, 64);
	assert_int_equal(s.vnfs[1].nc.r, 0);
	assert_int_equal(s.vnfs[1].nc.flush_ns, 500000);
	assert_false(s.vnfs[1].nc.flush_early);
	assert_int_equal(s.vnfs[1].burst, 32);
	assert_int_equal(s.vnfs[1].pmd, CALVIN_PMD_AF_PACKET);
	assert_int_equal(s.vnfs[2].nc.k, 4);
	assert_int_equal(s.vnfs[2].nc.r, 1);
	assert_int_equal(s.vnfs[3].nc.direction, CALVIN_DIRS_REV);
}

static void test_crypt(void **state)
{
	static const char yaml[] =
	    HEAD "  - {name: enc, kind: encrypt, key-file: k.key, spi-rev: 7}\n"
		 "  - {name: e2, kind: encrypt, key-file: /etc/calvin/k.key, spi: 0xffffffff,\n"
		 "     cipher: chacha20-poly1305, direction: fwd}\n"
		 "  - {name: d2, kind: decrypt, key-file: /etc/calvin/k.key, spi: 0xffffffff,\n"
		 "     cipher: chacha20-poly1305, replay-window: 32, direction: fwd}\n"
		 "  - {name: dec, kind: decrypt, key-file: k.key, spi-rev: 7}\n";
	const struct calvin_crypt_spec *e = &s.vnfs[0].crypt, *d = &s.vnfs[2].crypt;

	assert_int_equal(parse_as(yaml, "chains/sub/t.yaml"), 0);
	assert_int_equal(s.vnfs[0].space, CALVIN_USER);
	assert_int_equal(e->cipher, CALVIN_CIPHER_AES_256_GCM);
	assert_string_equal(e->key_file, "chains/sub/k.key");
	assert_int_equal(e->spi, 1);
	assert_int_equal(e->spi_rev, 7);
	assert_int_equal(e->direction, CALVIN_DIRS_BOTH);
	assert_int_equal(e->replay_window, 0);
	assert_int_equal(d->cipher, CALVIN_CIPHER_CHACHA20_POLY1305);
	assert_string_equal(d->key_file, "/etc/calvin/k.key");
	assert_int_equal(d->spi, 0xffffffffu);
	assert_int_equal(d->spi_rev, 1); /* the default wraps */
	assert_int_equal(d->direction, CALVIN_DIRS_FWD);
	assert_int_equal(d->replay_window, 32);
	assert_string_equal(s.vnfs[3].crypt.key_file, "chains/sub/k.key");
	assert_int_equal(s.vnfs[3].crypt.replay_window, 1024);
	/* where key-file's value is written: line, column, characters */
	assert_int_equal(s.vnfs[0].key_file_pos.line, 4);
	assert_int_equal(s.vnfs[0].key_file_pos.col, 42);
	assert_int_equal(s.vnfs[0].key_file_span.end - s.vnfs[0].key_file_span.start, 5);
	/* a spec path without a directory: relative to the current one */
	assert_int_equal(parse_as(yaml, "t.yaml"), 0);
	assert_string_equal(s.vnfs[0].crypt.key_file, "k.key");
	assert_int_equal(parse_as(yaml, "/t.yaml"), 0);
	assert_string_equal(s.vnfs[0].crypt.key_file, "/k.key");
	/* the default spi-rev is spi + 1 */
	assert_int_equal(parse(HEAD "  - {name: e, kind: encrypt, key-file: k, spi: 0x100}\n"
				    "  - {name: d, kind: decrypt, key-file: k, spi: 0x100}\n"),
			 0);
	assert_int_equal(s.vnfs[1].crypt.spi_rev, 0x101);
}

static void test_nodes(void **state)
{
	static const char yaml[] = HEAD "  - {name: fw, kind: acl, node: edge}\n"
					"  - {name: rt, kind: router, node: edge, routes: "
					"[{prefix: any, via: east}]}\n"
					"  - {name: k3, kind: forward, node: rt2}\n"
					"  - {name: rt2, kind: forward}\n"
					"  - {name: u, kind: forward, space: user}\n";

	assert_int_equal(parse(yaml), 0);
	assert_string_equal(s.vnfs[0].node, "edge");
	assert_string_equal(s.vnfs[1].node, "edge");
	/* a node may be named after a VNF that runs on it */
	assert_string_equal(s.vnfs[2].node, "rt2");
	assert_string_equal(s.vnfs[3].node, "rt2");
	assert_string_equal(s.vnfs[4].node, "u");
	assert_int_equal(s.vnfs[4].space, CALVIN_USER);
}

static void test_example_chains(void **state)
{
	char err[CALVIN_ERR_MAX], cwd[4200];
	glob_t g;
	size_t i;

	/* every chain file in the tree, including ones added later */
	assert_int_equal(glob("chains/*.yaml", 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 7);
	for (i = 0; i < g.gl_pathc; i++) {
		print_message("%s\n", g.gl_pathv[i]);
		assert_int_equal(calvin_spec_load(g.gl_pathv[i], &s, err, sizeof(err)), 0);
	}
	globfree(&g);
	assert_int_equal(calvin_spec_load("chains/tactile-acl.yaml", &s, err, sizeof(err)), 0);
	assert_int_equal(s.budget_ns, 350000);
	assert_int_equal(s.vnfs[0].acl.default_action, CALVIN_ACL_DENY);
	assert_int_equal(s.vnfs[0].acl.nr_rules, 5);
	assert_int_equal(s.vnfs[1].space, CALVIN_USER);
	assert_int_equal(calvin_spec_load("chains/tactile-router.yaml", &s, err, sizeof(err)), 0);
	assert_int_equal(s.vnfs[0].router.nr_routes, 3);
	assert_int_equal(calvin_spec_load("chains/tactile-ratelimit.yaml", &s, err, sizeof(err)),
			 0);
	assert_int_equal(s.vnfs[0].ratelimit.pps, 20000);
	assert_int_equal(calvin_spec_load("chains/tactile-nc.yaml", &s, err, sizeof(err)), 0);
	assert_int_equal(s.vnfs[0].nc.r, 2);
	assert_int_equal(s.vnfs[1].impair.loss_ppm, 50000);
	assert_int_equal(s.vnfs[1].impair.seed, 42);
	assert_int_equal(s.vnfs[1].impair.direction, CALVIN_DIRS_BOTH);
	assert_int_equal(s.vnfs[2].kind, CALVIN_VNF_NC_DECODE);
	assert_int_equal(s.vnfs[2].nc.direction, CALVIN_DIRS_BOTH);
	assert_int_equal(calvin_spec_load("chains/tactile-crypt.yaml", &s, err, sizeof(err)), 0);
	/* made absolute at load: a copy elsewhere names the same file */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	strcat(cwd, "/chains/tactile-crypt.key");
	assert_string_equal(s.vnfs[0].crypt.key_file, cwd);
	assert_int_equal(s.vnfs[1].crypt.spi, 0x100);
	assert_int_equal(s.vnfs[1].crypt.spi_rev, 0x101);
	assert_int_equal(s.vnfs[1].crypt.direction, CALVIN_DIRS_BOTH);
	assert_int_equal(calvin_spec_load("chains/tactile-multi.yaml", &s, err, sizeof(err)), 0);
	assert_string_equal(s.vnfs[0].node, "edge");
	assert_string_equal(s.vnfs[1].node, "edge");
	assert_string_equal(s.vnfs[2].node, "fwd-u");
}

static void test_parse_prefix(void **state)
{
	static const struct {
		const char *s;
		int ret;
		const char *str; /* calvin_prefix_str() of the result */
	} cases[] = {
	    {"any", 0, "any"},
	    {"10.70.0.0/24", 0, "10.70.0.0/24"},
	    {"10.70.0.2", 0, "10.70.0.2/32"},
	    {"0.0.0.0/0", 0, "0.0.0.0/0"},
	    {"10.70.0.0/31", 0, "10.70.0.0/31"},
	    {"2001:db8::/32", 0, "2001:db8::/32"},
	    {"::1", 0, "::1/128"},
	    {"::/0", 0, "::/0"},
	    {"10.70.0.1/24", -EDOM, "10.70.0.0/24"},
	    {"10.70.0.255/25", -EDOM, "10.70.0.128/25"},
	    {"2001:db8::1/32", -EDOM, "2001:db8::/32"},
	    {"10.70.0.0/33", -EINVAL, "any"},
	    {"::/129", -EINVAL, "any"},
	    {"10.70.0.0/", -EINVAL, "any"},
	    {"10.70.0.0/-1", -EINVAL, "any"},
	    {"10.70.0.0/0024", -EINVAL, "any"},
	    {"10.70.0/24", -EINVAL, "any"},
	    {"10.70.0.256", -EINVAL, "any"},
	    {"/24", -EINVAL, "any"},
	    {"", -EINVAL, "any"},
	    {"ANY", -EINVAL, "any"},
	    {"host", -EINVAL, "any"},
	    {"10.70.0.0/24 ", -EINVAL, "any"},
	};
	char buf[CALVIN_PREFIX_STR_MAX];
	struct calvin_prefix p;
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		print_message("%s\n", cases[i].s);
		assert_int_equal(calvin_parse_prefix(cases[i].s, &p), cases[i].ret);
		assert_string_equal(calvin_prefix_str(&p, buf, sizeof(buf)), cases[i].str);
	}
}

static void test_parse_small(void **state)
{
	struct calvin_port_range r = {1, 1};
	uint8_t proto = 99;
	uint32_t ppm = 7;
	uint64_t v = 7;

	assert_int_equal(calvin_parse_ports("80", &r), 0);
	assert_ports(&r, 80, 80);
	assert_int_equal(calvin_parse_ports("0-65535", &r), 0);
	assert_ports(&r, 0, 65535);
	assert_int_equal(calvin_parse_ports("5-5", &r), 0);
	assert_int_equal(calvin_parse_ports("2000-1000", &r), -EINVAL);
	assert_int_equal(calvin_parse_ports("65536", &r), -EINVAL);
	assert_int_equal(calvin_parse_ports("000080", &r), -EINVAL);
	assert_int_equal(calvin_parse_ports("80-", &r), -EINVAL);
	assert_int_equal(calvin_parse_ports("-80", &r), -EINVAL);
	assert_int_equal(calvin_parse_ports("", &r), -EINVAL);
	assert_int_equal(calvin_parse_ports("1-2-3", &r), -EINVAL);
	assert_ports(&r, 5, 5);
	assert_int_equal(calvin_parse_proto("any", &proto), 0);
	assert_int_equal(proto, 0);
	assert_int_equal(calvin_parse_proto("icmpv6", &proto), 0);
	assert_int_equal(proto, 58);
	assert_int_equal(calvin_parse_proto("255", &proto), 0);
	assert_int_equal(proto, 255);
	assert_int_equal(calvin_parse_proto("256", &proto), -EINVAL);
	assert_int_equal(calvin_parse_proto("TCP", &proto), -EINVAL);
	assert_int_equal(calvin_parse_proto("", &proto), -EINVAL);
	assert_int_equal(calvin_parse_ppm("5%", &ppm), 0);
	assert_int_equal(ppm, 50000);
	assert_int_equal(calvin_parse_ppm("0.5%", &ppm), 0);
	assert_int_equal(ppm, 5000);
	assert_int_equal(calvin_parse_ppm("100%", &ppm), 0);
	assert_int_equal(ppm, 1000000);
	assert_int_equal(calvin_parse_ppm("100.00004%", &ppm), 0);
	assert_int_equal(ppm, 1000000);
	assert_int_equal(calvin_parse_ppm("0%", &ppm), 0);
	assert_int_equal(ppm, 0);
	assert_int_equal(calvin_parse_ppm("100.0001%", &ppm), -ERANGE);
	assert_int_equal(calvin_parse_ppm("99999999999999999999%", &ppm), -ERANGE);
	assert_int_equal(calvin_parse_ppm("5", &ppm), -EINVAL);
	assert_int_equal(calvin_parse_ppm("5 %", &ppm), -EINVAL);
	assert_int_equal(calvin_parse_ppm(".5%", &ppm), -EINVAL);
	assert_int_equal(calvin_parse_ppm("-1%", &ppm), -EINVAL);
	assert_int_equal(calvin_parse_ppm("%", &ppm), -EINVAL);
	assert_int_equal(ppm, 0);
	assert_int_equal(calvin_parse_u64("18446744073709551615", &v), 0);
	assert_int_equal(v, UINT64_MAX);
	assert_int_equal(calvin_parse_u64("0xFFffFFff", &v), 0);
	assert_int_equal(v, 0xffffffffu);
	assert_int_equal(calvin_parse_u64("18446744073709551616", &v), -ERANGE);
	assert_int_equal(calvin_parse_u64("0x10000000000000000", &v), -ERANGE);
	assert_int_equal(calvin_parse_u64("184467440737095516160x", &v), -EINVAL);
	assert_int_equal(calvin_parse_u64("0x", &v), -EINVAL);
	assert_int_equal(calvin_parse_u64("0xg", &v), -EINVAL);
	assert_int_equal(calvin_parse_u64("12a", &v), -EINVAL);
	assert_int_equal(calvin_parse_u64("-1", &v), -EINVAL);
	assert_int_equal(calvin_parse_u64("", &v), -EINVAL);
	assert_int_equal(v, 0xffffffffu);
}

static void test_kind_words(void **state)
{
	static const char *const kinds[] = {"forward",	 "acl",	    "router",
					    "ratelimit", "impair",  "nc-encode",
					    "nc-decode", "encrypt", "decrypt"};
	unsigned int i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		assert_string_equal(calvin_vnf_kind_name((enum calvin_vnf_kind)i), kinds[i]);
		assert_int_equal(calvin_word_lookup(calvin_vnf_kind_words, kinds[i]), (int)i);
	}
	assert_null(calvin_vnf_kind_words[i]);
	assert_int_equal(calvin_kind_space(CALVIN_VNF_FORWARD), CALVIN_KERNEL);
	assert_int_equal(calvin_kind_space(CALVIN_VNF_IMPAIR), CALVIN_KERNEL);
	assert_int_equal(calvin_kind_space(CALVIN_VNF_NC_ENCODE), CALVIN_USER);
	assert_int_equal(calvin_kind_space(CALVIN_VNF_DECRYPT), CALVIN_USER);
	assert_true(calvin_kind_allows_space(CALVIN_VNF_FORWARD, CALVIN_USER));
	assert_false(calvin_kind_allows_space(CALVIN_VNF_ACL, CALVIN_USER));
	assert_false(calvin_kind_allows_space(CALVIN_VNF_ENCRYPT, CALVIN_KERNEL));
	assert_string_equal(calvin_acl_action_name(CALVIN_ACL_DENY), "deny");
	assert_string_equal(calvin_route_via_name(CALVIN_VIA_DROP), "drop");
	assert_string_equal(calvin_rl_scope_name(CALVIN_RL_PER_FLOW), "flow");
	assert_string_equal(calvin_loss_model_name(CALVIN_LOSS_GILBERT_ELLIOTT), "gilbert-elliott");
	assert_string_equal(calvin_direction_name(CALVIN_DIRS_REV), "rev");
	assert_string_equal(calvin_cipher_name(CALVIN_CIPHER_CHACHA20_POLY1305),
			    "chacha20-poly1305");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_acl),		 cmocka_unit_test(test_router),
	    cmocka_unit_test(test_ratelimit),	 cmocka_unit_test(test_impair),
	    cmocka_unit_test(test_nc),		 cmocka_unit_test(test_crypt),
	    cmocka_unit_test(test_nodes),	 cmocka_unit_test(test_example_chains),
	    cmocka_unit_test(test_parse_prefix), cmocka_unit_test(test_parse_small),
	    cmocka_unit_test(test_kind_words),
	};

	return cmocka_run_group_tests_name("chainspec_params", tests, NULL, NULL);
}
