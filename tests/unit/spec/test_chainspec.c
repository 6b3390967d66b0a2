// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Unit tests of the chain spec parser: the reference chain, defaults, and the
 * exact "file:line:col" and message of every error a user can make. */
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

/* a valid chain: lines 1-2 ... */
#define HEAD "name: c\nbudget: 1ms\n"
/* ... lines 3-6 */
#define VNFS "vnfs:\n  - name: a\n    kind: forward\n    space: kernel\n"
#define VNF_USER(extra) HEAD "vnfs:\n  - name: a\n    kind: forward\n    space: user\n" extra
#define ITEM(n) "  - {name: a" #n ", kind: forward, space: kernel}\n"
#define ITEMS8(t)                                                                                  \
	ITEM(t##1) ITEM(t##2) ITEM(t##3) ITEM(t##4) ITEM(t##5) ITEM(t##6) ITEM(t##7) ITEM(t##8)
/* the longest chain: 32 VNFs, on lines 4-35 after HEAD "vnfs:\n" */
#define ITEMS32 ITEMS8(a) ITEMS8(b) ITEMS8(c) ITEMS8(d)

struct bad_case {
	const char *name;
	const char *yaml;
	const char *where; /* "t.yaml:LINE:COL: " */
	const char *what;  /* a key part of the message */
};

static const struct bad_case bad_cases[] = {
    /* YAML that does not parse */
    {"syntax_indent", "name: c\n  budget: 1ms\n", "t.yaml:2:9: ", "mapping values are not allowed"},
    {"syntax_tab", "name: c\n\tbudget: 1ms\n", "t.yaml:2:1: ", "tab"},
    {"syntax_utf8", "name: c\xff\n", "t.yaml:1:8: ", "UTF-8"},
    {"syntax_unclosed_flow", "name: [c\n", "t.yaml:2:1: ", "started at line 1, column 7"},
    {"syntax_unclosed_quote", "name: 'abc\n\n", "t.yaml:3:1: ", "quoted scalar"},
    {"syntax_undefined_alias", "name: *x\n", "t.yaml:1:7: ", "undefined alias"},
    {"second_document", HEAD VNFS "---\nname: d\n", "t.yaml:8:1: ", "second YAML document"},
    /* top level not a mapping */
    {"top_empty", "", "t.yaml:1:1: ", "top level must be a mapping"},
    {"top_comment_only", "# nothing\n", "t.yaml:1:1: ", "top level must be a mapping"},
    {"top_list", "\n\n- a\n", "t.yaml:3:1: ", "top level must be a mapping"},
    {"top_scalar", "just text\n", "t.yaml:1:1: ", "top level must be a mapping"},
    /* unknown keys, keys that are not words */
    {"unknown_key", HEAD VNFS "colour: red\n", "t.yaml:7:1: ",
     "unknown key 'colour' in the chain; valid keys: name, budget, placement, allow-sharing, "
     "shared-core, backend, mode, mtu, vnfs, server, probe, realtime, libvirt"},
    {"unknown_vnf_key", HEAD VNFS "    speed: 3\n",
     "t.yaml:7:5: ",
     "unknown key 'speed' in forward VNF 1; valid keys: name, kind, space, node, host, burst, pmd"},
    {"unknown_server_key", HEAD VNFS "server:\n  port: 1\n",
     "t.yaml:8:3: ", "unknown key 'port' in server; valid keys: name, kind"},
    {"unknown_probe_key", HEAD VNFS "probe:\n  ports: 1\n",
     "t.yaml:8:3: ", "unknown key 'ports' in probe; valid keys: port, count, rate, mode, size"},
    {"key_not_word", HEAD "[a]: 1\n", "t.yaml:3:1: ", "must be plain words"},
    /* duplicate keys */
    {"duplicate_key", "name: c\nbudget: 1ms\nname: d\n" VNFS,
     "t.yaml:3:1: ", "duplicate key 'name' in the chain (first at line 1)"},
    {"duplicate_vnf_key", HEAD VNFS "    space: user\n",
     "t.yaml:7:5: ", "duplicate key 'space' in forward VNF 1 (first at line 6)"},
    /* missing required keys point at the mapping */
    {"missing_name", "budget: 1ms\n" VNFS, "t.yaml:1:1: ", "missing required key 'name'"},
    {"missing_budget", "# a chain\n\nname: c\n" VNFS,
     "t.yaml:3:1: ", "missing required key 'budget' in the chain"},
    {"missing_vnfs", HEAD, "t.yaml:1:1: ", "missing required key 'vnfs'"},
    {"missing_vnf_name", HEAD "vnfs:\n  - kind: forward\n    space: kernel\n",
     "t.yaml:4:5: ", "missing required key 'name' in forward VNF 1"},
    {"missing_vnf_kind", HEAD "vnfs:\n  - name: a\n    space: kernel\n",
     "t.yaml:4:5: ", "missing required key 'kind' in VNF 1"},
    /* unknown words */
    {"unknown_kind", HEAD "vnfs:\n  - name: a\n    kind: bounce\n    space: kernel\n",
     "t.yaml:5:11: ",
     "unknown kind 'bounce'; use one of: forward, acl, router, ratelimit, impair, nc-encode, "
     "nc-decode, encrypt, decrypt"},
    {"unknown_space", HEAD "vnfs:\n  - name: a\n    kind: forward\n    space: both\n",
     "t.yaml:6:12: ", "unknown space 'both'; use one of: kernel, user"},
    {"unknown_placement", HEAD "placement: dedicated\n" VNFS,
     "t.yaml:3:12: ", "unknown placement 'dedicated'; use one of: shared, pinned, isolated"},
    {"unknown_shared_core", HEAD "shared-core: threads\n" VNFS,
     "t.yaml:3:14: ", "unknown shared-core 'threads'; use one of: loop, yield"},
    {"unknown_backend", HEAD "backend: docker\n" VNFS,
     "t.yaml:3:10: ", "unknown backend 'docker'; use one of: netns, libvirt"},
    {"unknown_pmd", VNF_USER("    pmd: virtio\n"),
     "t.yaml:7:10: ", "unknown pmd 'virtio'; use one of: af_xdp, af_packet"},
    {"unknown_mode", HEAD VNFS "probe:\n  mode: burst\n",
     "t.yaml:8:9: ", "unknown mode 'burst'; use one of: paced, ping-pong"},
    {"unknown_server_kind", HEAD VNFS "server:\n  kind: http\n",
     "t.yaml:8:9: ", "unknown kind 'http'; use one of: echo"},
    {"bad_bool", HEAD "allow-sharing: maybe\n" VNFS, "t.yaml:3:16: ", "not a bool"},
    /* budgets */
    {"budget_no_unit", "name: c\nbudget: 350\n" VNFS, "t.yaml:2:9: ", "budget '350' has no unit"},
    {"budget_decimal_no_unit", "name: c\nbudget: 0.35\n" VNFS, "t.yaml:2:9: ", "has no unit"},
    {"budget_unknown_unit", "name: c\nbudget: 350xs\n" VNFS,
     "t.yaml:2:9: ", "budget '350xs' is not a duration"},
    {"budget_not_number", "name: c\nbudget: fast\n" VNFS, "t.yaml:2:9: ", "not a duration"},
    {"budget_negative", "name: c\nbudget: -1ms\n" VNFS, "t.yaml:2:9: ", "not a duration"},
    {"budget_zero", "name: c\nbudget: 0us\n" VNFS, "t.yaml:2:9: ", "budget must be above zero"},
    {"budget_overflow", "name: c\nbudget: 18446744074s\n" VNFS, "t.yaml:2:9: ", "not a duration"},
    /* mtu: the ceiling of XDP on a veth, less what links between VNFs add */
    {"mtu_high", HEAD "mtu: 3407\n" VNFS, "t.yaml:3:6: ",
     "mtu 3407 is too large: every netns chain runs XDP programs on veths, which take frames "
     "of at most 3506 bytes (4 KB pages), and links between VNFs carry 100 bytes more than the "
     "endpoints'; use at most 3406"},
    {"mtu_jumbo", HEAD "mtu: 9000\n" VNFS, "t.yaml:3:6: ", "use at most 3406"},
    {"mtu_low", HEAD "mtu: 575\n" VNFS, "t.yaml:3:6: ",
     "mtu 575 is out of range; use an integer from 576 to 3406"},
    {"mtu_word", HEAD "mtu: jumbo\n" VNFS, "t.yaml:3:6: ",
     "mtu 'jumbo' is not an integer; use an integer from 576 to 3406"},
    {"mtu_huge", HEAD "mtu: 99999999999999999999\n" VNFS, "t.yaml:3:6: ",
     "mtu 99999999999999999999 is out of range; use an integer from 576 to 3406"},
    {"mtu_libvirt", HEAD "backend: libvirt\nmtu: 3000\n" VNFS, "t.yaml:4:6: ",
     "mtu applies to chains in namespaces on this host ('backend: netns', no hosts); VM links "
     "and links between hosts keep their own; remove it"},
    {"mtu_probe", HEAD "mtu: 600\n" VNFS "probe:\n  size: 1000\n", "t.yaml:3:6: ",
     "mtu 600 leaves no room for the probe's 1000 bytes (and 28 of IP and UDP headers); use at "
     "least 1028, or a smaller probe size"},
    /* integers */
    {"port_zero", HEAD VNFS "probe:\n  port: 0\n",
     "t.yaml:8:9: ", "port 0 is out of range; use an integer from 1 to 65535"},
    {"port_high", HEAD VNFS "probe:\n  port: 65536\n", "t.yaml:8:9: ", "out of range"},
    {"port_negative", HEAD VNFS "probe:\n  port: -1\n", "t.yaml:8:9: ", "out of range"},
    {"port_huge", HEAD VNFS "probe:\n  port: 99999999999999999999999\n",
     "t.yaml:8:9: ", "out of range"},
    {"port_word", HEAD VNFS "probe:\n  port: http\n",
     "t.yaml:8:9: ", "port 'http' is not an integer"},
    {"port_decimal", HEAD VNFS "probe:\n  port: 1.5\n", "t.yaml:8:9: ", "not an integer"},
    {"count_high", HEAD VNFS "probe:\n  count: 10000001\n", "t.yaml:8:10: ", "from 1 to 10000000"},
    {"rate_zero", HEAD VNFS "probe:\n  rate: 0\n", "t.yaml:8:9: ", "from 1 to 1000000"},
    {"size_low", HEAD VNFS "probe:\n  size: 47\n", "t.yaml:8:9: ", "from 48 to 3378"},
    {"size_over_mtu", HEAD VNFS "probe:\n  size: 1473\n", "t.yaml:8:9: ",
     "probe size 1473 does not fit the chain's mtu of 1500 with 28 bytes of IP and UDP headers; "
     "use at most 1472, or raise the chain's mtu to at least 1501"},
    /* a size the chain's hop records do not fit: at the size, wherever the
     * VNFs are written */
    {"size_below_chain",
     HEAD "vnfs:\n" ITEM(1) ITEM(2) ITEM(3) ITEM(4) "probe:\n  size: 143\n", "t.yaml:9:9: ",
     "probe size 143 is too small for the 8 hop records of 4 VNFs (a 144-byte telemetry "
     "block); set size to at least 144, or leave it out"},
    {"size_before_vnfs",
     HEAD "probe: {size: 79}\nvnfs:\n" ITEM(1) ITEM(2), "t.yaml:3:15: ",
     "too small for the 4 hop records of 2 VNFs"},
    {"size_high", HEAD VNFS "probe:\n  size: 3379\n", "t.yaml:8:9: ", "out of range"},
    {"burst_zero", VNF_USER("    burst: 0\n"), "t.yaml:7:12: ", "from 1 to 512"},
    {"burst_high", VNF_USER("    burst: 513\n"), "t.yaml:7:12: ", "burst 513 is out of range"},
    /* names */
    {"name_upper", "name: Chain\nbudget: 1ms\n" VNFS, "t.yaml:1:7: ", "not a valid name"},
    {"name_digit_first", "name: 1c\nbudget: 1ms\n" VNFS, "t.yaml:1:7: ", "not a valid name"},
    {"name_underscore", HEAD "vnfs:\n  - name: fwd_k\n    kind: forward\n    space: kernel\n",
     "t.yaml:4:11: ", "name 'fwd_k' is not a valid name"},
    {"name_too_long", "name: abcdefghijklmnopqrstuvwxy\nbudget: 1ms\n" VNFS,
     "t.yaml:1:7: ", "longer than 24 characters"},
    {"name_empty", "name:\nbudget: 1ms\n" VNFS, "t.yaml:1:6: ", "name is empty"},
    {"name_nul", "name: \"a\\0b\"\nbudget: 1ms\n" VNFS, "t.yaml:1:7: ", "NUL"},
    {"name_not_scalar", "name: [a]\nbudget: 1ms\n" VNFS,
     "t.yaml:1:7: ", "'name' takes a single value"},
    {"server_name_bad", HEAD VNFS "server:\n  name: Srv\n", "t.yaml:8:9: ", "not a valid name"},
    /* distinct node names */
    {"duplicate_vnf_name", HEAD VNFS "  - name: a\n    kind: forward\n    space: user\n",
     "t.yaml:7:11: ", "node name 'a' is used twice (first at line 4)"},
    {"vnf_named_server", HEAD "vnfs:\n  - name: server\n    kind: forward\n    space: kernel\n",
     "t.yaml:4:11: ", "server's default name"},
    {"server_named_like_vnf", HEAD VNFS "server:\n  name: a\n",
     "t.yaml:8:9: ", "node name 'a' is used twice (first at line 4)"},
    {"server_before_vnfs", "name: c\nbudget: 1ms\nserver:\n  name: a\n" VNFS,
     "t.yaml:6:11: ", "used twice (first at line 4)"},
    {"vnf_named_probe", HEAD "vnfs:\n  - name: probe\n    kind: forward\n    space: kernel\n",
     "t.yaml:4:11: ", "'probe' is reserved"},
    {"server_named_probe", HEAD VNFS "server:\n  name: probe\n",
     "t.yaml:8:9: ", "'probe' is reserved"},
    /* user-space-only keys on a kernel VNF point at the key */
    {"burst_kernel", HEAD VNFS "    burst: 4\n",
     "t.yaml:7:5: ", "burst applies to user-space VNFs only"},
    {"pmd_kernel", HEAD VNFS "    pmd: af_packet\n",
     "t.yaml:7:5: ", "pmd applies to user-space VNFs only"},
    {"burst_before_space",
     HEAD "vnfs:\n  - name: a\n    burst: 4\n    kind: forward\n    space: kernel\n",
     "t.yaml:5:5: ", "burst applies to user-space VNFs only"},
    /* the VNF list */
    {"vnfs_empty", HEAD "vnfs: []\n", "t.yaml:3:7: ", "vnfs is empty"},
    {"vnfs_null", HEAD "vnfs:\n", "t.yaml:3:6: ", "vnfs must be a list"},
    {"vnfs_scalar", HEAD "vnfs: fwd\n", "t.yaml:3:7: ", "vnfs must be a list"},
    {"vnf_not_mapping", HEAD "vnfs:\n  - fwd\n", "t.yaml:4:5: ", "VNF 1 must be a mapping"},
    {"too_many_vnfs", HEAD "vnfs:\n" ITEMS32 ITEM(33), "t.yaml:36:5: ",
     "too many VNFs: a chain holds at most 32"},
    {"section_not_mapping", HEAD VNFS "probe: 5\n", "t.yaml:7:8: ", "probe must be a mapping"},
};

static void test_bad(void **state)
{
	const struct bad_case *bc = *state;
	struct calvin_chain_spec spec;
	char err[CALVIN_ERR_MAX], where[32];
	int ret;

	ret = calvin_spec_parse(bc->yaml, strlen(bc->yaml), "t.yaml", &spec, err, sizeof(err));
	print_message("%s\n", err);
	assert_int_equal(ret, -EINVAL);
	snprintf(where, sizeof(where), "%.*s", (int)strlen(bc->where), err);
	assert_string_equal(where, bc->where);
	assert_non_null(strstr(err, bc->what));
	assert_null(strchr(err, '\n'));
	/* every message says what to do, after a ';' */
	assert_non_null(strstr(err, "; "));
}

static int parse(const char *yaml, struct calvin_chain_spec *spec)
{
	char err[CALVIN_ERR_MAX];
	int ret;

	ret = calvin_spec_parse(yaml, strlen(yaml), "t.yaml", spec, err, sizeof(err));
	if (ret)
		print_message("%s\n", err);
	return ret;
}

static void test_reference_file(void **state)
{
	struct calvin_chain_spec s;
	char err[CALVIN_ERR_MAX];

	assert_int_equal(calvin_spec_load("chains/tactile-fwd.yaml", &s, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_string_equal(s.name, "tactile-fwd");
	assert_string_equal(s.path, "chains/tactile-fwd.yaml");
	assert_int_equal(s.budget_ns, 350000);
	assert_int_equal(s.placement, CALVIN_PLACE_PINNED);
	assert_true(s.allow_sharing);
	assert_int_equal(s.backend, CALVIN_BACKEND_NETNS);
	assert_int_equal(s.nr_vnfs, 2);
	assert_string_equal(s.vnfs[0].name, "fwd-k");
	assert_int_equal(s.vnfs[0].kind, CALVIN_VNF_FORWARD);
	assert_int_equal(s.vnfs[0].space, CALVIN_KERNEL);
	assert_int_equal(s.vnfs[0].pos.line, 7);
	assert_int_equal(s.vnfs[0].pos.col, 5);
	assert_string_equal(s.vnfs[1].name, "fwd-u");
	assert_int_equal(s.vnfs[1].kind, CALVIN_VNF_FORWARD);
	assert_int_equal(s.vnfs[1].space, CALVIN_USER);
	assert_int_equal(s.vnfs[1].burst, 1);
	assert_int_equal(s.vnfs[1].pmd, CALVIN_PMD_AF_XDP);
	assert_int_equal(s.vnfs[1].pos.line, 10);
	assert_int_equal(s.vnfs[1].pos.col, 5);
	assert_string_equal(s.server.name, "server");
	assert_int_equal(s.server.kind, CALVIN_SERVER_ECHO);
	assert_int_equal(s.probe.port, 7357);
	assert_int_equal(s.probe.count, 1000);
	assert_int_equal(s.probe.rate, 1000);
	assert_int_equal(s.probe.mode, CALVIN_PROBE_PACED);
	assert_int_equal(s.probe.size, 256);
}

static void test_minimal_defaults(void **state)
{
	struct calvin_chain_spec s;

	memset(&s, 0xa5, sizeof(s));
	assert_int_equal(parse(HEAD VNFS, &s), 0);
	assert_string_equal(s.name, "c");
	assert_string_equal(s.path, "t.yaml");
	assert_int_equal(s.budget_ns, 1000000);
	assert_int_equal(s.placement, CALVIN_PLACE_PINNED);
	assert_false(s.allow_sharing);
	assert_int_equal(s.backend, CALVIN_BACKEND_NETNS);
	assert_int_equal(s.nr_vnfs, 1);
	assert_int_equal(s.vnfs[0].burst, 1);
	assert_int_equal(s.vnfs[0].pmd, CALVIN_PMD_AF_XDP);
	assert_int_equal(s.vnfs[0].pos.line, 4);
	assert_int_equal(s.vnfs[0].pos.col, 5);
	assert_string_equal(s.server.name, "server");
	assert_int_equal(s.server.kind, CALVIN_SERVER_ECHO);
	assert_int_equal(s.probe.port, 7357);
	assert_int_equal(s.probe.count, 1000);
	assert_int_equal(s.probe.rate, 1000);
	assert_int_equal(s.probe.mode, CALVIN_PROBE_PACED);
	assert_int_equal(s.probe.size, 256);
	assert_int_equal(s.vnfs[0].space, CALVIN_KERNEL);
	assert_string_equal(s.vnfs[0].node, "a");
	/* space is optional: forward defaults to kernel */
	assert_int_equal(parse(HEAD "vnfs:\n  - name: a\n    kind: forward\n", &s), 0);
	assert_int_equal(s.vnfs[0].space, CALVIN_KERNEL);
	/* empty sections mean all defaults */
	assert_int_equal(parse(HEAD VNFS "server:\nprobe:\n", &s), 0);
	assert_string_equal(s.server.name, "server");
	assert_int_equal(s.probe.port, 7357);
}

static void test_every_option(void **state)
{
	static const char yaml[] =
	    "{name: abcdefghijklmnopqrstuvwx, budget: \"0.35ms\", placement: isolated,\n"
	    " allow-sharing: False, backend: libvirt,\n"
	    " vnfs: [{name: k1, kind: forward, space: kernel},\n"
	    "        {name: u2, kind: forward, space: user, burst: 512, pmd: af_packet},\n"
	    "        {name: u3, kind: forward, space: user, burst: 32},\n"
	    "        {name: a4, kind: forward, space: kernel}, {name: a5, kind: forward, space: "
	    "kernel},\n"
	    "        {name: a6, kind: forward, space: kernel}, {name: a7, kind: forward, space: "
	    "kernel},\n"
	    "        {name: a-8, kind: forward, space: kernel}],\n"
	    " server: {name: srv, kind: echo},\n"
	    " probe: {port: 65535, count: 10000000, rate: 1000000, mode: ping-pong, size: 272}}\n";
	struct calvin_chain_spec s;

	assert_int_equal(parse(yaml, &s), 0);
	assert_string_equal(s.name, "abcdefghijklmnopqrstuvwx");
	assert_int_equal(s.budget_ns, 350000);
	assert_int_equal(s.placement, CALVIN_PLACE_ISOLATED);
	assert_false(s.allow_sharing);
	assert_int_equal(s.backend, CALVIN_BACKEND_LIBVIRT);
	assert_int_equal(s.nr_vnfs, 8);
	assert_int_equal(s.vnfs[1].space, CALVIN_USER);
	assert_int_equal(s.vnfs[1].burst, 512);
	assert_int_equal(s.vnfs[1].pmd, CALVIN_PMD_AF_PACKET);
	assert_int_equal(s.vnfs[2].burst, 32);
	assert_int_equal(s.vnfs[2].pmd, CALVIN_PMD_AF_XDP);
	assert_int_equal(s.vnfs[1].pos.line, 4);
	assert_int_equal(s.vnfs[1].pos.col, 9);
	assert_string_equal(s.vnfs[7].name, "a-8");
	assert_string_equal(s.server.name, "srv");
	assert_int_equal(s.probe.port, 65535);
	assert_int_equal(s.probe.count, 10000000);
	assert_int_equal(s.probe.rate, 1000000);
	assert_int_equal(s.probe.mode, CALVIN_PROBE_PINGPONG);
	/* the least that holds 16 records */
	assert_int_equal(s.probe.size, 272);
	assert_int_equal(s.probe.size_pos.line, 10);
	assert_int_equal(s.mtu, CALVIN_MTU_DEFAULT);
	assert_int_equal(s.mtu_pos.line, 0);
}

/* mtu: the endpoints' links, links between VNFs CALVIN_INNER_MTU_EXTRA more;
 * the ceiling and the default itself are accepted on the netns backend */
static void test_mtu(void **state)
{
	struct calvin_chain_spec s;

	assert_int_equal(parse(HEAD "mtu: 3406\nmode: throughput\n" VNFS, &s), 0);
	assert_int_equal(s.mtu, 3406);
	assert_int_equal(calvin_inner_mtu(&s), 3506);
	assert_int_equal(s.mtu_pos.line, 3);
	assert_int_equal(s.mtu_pos.col, 6);
	assert_int_equal(parse(HEAD "mtu: 576\n" VNFS, &s), 0);
	assert_int_equal(calvin_inner_mtu(&s), 676);
	assert_int_equal(parse(HEAD "mtu: 3000\n" VNFS "probe: {size: 2972}\n", &s), 0);
	assert_int_equal(s.probe.size, 2972);
	assert_int_equal(parse(HEAD "backend: libvirt\nmtu: 1500\n" VNFS, &s), 0);
	assert_int_equal(s.mtu, 1500);
}

/* Without a size, the probe gets 256 bytes, or what the chain's hop
 * records need where that is more; a 32-VNF chain is valid as written. */
static void test_probe_size_default(void **state)
{
	static const char two[] = HEAD "vnfs:\n" ITEM(1) ITEM(2);
	static const char eight[] = HEAD "vnfs:\n" ITEMS8(a);
	static const char longest[] = HEAD "vnfs:\n" ITEMS32 "probe: {count: 5}\n";
	static const char tight[] = HEAD "vnfs:\n" ITEMS32 "probe: {size: 1040}\n";
	static struct calvin_chain_spec s;

	assert_int_equal(parse(two, &s), 0);
	assert_int_equal(s.probe.size, 256);
	assert_int_equal(s.probe.size_pos.line, 0);
	assert_int_equal(parse(eight, &s), 0);
	assert_int_equal(s.probe.size, 272);
	assert_int_equal(parse(longest, &s), 0);
	assert_int_equal(s.nr_vnfs, CALVIN_MAX_VNFS);
	assert_string_equal(s.vnfs[31].name, "ad8");
	assert_int_equal(s.probe.size, 1040);
	assert_int_equal(calvin_probe_size_needed(&s), 1040);
	assert_int_equal(parse(tight, &s), 0);
	assert_int_equal(s.probe.size, 1040);
}

static void test_load_errors(void **state)
{
	struct calvin_chain_spec s;
	char err[CALVIN_ERR_MAX];

	assert_int_equal(calvin_spec_load("tests/no-such.yaml", &s, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "tests/no-such.yaml: cannot read: No such file or directory");
	assert_int_equal(calvin_spec_load("chains", &s, err, sizeof(err)), -EISDIR);
	assert_string_equal(err, "chains: cannot read: Is a directory");
}

static void test_err_buffer(void **state)
{
	static const char yaml[] = "name: C\n";
	struct calvin_chain_spec s;
	char err[8];

	memset(err, 'x', sizeof(err));
	assert_int_equal(calvin_spec_parse(yaml, strlen(yaml), "t.yaml", &s, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "t.yaml:");
	assert_int_equal(calvin_spec_parse(yaml, strlen(yaml), NULL, &s, NULL, 0), -EINVAL);
}

/* The text need not end in NUL: bytes past len must not be read. */
static void test_length_bound(void **state)
{
	static const char text[] = HEAD VNFS "garbage: [";
	struct calvin_chain_spec s;

	assert_int_equal(parse(text, &s), -EINVAL);
	assert_int_equal(calvin_spec_parse(text, strlen(HEAD VNFS), "t.yaml", &s, NULL, 0), 0);
}

/* Every prefix of a valid file either parses or gives one error line. */
static void test_truncations(void **state)
{
	static const char text[] = HEAD "placement: shared\n" VNFS "    burst: 1\n"
					"server: {name: s}\nprobe:\n  port: 99\n";
	struct calvin_chain_spec s;
	char err[CALVIN_ERR_MAX];
	size_t len;
	int ret;

	for (len = 0; len <= strlen(text); len++) {
		ret = calvin_spec_parse(text, len, "t.yaml", &s, err, sizeof(err));
		if (ret) {
			assert_int_equal(ret, -EINVAL);
			assert_int_equal(strncmp(err, "t.yaml:", 7), 0);
			assert_null(strchr(err, '\n'));
		}
	}
}

static void test_parse_duration(void **state)
{
	static const struct {
		const char *s;
		int ret;
		uint64_t ns;
	} cases[] = {
	    {"350us", 0, 350000},
	    {"0.35ms", 0, 350000},
	    {"1s", 0, 1000000000},
	    {"1.5s", 0, 1500000000},
	    {"1ns", 0, 1},
	    {"0ns", 0, 0},
	    {"007ms", 0, 7000000},
	    {"1.5ns", 0, 2},
	    {"1.4ns", 0, 1},
	    {"0.000000001s", 0, 1},
	    {"0.0000000004s", 0, 0},
	    {"1.0000000000000000000000001s", 0, 1000000000},
	    {"18446744073709551615ns", 0, UINT64_MAX},
	    {"18446744073.709551615s", 0, UINT64_MAX},
	    {"18446744073709551616ns", -EINVAL, 0},
	    {"18446744074s", -EINVAL, 0},
	    {"99999999999999999999999999s", -EINVAL, 0},
	    {"", -EINVAL, 0},
	    {"350", -EINVAL, 0},
	    {"0.35", -EINVAL, 0},
	    {"us", -EINVAL, 0},
	    {"350 us", -EINVAL, 0},
	    {" 350us", -EINVAL, 0},
	    {"350us ", -EINVAL, 0},
	    {"350xs", -EINVAL, 0},
	    {"350US", -EINVAL, 0},
	    {"350usx", -EINVAL, 0},
	    {"-1ms", -EINVAL, 0},
	    {"+1ms", -EINVAL, 0},
	    {".5ms", -EINVAL, 0},
	    {"5.ms", -EINVAL, 0},
	    {"1..2ms", -EINVAL, 0},
	    {"1e3ns", -EINVAL, 0},
	    {"fast", -EINVAL, 0},
	};
	unsigned int i;
	uint64_t ns;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ns = 12345;
		print_message("%s\n", cases[i].s);
		assert_int_equal(calvin_parse_duration(cases[i].s, &ns), cases[i].ret);
		assert_int_equal(ns, cases[i].ret ? 12345 : cases[i].ns);
	}
}

static void test_names(void **state)
{
	assert_string_equal(calvin_vnf_kind_name(CALVIN_VNF_FORWARD), "forward");
	assert_string_equal(calvin_space_name(CALVIN_KERNEL), "kernel");
	assert_string_equal(calvin_space_name(CALVIN_USER), "user");
	assert_string_equal(calvin_placement_name(CALVIN_PLACE_SHARED), "shared");
	assert_string_equal(calvin_placement_name(CALVIN_PLACE_PINNED), "pinned");
	assert_string_equal(calvin_placement_name(CALVIN_PLACE_ISOLATED), "isolated");
	assert_string_equal(calvin_backend_name(CALVIN_BACKEND_LIBVIRT), "libvirt");
	assert_string_equal(calvin_pmd_name(CALVIN_PMD_AF_PACKET), "af_packet");
	assert_string_equal(calvin_server_kind_name(CALVIN_SERVER_ECHO), "echo");
	assert_string_equal(calvin_probe_mode_name(CALVIN_PROBE_PINGPONG), "ping-pong");
	assert_string_equal(calvin_placement_name((enum calvin_placement)7), "?");
	assert_int_equal(calvin_word_lookup(calvin_pmd_words, "af_packet"), CALVIN_PMD_AF_PACKET);
	assert_int_equal(calvin_word_lookup(calvin_pmd_words, "af-packet"), -1);
	assert_true(calvin_name_valid("a"));
	assert_true(calvin_name_valid("fwd-1-k"));
	assert_true(calvin_name_valid("abcdefghijklmnopqrstuvwx"));
	assert_false(calvin_name_valid("abcdefghijklmnopqrstuvwxy"));
	assert_false(calvin_name_valid(""));
	assert_false(calvin_name_valid("-a"));
	assert_false(calvin_name_valid("a.b"));
	assert_false(calvin_name_valid("a b"));
}

#define GOOD_TESTS_MAX 16

static size_t good_tests(struct CMUnitTest *t)
{
	const struct CMUnitTest good[] = {
	    cmocka_unit_test(test_reference_file), cmocka_unit_test(test_minimal_defaults),
	    cmocka_unit_test(test_every_option),   cmocka_unit_test(test_probe_size_default),
	    cmocka_unit_test(test_load_errors),
	    cmocka_unit_test(test_err_buffer),	   cmocka_unit_test(test_length_bound),
	    cmocka_unit_test(test_truncations),	   cmocka_unit_test(test_parse_duration),
	    cmocka_unit_test(test_names),	   cmocka_unit_test(test_mtu),
	};

	memcpy(t, good, sizeof(good));
	return sizeof(good) / sizeof(good[0]);
}

int main(void)
{
	size_t nbad = sizeof(bad_cases) / sizeof(bad_cases[0]), i, n = 0;
	struct CMUnitTest *tests = calloc(nbad + GOOD_TESTS_MAX, sizeof(*tests));

	if (!tests)
		return 1;
	n = good_tests(tests);
	for (i = 0; i < nbad; i++, n++) {
		tests[n].name = bad_cases[i].name;
		tests[n].test_func = test_bad;
		tests[n].initial_state = (void *)&bad_cases[i];
	}
	return _cmocka_run_group_tests("chainspec", tests, n, NULL, NULL);
}
