// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the chain spec parser's VNF kinds, nodes and pairs: the
 * exact "file:line:col" and message of every error a user can make in
 * them. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "spec/spec.h"

#define HEAD "name: c\nbudget: 1ms\nvnfs:\n" /* lines 1-3 */
/* line 4 is "  - {name: a, kind: KIND, " EXTRA "}" */
#define ONE(kind, extra) HEAD "  - {name: a, kind: " kind ", " extra "}\n"
/* lines 4-6: the acl, line 7 the rule: "      - {action: allow, " EXTRA "}", EXTRA at
 * column 25 */
#define RULE(extra)                                                                                \
	HEAD "  - name: fw\n    kind: acl\n    rules:\n      - {action: allow, " extra "}\n"
#define R_AT(col) "t.yaml:7:" #col ": "
/* line 7 the route: "      - {" EXTRA "}", EXTRA at column 10 */
#define ROUTE(extra) HEAD "  - name: rt\n    kind: router\n    routes:\n      - {" extra "}\n"
/* an encrypt/decrypt pair, one line each, EXTRA at column 43 */
#define ENC(extra) "  - {name: e, kind: encrypt, key-file: k, " extra "}\n"
#define DEC(extra) "  - {name: d, kind: decrypt, key-file: k, " extra "}\n"

struct bad_case {
	const char *name;
	const char *yaml;
	const char *where; /* "t.yaml:LINE:COL: " */
	const char *what;  /* a key part of the message */
};

static const struct bad_case bad_cases[] = {
    /* kind first: it decides which keys are valid */
    {"missing_kind", HEAD "  - name: a\n    space: kernel\n", "t.yaml:4:5: ",
     "missing required key 'kind' in VNF 1; add 'kind: KIND', one of: forward, acl, router, "
     "ratelimit, impair, nc-encode, nc-decode, encrypt, decrypt"},
    {"kind_not_scalar", HEAD "  - {name: a, kind: [acl]}\n",
     "t.yaml:4:21: ", "'kind' takes a single value"},
    /* the wrong space, at the space value */
    {"acl_user", HEAD "  - name: fw\n    kind: acl\n    space: user\n",
     "t.yaml:6:12: ", "acl runs in kernel space only; remove 'space: user'"},
    {"impair_user", ONE("impair", "loss: 1%, space: user"),
     "t.yaml:4:46: ", "impair runs in kernel space only; remove 'space: user'"},
    {"nc_kernel", ONE("nc-encode", "space: kernel"),
     "t.yaml:4:39: ", "nc-encode runs in user space only; remove 'space: kernel'"},
    {"decrypt_kernel", ONE("decrypt", "key-file: k, space: kernel"),
     "t.yaml:4:50: ", "decrypt runs in user space only; remove 'space: kernel'"},
    /* each kind takes its own keys only, and lists them */
    {"acl_burst", ONE("acl", "burst: 4"), "t.yaml:4:26: ",
     "unknown key 'burst' in acl VNF 1; valid keys: name, kind, space, node, host, default, rules"},
    {"router_unknown", ONE("router", "rules: []"), "t.yaml:4:29: ",
     "unknown key 'rules' in router VNF 1; valid keys: name, kind, space, node, host, routes"},
    {"ratelimit_unknown", ONE("ratelimit", "rate: 5"), "t.yaml:4:32: ",
     "valid keys: name, kind, space, node, host, pps, bytes-per-second, burst, burst-bytes, per"},
    {"impair_unknown", ONE("impair", "pps: 5"), "t.yaml:4:29: ",
     "valid keys: name, kind, space, node, host, model, loss, p, r, loss-good, loss-bad, duplicate, "
     "seed, direction"},
    {"nc_unknown", ONE("nc-decode", "key-file: k"),
     "t.yaml:4:32: ", "valid keys: name, kind, space, node, host, burst, pmd, k, r, flush"},
    {"encrypt_replay", ONE("encrypt", "key-file: k, replay-window: 64"), "t.yaml:4:43: ",
     "unknown key 'replay-window' in encrypt VNF 1; valid keys: name, kind, space, node, host, burst, "
     "pmd, cipher, key-file, spi"},
    /* words of each kind */
    {"acl_default", ONE("acl", "default: drop"),
     "t.yaml:4:35: ", "unknown default 'drop'; use one of: allow, deny"},
    {"rl_per", ONE("ratelimit", "pps: 1, per: host"),
     "t.yaml:4:45: ", "unknown per 'host'; use one of: vnf, flow"},
    {"impair_model", ONE("impair", "model: bursty"),
     "t.yaml:4:36: ", "unknown model 'bursty'; use one of: uniform, gilbert-elliott"},
    {"impair_direction", ONE("impair", "loss: 1%, direction: up"),
     "t.yaml:4:50: ", "unknown direction 'up'; use one of: both, fwd, rev"},
    {"cipher", ONE("encrypt", "key-file: k, cipher: aes"),
     "t.yaml:4:51: ", "unknown cipher 'aes'; use one of: aes-256-gcm, chacha20-poly1305"},
    /* required parameters */
    {"router_no_routes", ONE("router", "node: r"),
     "t.yaml:4:5: ", "missing required key 'routes' in router VNF 1; add a list of routes"},
    {"router_routes_empty", ONE("router", "routes: []"),
     "t.yaml:4:37: ", "routes is empty; list at least one route"},
    {"router_routes_null", HEAD "  - name: rt\n    kind: router\n    routes:\n",
     "t.yaml:6:12: ", "routes is empty"},
    {"ratelimit_no_limit", ONE("ratelimit", "per: flow"),
     "t.yaml:4:5: ", "ratelimit 'a' has no limit; add 'pps: N' or 'bytes-per-second: N'"},
    {"ratelimit_burst_alone", ONE("ratelimit", "bytes-per-second: 9, burst: 3"),
     "t.yaml:4:53: ", "burst sizes the pps bucket; add 'pps: N' or remove burst"},
    {"ratelimit_burst_bytes_alone", ONE("ratelimit", "pps: 9, burst-bytes: 3"),
     "t.yaml:4:40: ", "burst-bytes sizes the bytes-per-second bucket"},
    {"impair_nothing", ONE("impair", "seed: 3"),
     "t.yaml:4:5: ", "impair 'a' does nothing; add 'loss: P%' or 'duplicate: P%'"},
    {"impair_ge_no_r", ONE("impair", "model: gilbert-elliott, p: 1%"),
     "t.yaml:4:5: ", "impair 'a' uses gilbert-elliott without r; add p (good to bad) and r"},
    {"impair_uniform_p", ONE("impair", "loss: 1%, p: 1%"),
     "t.yaml:4:39: ", "p is for model gilbert-elliott; set 'model: gilbert-elliott' or remove p"},
    {"impair_ge_loss", ONE("impair", "model: gilbert-elliott, p: 1%, r: 2%, loss: 1%"),
     "t.yaml:4:67: ", "loss is for model uniform"},
    {"crypt_no_key", ONE("decrypt", "spi: 5"),
     "t.yaml:4:5: ", "missing required key 'key-file' in decrypt VNF 1; add the key file"},
    {"crypt_key_empty", ONE("encrypt", "key-file: ''"), "t.yaml:4:40: ", "key-file is empty"},
    /* prefixes */
    {"prefix_host_bits", RULE("dst: 10.70.0.1/24"), R_AT(30),
     "dst 10.70.0.1/24 has host bits set; did you mean 10.70.0.0/24?"},
    {"prefix6_host_bits", ROUTE("prefix: '2001:db8::1/32', via: east"), R_AT(18),
     "prefix 2001:db8::1/32 has host bits set; did you mean 2001:db8::/32?"},
    {"prefix_bad", RULE("src: 10.70.0.300/24"), R_AT(30),
     "src '10.70.0.300/24' is not an address prefix; write e.g. 10.70.0.0/24"},
    {"prefix_too_long", ROUTE("prefix: 10.0.0.0/33, via: east"), R_AT(18), "not an address prefix"},
    {"prefix_list", RULE("src: [any]"), R_AT(30), "'src' takes a single value"},
    /* ports and protocols */
    {"ports_reversed", RULE("proto: tcp, dport: 2000-1000"), R_AT(44),
     "dport '2000-1000' is not a port or port range; write PORT or LO-HI with LO <= HI"},
    {"ports_high", RULE("proto: udp, sport: 65536"), R_AT(44), "is not a port or port range"},
    {"proto_unknown", RULE("proto: sctp"), R_AT(32),
     "unknown proto 'sctp'; use any, tcp, udp, icmp, icmpv6 or a protocol number from 0 to 255"},
    {"proto_high", RULE("proto: 256"), R_AT(32), "unknown proto '256'"},
    {"ports_icmp", RULE("proto: icmp, dport: 80"), R_AT(38),
     "dport needs proto tcp or udp; add 'proto: udp' (or tcp) or remove dport"},
    {"ports_any_proto", RULE("sport: 80"), R_AT(25), "sport needs proto tcp or udp"},
    {"families_differ", RULE("src: 10.0.0.0/8, dst: '2001:db8::/32'"), R_AT(47),
     "rule has an IPv4 src and an IPv6 dst; use one family in a rule"},
    /* rules and routes themselves */
    {"rule_no_action", HEAD "  - name: fw\n    kind: acl\n    rules:\n      - {proto: udp}\n",
     R_AT(9), "missing required key 'action' in rule 1; add 'action: allow' or 'action: deny'"},
    {"rule_unknown_key", RULE("port: 80"), R_AT(25),
     "unknown key 'port' in rule 1; valid keys: action, proto, src, dst, sport, dport"},
    {"rule_not_mapping", HEAD "  - name: fw\n    kind: acl\n    rules:\n      - allow\n", R_AT(9),
     "rule 1 must be a mapping"},
    {"rules_not_list", HEAD "  - name: fw\n    kind: acl\n    rules: allow\n",
     "t.yaml:6:12: ", "rules must be a list"},
    {"route_via", ROUTE("prefix: any, via: north"), R_AT(28),
     "unknown via 'north'; use one of: west, east, drop"},
    {"route_no_via", ROUTE("prefix: any"), R_AT(9), "missing required key 'via' in route 1"},
    {"route_twice",
     HEAD "  - name: rt\n    kind: router\n    routes:\n      - {prefix: 10.0.0.0/8, via: east}\n"
	  "      - {prefix: 10.0.0.0/8, via: west}\n",
     "t.yaml:8:18: ", "route to 10.0.0.0/8 is listed twice (first at line 7); keep one"},
    /* percentages */
    {"ppm_above", ONE("impair", "loss: 150%"),
     "t.yaml:4:35: ", "loss 150% is above 100%; use a percentage from 0% to 100%"},
    {"ppm_no_percent", ONE("impair", "loss: 5"),
     "t.yaml:4:35: ", "loss '5' has no '%'; write a percentage, e.g. 5%"},
    {"ppm_word", ONE("impair", "duplicate: some%"),
     "t.yaml:4:40: ", "duplicate 'some%' is not a percentage"},
    {"ppm_negative", ONE("impair", "loss: -1%"), "t.yaml:4:35: ", "not a percentage"},
    /* integers and durations */
    {"spi_zero", ONE("encrypt", "key-file: k, spi: 0"),
     "t.yaml:4:48: ", "spi 0 is out of range; use an integer from 1 to 4294967295"},
    {"spi_high", ONE("encrypt", "key-file: k, spi: 0x100000000"),
     "t.yaml:4:48: ", "spi 0x100000000 is out of range"},
    {"spi_word", ONE("encrypt", "key-file: k, spi: 0xg"),
     "t.yaml:4:48: ", "spi '0xg' is not an integer"},
    {"pps_zero", ONE("ratelimit", "pps: 0"),
     "t.yaml:4:37: ", "pps 0 is out of range; use an integer from 1 to 1000000000"},
    {"seed_overflow", ONE("impair", "loss: 1%, seed: 18446744073709551616"),
     "t.yaml:4:45: ", "out of range"},
    {"nc_k_zero", ONE("nc-encode", "k: 0"), "t.yaml:4:35: ",
     "k 0 is out of range; use an "
     "integer from 1 to 64"},
    {"nc_r_high", ONE("nc-encode", "r: 65"), "t.yaml:4:35: ", "from 0 to 64"},
    {"nc_flush_unit", ONE("nc-decode", "flush: 1"), "t.yaml:4:39: ", "flush '1' has no unit"},
    {"nc_flush_early_word", ONE("nc-encode", "flush-early: soon"), "t.yaml:4:45: ",
     "flush-early 'soon' is not a bool; use true or false"},
    {"nc_flush_zero", ONE("nc-decode", "flush: 0ms"),
     "t.yaml:4:39: ", "flush must be above zero; give the flush timeout"},
    {"replay_low", ONE("decrypt", "key-file: k, replay-window: 16"),
     "t.yaml:4:58: ", "from 32 to 4096"},
    /* nodes */
    {"node_bad_name", ONE("acl", "node: Edge"), "t.yaml:4:32: ", "node 'Edge' is not a valid name"},
    {"node_user_shared",
     HEAD "  - {name: a, kind: acl, node: edge}\n  - {name: b, kind: forward, space: user, "
	  "node: edge}\n",
     "t.yaml:5:49: ",
     "node 'edge' is shared with user-space VNF 'b'; a user VNF owns its node's interfaces"},
    {"node_user_default",
     HEAD "  - {name: a, kind: nc-encode}\n  - {name: b, kind: acl, node: a}\n",
     "t.yaml:5:32: ", "node 'a' is shared with user-space VNF 'a'"},
    {"node_not_consecutive",
     HEAD "  - {name: a, kind: acl, node: edge}\n  - {name: b, kind: acl}\n"
	  "  - {name: c, kind: acl, node: edge}\n",
     "t.yaml:6:32: ",
     "node 'edge' has 'a' and 'c' with 'b' between them; VNFs that share a node must be "
     "consecutive"},
    {"node_other_vnf",
     HEAD "  - {name: a, kind: acl, node: b}\n  - {name: b, kind: acl, node: x}\n",
     "t.yaml:4:32: ", "node 'b' is the name of VNF 2, which runs on node 'x'; choose another"},
    {"node_probe", ONE("acl", "node: probe"), "t.yaml:4:32: ", "node 'probe' is reserved"},
    {"node_server", ONE("acl", "node: server"),
     "t.yaml:4:32: ", "node 'server' is the server's node; choose another node"},
    {"node_named_server", HEAD "  - {name: a, kind: acl, node: srv}\nserver: {name: srv}\n",
     "t.yaml:4:32: ", "node 'srv' is the server's node"},
    {"burst_on_kernel_forward", ONE("forward", "node: n, burst: 2"),
     "t.yaml:4:39: ", "burst applies to user-space VNFs only"},
    /* pairs: every tail closes the head before it, with its settings */
    {"decrypt_alone", HEAD DEC(""), "t.yaml:4:5: ",
     "decrypt 'd' has no encrypt before it; put an encrypt VNF with the same cipher, key-file, "
     "spi, spi-rev and direction before it"},
    {"decrypt_first", HEAD DEC("") ENC(""), "t.yaml:4:5: ", "decrypt 'd' has no encrypt before"},
    {"nc_decode_alone", HEAD "  - {name: d, kind: nc-decode}\n", "t.yaml:4:5: ",
     "nc-decode 'd' has no nc-encode before it; put an nc-encode VNF with the same k, r and "
     "direction before it"},
    {"encrypt_alone", HEAD ENC(""),
     "t.yaml:4:5: ", "encrypt 'e' has no decrypt after it; put a decrypt VNF with the same cipher"},
    {"nc_encode_alone", HEAD "  - {name: e, kind: nc-encode}\n",
     "t.yaml:4:5: ", "nc-encode 'e' has no nc-decode after it; put an nc-decode VNF"},
    {"cipher", HEAD ENC("") DEC("cipher: chacha20-poly1305"), "t.yaml:5:5: ",
     "decrypt 'd' does not match encrypt 'e' (line 4): cipher chacha20-poly1305 here, "
     "aes-256-gcm there; give both ends of the pair the same cipher, key-file, spi, spi-rev "
     "and direction"},
    {"key_file", HEAD ENC("") "  - {name: d, kind: decrypt, key-file: k2}\n",
     "t.yaml:5:5: ", "key-file k2 here, k there"},
    {"spi", HEAD ENC("spi: 5") DEC("spi: 6"), "t.yaml:5:5: ", "spi 0x6 here, 0x5 there"},
    {"spi_rev", HEAD ENC("spi-rev: 7") DEC(""), "t.yaml:5:5: ", "spi-rev 0x2 here, 0x7 there"},
    {"direction", HEAD ENC("direction: fwd") DEC(""),
     "t.yaml:5:5: ", "direction both here, fwd there"},
    {"nc_k", HEAD "  - {name: e, kind: nc-encode, k: 8}\n  - {name: d, kind: nc-decode}\n",
     "t.yaml:5:5: ",
     "nc-decode 'd' does not match nc-encode 'e' (line 4): k 4 here, 8 there; give both ends "
     "of the pair the same k, r and direction"},
    {"nc_r", HEAD "  - {name: e, kind: nc-encode}\n  - {name: d, kind: nc-decode, r: 3}\n",
     "t.yaml:5:5: ", "r 3 here, 1 there"},
    {"nc_direction",
     HEAD "  - {name: e, kind: nc-encode}\n  - {name: d, kind: nc-decode, direction: rev}\n",
     "t.yaml:5:5: ", "direction rev here, both there"},
    {"crossed",
     HEAD "  - {name: ne, kind: nc-encode}\n" ENC("") "  - {name: nd, kind: nc-decode}\n" DEC(""),
     "t.yaml:6:5: ",
     "nc-decode 'nd' comes before the decrypt that closes encrypt 'e' (line 5); pairs must "
     "nest, so close the inner pair first"},
    {"spi_shared",
     HEAD ENC("spi: 5") DEC("spi: 5") "  - {name: e2, kind: encrypt, key-file: k2, "
				      "spi: 6}\n  - {name: d2, kind: decrypt, "
				      "key-file: k2, spi: 6}\n",
     "t.yaml:6:5: ",
     "encrypt 'e2' uses spi 0x6, as encrypt 'e' (line 4) does; give each encrypt/decrypt pair "
     "SPIs of its own"},
    {"spi_rev_same", HEAD ENC("spi: 5, spi-rev: 5") DEC("spi: 5, spi-rev: 5"), "t.yaml:4:60: ",
     "spi-rev 0x5 is the same as spi; each direction needs an SPI of its own, e.g. 'spi-rev: "
     "0x6'"},
    {"direction_word", HEAD ENC("direction: west"),
     "t.yaml:4:54: ", "unknown direction 'west'; use one of: both, fwd, rev"},
    {"key_file_lines", HEAD "  - name: e\n    kind: encrypt\n    key-file: \"a\n      b\"\n",
     "t.yaml:6:15: ", "key-file spans several lines; write the path on one line"},
};

static void test_bad(void **state)
{
	const struct bad_case *bc = *state;
	static struct calvin_chain_spec spec;
	char err[CALVIN_ERR_MAX], where[32];
	int ret;

	ret = calvin_spec_parse(bc->yaml, strlen(bc->yaml), "t.yaml", &spec, err, sizeof(err));
	print_message("%s\n", err);
	assert_int_equal(ret, -EINVAL);
	snprintf(where, sizeof(where), "%.*s", (int)strlen(bc->where), err);
	assert_string_equal(where, bc->where);
	assert_non_null(strstr(err, bc->what));
	assert_null(strchr(err, '\n'));
	assert_non_null(strstr(err, "; "));
}

/* max + 1 items: the error is at the first one that does not fit. */
static void too_many(const char *vnf, const char *item_fmt, unsigned int max, const char *what)
{
	static struct calvin_chain_spec spec;
	size_t cap = 64 * (max + 8), n;
	char err[CALVIN_ERR_MAX], where[32];
	char *yaml = malloc(cap);
	unsigned int i;

	assert_non_null(yaml);
	n = (size_t)snprintf(yaml, cap, HEAD "%s", vnf);
	for (i = 0; i < max + 1; i++)
		n += (size_t)snprintf(yaml + n, cap - n, item_fmt, i / 256, i % 256);
	assert_int_equal(calvin_spec_parse(yaml, n, "t.yaml", &spec, err, sizeof(err)), -EINVAL);
	print_message("%s\n", err);
	snprintf(where, sizeof(where), "t.yaml:%u:9: ", 7 + max);
	assert_int_equal(strncmp(err, where, strlen(where)), 0);
	assert_non_null(strstr(err, what));
	/* max items fit */
	n = (size_t)snprintf(yaml, cap, HEAD "%s", vnf);
	for (i = 0; i < max; i++)
		n += (size_t)snprintf(yaml + n, cap - n, item_fmt, i / 256, i % 256);
	assert_int_equal(calvin_spec_parse(yaml, n, "t.yaml", &spec, err, sizeof(err)), 0);
	free(yaml);
}

static void test_too_many_rules(void **state)
{
	too_many("  - name: fw\n    kind: acl\n    rules:\n",
		 "      - {action: deny, src: 10.%u.%u.0/24}\n", CALVIN_ACL_MAX_RULES,
		 "acl 'fw' has more than 64 rules; the map holds 64: merge rules or split the acl");
}

static void test_too_many_routes(void **state)
{
	too_many(
	    "  - name: rt\n    kind: router\n    routes:\n",
	    "      - {prefix: 10.%u.%u.0/24, via: east}\n", CALVIN_ROUTER_MAX_ROUTES,
	    "router 'rt' has more than 256 routes; the map holds 256: merge routes or split the "
	    "router");
}

int main(void)
{
	size_t nbad = sizeof(bad_cases) / sizeof(bad_cases[0]), i, n = 0;
	struct CMUnitTest *tests = calloc(nbad + 2, sizeof(*tests));

	if (!tests)
		return 1;
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_too_many_rules);
	tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_too_many_routes);
	for (i = 0; i < nbad; i++, n++) {
		tests[n].name = bad_cases[i].name;
		tests[n].test_func = test_bad;
		tests[n].initial_state = (void *)&bad_cases[i];
	}
	return _cmocka_run_group_tests("chainspec_kinds", tests, n, NULL, NULL);
}
