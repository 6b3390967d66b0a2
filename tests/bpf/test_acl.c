// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* BPF_PROG_TEST_RUN tests of the ACL VNF (kernel/acl.bpf.c), table-driven, with its rule compiler.
 */
#include "vnf_test.h"
#include "acl.skel.h"
#include "acl_rules.h"

#define HIT_DEFAULT -1
#define HIT_NONE -2 /* never reaches the rules */

static struct {
	struct acl_bpf *skel;
	struct vnf_test t;
	struct calvin_acl_maps m;
} T;

static struct calvin_xdp_acl spec;

static struct calvin_xdp_acl_rule rule(uint8_t action, uint8_t proto)
{
	struct calvin_xdp_acl_rule r = { .action = action, .proto = proto };

	r.sport = (struct calvin_xdp_port_range){ 0, 65535 };
	r.dport = (struct calvin_xdp_port_range){ 0, 65535 };
	return r;
}

/* The rule set of the table below, in order. */
static void table_rules(struct calvin_xdp_acl *a)
{
	struct calvin_xdp_acl_rule *r = a->rules;

	memset(a, 0, sizeof(*a));
	a->default_action = CALVIN_XDP_ACL_ALLOW;
	r[0] = rule(CALVIN_XDP_ACL_DENY, IPPROTO_UDP); /* no DNS into 10/8 */
	r[0].dst = pfx("10.0.0.0", 8);
	r[0].dport = (struct calvin_xdp_port_range){ 53, 53 };
	r[1] = rule(CALVIN_XDP_ACL_ALLOW, IPPROTO_TCP); /* ssh/telnet from the lab */
	r[1].src = pfx("192.168.1.0", 24);
	r[1].dport = (struct calvin_xdp_port_range){ 22, 23 };
	r[2] = rule(CALVIN_XDP_ACL_DENY, IPPROTO_ICMP);
	r[3] = rule(CALVIN_XDP_ACL_ALLOW, IPPROTO_UDP);
	r[3].src = pfx("2001:db8::", 32);
	r[3].sport = (struct calvin_xdp_port_range){ 1000, 2000 };
	r[4] = rule(CALVIN_XDP_ACL_DENY, 0); /* the rest of 2001:db8::/32 as destination */
	r[4].dst = pfx("2001:db8::", 32);
	r[5] = rule(CALVIN_XDP_ACL_DENY, 44); /* IPv6 fragment header: see parse.bpf.h */
	r[6] = rule(CALVIN_XDP_ACL_DENY, 0);  /* port 9999 whatever the protocol, so TCP/UDP only */
	r[6].dport = (struct calvin_xdp_port_range){ 9999, 9999 };
	r[7] = rule(CALVIN_XDP_ACL_ALLOW, IPPROTO_TCP); /* host route, /32 */
	r[7].dst = pfx("172.16.0.9", 32);
	r[8] = rule(CALVIN_XDP_ACL_DENY, IPPROTO_TCP); /* rest of 172.16/12 for TCP */
	r[8].dst = pfx("172.16.0.0", 12);
	a->nr_rules = 9;
}

struct acl_row {
	const char *name;
	struct frame_spec s;
	const char *src, *dst;
	int verdict, hit;
	int spoil; /* 1: bad IPv4 header checksum, 2: ihl 4 */
};

#define V4 .family = 4
#define V6 .family = 6
#define UDP(sp, dp) .proto = IPPROTO_UDP, .sport = sp, .dport = dp
#define TCP(sp, dp) .proto = IPPROTO_TCP, .sport = sp, .dport = dp

static const struct acl_row rows[] = {
    {.name = "v4 udp dns into 10/8",
     .s = {V4, UDP(4000, 53)},
     .src = "10.9.0.1",
     .dst = "10.1.2.3",
     .verdict = XDP_DROP,
     .hit = 0},
    {.name = "v4 udp other port into 10/8",
     .s = {V4, UDP(4000, 54)},
     .src = "10.9.0.1",
     .dst = "10.1.2.3",
     .verdict = XDP_REDIRECT,
     .hit = HIT_DEFAULT},
    {.name = "v4 udp dns elsewhere",
     .s = {V4, UDP(4000, 53)},
     .src = "10.9.0.1",
     .dst = "11.1.2.3",
     .verdict = XDP_REDIRECT,
     .hit = HIT_DEFAULT},
    {.name = "v4 tcp ssh from lab",
     .s = {V4, TCP(50000, 22)},
     .src = "192.168.1.7",
     .dst = "10.1.2.3",
     .verdict = XDP_REDIRECT,
     .hit = 1},
    {.name = "v4 tcp telnet from lab",
     .s = {V4, TCP(50000, 23)},
     .src = "192.168.1.7",
     .dst = "10.1.2.3",
     .verdict = XDP_REDIRECT,
     .hit = 1},
    {.name = "v4 tcp ssh from elsewhere",
     .s = {V4, TCP(50000, 22)},
     .src = "192.168.2.7",
     .dst = "10.1.2.3",
     .verdict = XDP_REDIRECT,
     .hit = HIT_DEFAULT},
    {.name = "v4 icmp",
     .s = {V4, .proto = IPPROTO_ICMP},
     .src = "10.9.0.1",
     .dst = "10.1.2.3",
     .verdict = XDP_DROP,
     .hit = 2},
    {.name = "v6 icmpv6 is not icmp",
     .s = {V6, .proto = IPPROTO_ICMPV6},
     .src = "2001:db9::1",
     .dst = "2001:db9::2",
     .verdict = XDP_REDIRECT,
     .hit = HIT_DEFAULT},
    {.name = "v6 udp from doc range, sport in",
     .s = {V6, UDP(1500, 80)},
     .src = "2001:db8::1",
     .dst = "2001:db8::2",
     .verdict = XDP_REDIRECT,
     .hit = 3},
    {.name = "v6 udp from doc range, sport out",
     .s = {V6, UDP(3000, 80)},
     .src = "2001:db8::1",
     .dst = "2001:db8::2",
     .verdict = XDP_DROP,
     .hit = 4},
    {.name = "v6 tcp to doc range",
     .s = {V6, TCP(1500, 80)},
     .src = "2001:db9::1",
     .dst = "2001:db8:ffff::2",
     .verdict = XDP_DROP,
     .hit = 4},
    {.name = "v6 tcp elsewhere",
     .s = {V6, TCP(1500, 80)},
     .src = "2001:db9::1",
     .dst = "2001:db9::2",
     .verdict = XDP_REDIRECT,
     .hit = HIT_DEFAULT},
    {.name = "v6 fragment header is proto 44",
     .s = {V6, .proto = 44},
     .src = "2001:db9::1",
     .dst = "2001:db9::2",
     .verdict = XDP_DROP,
     .hit = 5},
    {.name = "v4 tcp 9999",
     .s = {V4, TCP(1, 9999)},
     .src = "10.9.0.1",
     .dst = "11.0.0.1",
     .verdict = XDP_DROP,
     .hit = 6},
    {.name = "v6 udp 9999",
     .s = {V6, UDP(1, 9999)},
     .src = "2001:db9::1",
     .dst = "2001:db9::2",
     .verdict = XDP_DROP,
     .hit = 6},
    {.name = "v4 proto 47 (no ports) 9999 rule misses",
     .s = {V4, .proto = 47},
     .src = "10.9.0.1",
     .dst = "11.0.0.1",
     .verdict = XDP_REDIRECT,
     .hit = HIT_DEFAULT},
    {.name = "v4 tcp /32 allowed",
     .s = {V4, TCP(1, 80)},
     .src = "10.9.0.1",
     .dst = "172.16.0.9",
     .verdict = XDP_REDIRECT,
     .hit = 7},
    {.name = "v4 tcp /32 neighbour denied",
     .s = {V4, TCP(1, 80)},
     .src = "10.9.0.1",
     .dst = "172.16.0.8",
     .verdict = XDP_DROP,
     .hit = 8},
    {.name = "v4 tcp /12 edge denied",
     .s = {V4, TCP(1, 80)},
     .src = "10.9.0.1",
     .dst = "172.31.255.255",
     .verdict = XDP_DROP,
     .hit = 8},
    {.name = "v4 tcp past /12 allowed",
     .s = {V4, TCP(1, 80)},
     .src = "10.9.0.1",
     .dst = "172.32.0.0",
     .verdict = XDP_REDIRECT,
     .hit = HIT_DEFAULT},
    {.name = "vlan v4 udp dns into 10/8",
     .s = {V4, UDP(4000, 53), .nr_vlans = 1},
     .src = "10.9.0.1",
     .dst = "10.1.2.3",
     .verdict = XDP_DROP,
     .hit = 0},
    {.name = "qinq v4 ssh from lab",
     .s = {V4, TCP(50000, 22), .nr_vlans = 2, .vlan_proto = {ETH_P_8021AD}},
     .src = "192.168.1.7",
     .dst = "10.1.2.3",
     .verdict = XDP_REDIRECT,
     .hit = 1},
    {.name = "qinq v6 tcp to doc range",
     .s = {V6, TCP(1, 1), .nr_vlans = 2},
     .src = "2001:db9::1",
     .dst = "2001:db8::2",
     .verdict = XDP_DROP,
     .hit = 4},
    {.name = "v4 options, dns into 10/8",
     .s = {V4, UDP(4000, 53), .ihl = 9},
     .src = "10.9.0.1",
     .dst = "10.1.2.3",
     .verdict = XDP_DROP,
     .hit = 0},
    {.name = "v4 first fragment has ports",
     .s = {V4, UDP(4000, 53), .frag_off = 0x2000},
     .src = "10.9.0.1",
     .dst = "10.1.2.3",
     .verdict = XDP_DROP,
     .hit = 0},
    /* No ports in a later fragment: port rules cannot match it (see acl.bpf.c). */
    {.name = "v4 later fragment has none",
     .s = {V4, UDP(4000, 53), .frag_off = 0x2010},
     .src = "10.9.0.1",
     .dst = "10.1.2.3",
     .verdict = XDP_REDIRECT,
     .hit = HIT_DEFAULT},
    {.name = "v4 later fragment, no port rule",
     .s = {V4, .proto = IPPROTO_ICMP, .frag_off = 185},
     .src = "10.9.0.1",
     .dst = "10.1.2.3",
     .verdict = XDP_DROP,
     .hit = 2},
    /* Header checksum is not verified: a bad one is forwarded as it is. */
    {.name = "v4 bad header checksum forwarded",
     .s = {V4, UDP(1, 80)},
     .src = "10.9.0.1",
     .dst = "11.0.0.1",
     .verdict = XDP_REDIRECT,
     .hit = HIT_DEFAULT,
     .spoil = 1},
    {.name = "v4 bad header checksum still denied",
     .s = {V4, UDP(1, 53)},
     .src = "10.9.0.1",
     .dst = "10.0.0.1",
     .verdict = XDP_DROP,
     .hit = 0,
     .spoil = 1},
    {.name = "v4 ihl 4 malformed",
     .s = {V4, UDP(1, 53)},
     .src = "10.9.0.1",
     .dst = "10.0.0.1",
     .verdict = XDP_DROP,
     .hit = HIT_NONE,
     .spoil = 2},
    {.name = "v4 ttl 0 is not the acl's business",
     .s = {V4, UDP(1, 80), .ttl_zero = true},
     .src = "10.9.0.1",
     .dst = "11.0.0.1",
     .verdict = XDP_REDIRECT,
     .hit = HIT_DEFAULT},
    {.name = "arp passed",
     .s = {.family = 0},
     .src = NULL,
     .dst = NULL,
     .verdict = XDP_PASS,
     .hit = HIT_NONE},
    {.name = "triple tag passed",
     .s = {V4, UDP(1, 53), .nr_vlans = 3},
     .src = "10.9.0.1",
     .dst = "10.0.0.1",
     .verdict = XDP_PASS,
     .hit = HIT_NONE},
};

static size_t build_row(uint8_t *f, const struct acl_row *r, struct frame_spec *s)
{
	size_t len;

	*s = r->s;
	if (r->src)
		spec_addrs(s, r->src, r->dst);
	len = build_frame(f, s, "payload!", 8);
	if (r->spoil == 1)
		f[frame_l3_off(s) + 10] ^= 0x5a;
	if (r->spoil == 2)
		f[frame_l3_off(s)] = 0x44;
	return len;
}

static uint64_t hits_of(int hit)
{
	uint32_t zero = 0, s;

	assert_int_equal(bpf_map_lookup_elem(T.m.active, &zero, &s), 0);
	return percpu_u64(T.m.hits,
			  s * CALVIN_XDP_ACL_HIT_STRIDE +
			      (hit == HIT_DEFAULT ? CALVIN_XDP_ACL_MAX_RULES : (uint32_t)hit));
}

static int setup(void **state)
{
	struct calvin_port east = vnf_port(true);
	uint32_t lo = IFINDEX_LO;

	reset_stats(T.t.stats);
	table_rules(&spec);
	assert_int_equal(bpf_map_update_elem(T.t.ports, &lo, &east, BPF_ANY), 0);
	return calvin_acl_write(&T.m, &spec);
}

static void table(void **state)
{
	struct calvin_port east = vnf_port(true);
	uint64_t drops = 0, before, before_default;
	uint8_t f[FRAME_MAX];
	struct frame_spec s;
	size_t i, len;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct acl_row *r = &rows[i];

		print_message("row %zu: %s\n", i, r->name);
		before = r->hit >= 0 ? hits_of(r->hit) : 0;
		before_default = hits_of(HIT_DEFAULT);
		len = build_row(f, r, &s);
		vnf_check_frame(&T.t, f, len, &s, r->verdict,
				r->verdict == XDP_REDIRECT ? OUT_MACS : OUT_SAME, &east);
		if (r->hit >= 0)
			assert_int_equal(hits_of(r->hit), before + 1);
		assert_int_equal(hits_of(HIT_DEFAULT), before_default + (r->hit == HIT_DEFAULT));
		drops += r->verdict == XDP_DROP && r->hit != HIT_NONE;
	}
	assert_int_equal(read_stats(T.t.stats, CALVIN_DIR_FWD).drop_acl, drops);
	assert_int_equal(read_stats(T.t.stats, CALVIN_DIR_FWD).drop_malformed, 1);
}

/* Every prefix of a frame: malformed until the IP header is whole; then no
 * ports until they are in, so port rules miss (rule 0, dport 53) and rules
 * without ports still hit (rule 4); then the verdict of the whole frame.
 * Never a crash. */
static void truncated_at_every_boundary(void **state)
{
	static const int pick[] = {0, 20, 22, 23};
	static const int no_ports[] = {XDP_REDIRECT, XDP_REDIRECT, XDP_DROP, XDP_REDIRECT};
	struct calvin_port east = vnf_port(true);
	uint8_t full[FRAME_MAX];
	struct frame_spec s;
	size_t i, n, len, l4;
	int verdict;

	for (i = 0; i < sizeof(pick) / sizeof(pick[0]); i++) {
		const struct acl_row *r = &rows[pick[i]];

		len = build_row(full, r, &s);
		l4 = frame_l4_off(&s);
		for (n = ETH_HLEN; n <= len; n++) {
			verdict = n < l4 ? XDP_DROP : n < l4 + 4 ? no_ports[i] : r->verdict;
			print_message("row %d cut at %zu\n", pick[i], n);
			vnf_check_frame(&T.t, full, n, &s, verdict,
					verdict == XDP_REDIRECT ? OUT_MACS : OUT_SAME, &east);
		}
	}
}

static void probe_allowed_is_stamped(void **state)
{
	struct frame_spec s = {
	    .family = 6, .proto = IPPROTO_UDP, .sport = 1500, .dport = TEST_PROBE_PORT};
	uint8_t f[FRAME_MAX];
	struct calvin_tlm tlm;
	size_t len, out;

	spec_addrs(&s, "2001:db8::1", "2001:db8::2"); /* rule 3 allows */
	out = len = build_frame_probe(f, &s, 4, 1);
	assert_int_equal(run_xdp(T.t.prog, IFINDEX_LO, f, &out), XDP_REDIRECT);
	assert_true(frame_csums_ok(f, &s, len));
	assert_int_equal(
	    calvin_tlm_decode(f + frame_payload_off(&s), len - frame_payload_off(&s), &tlm), 0);
	assert_int_equal(tlm.nr_hops, 2);
	assert_int_equal(tlm.hops[1].vnf_id, VNF_ID);
	assert_int_equal(hits_of(3), 1);
}

static void probe_denied_is_not_stamped(void **state)
{
	struct frame_spec s = {.family = 4, .proto = IPPROTO_UDP, .sport = 1, .dport = 9999};
	uint8_t f[FRAME_MAX], want[FRAME_MAX];
	size_t len, out;

	/* 9999 is denied by rule 6; make it the probe port's stand-in by
	 * denying the probe port too, ahead of everything. */
	memmove(&spec.rules[1], &spec.rules[0], spec.nr_rules * sizeof(spec.rules[0]));
	spec.rules[0] = rule(CALVIN_XDP_ACL_DENY, IPPROTO_UDP);
	spec.rules[0].dport = (struct calvin_xdp_port_range){ TEST_PROBE_PORT, TEST_PROBE_PORT };
	spec.nr_rules++;
	assert_int_equal(calvin_acl_write(&T.m, &spec), 0);
	s.dport = TEST_PROBE_PORT;
	spec_addrs(&s, "10.9.0.1", "11.0.0.1");
	out = len = build_frame_probe(f, &s, 4, 0);
	memcpy(want, f, len);
	assert_int_equal(run_xdp(T.t.prog, IFINDEX_LO, f, &out), XDP_DROP);
	assert_memory_equal(f, want, len);
	assert_int_equal(read_stats(T.t.stats, CALVIN_DIR_FWD).probes, 0);
	assert_int_equal(hits_of(0), 1);
}

/* A live update flips to the other set whole; the old set's rules stop
 * counting, the new ones start from 0. */
static void live_update_flips(void **state)
{
	struct calvin_port east = vnf_port(true);
	struct frame_spec s;
	uint8_t f[FRAME_MAX];
	uint32_t zero = 0, a0, a1;
	size_t len;

	len = build_row(f, &rows[3], &s); /* ssh from lab: rule 1 allows */
	vnf_check_frame(&T.t, f, len, &s, XDP_REDIRECT, OUT_MACS, &east);
	assert_int_equal(bpf_map_lookup_elem(T.m.active, &zero, &a0), 0);

	memset(&spec, 0, sizeof(spec));
	spec.default_action = CALVIN_XDP_ACL_DENY;
	spec.rules[0] = rule(CALVIN_XDP_ACL_ALLOW, IPPROTO_UDP);
	spec.nr_rules = 1;
	assert_int_equal(calvin_acl_write(&T.m, &spec), 0);
	assert_int_equal(bpf_map_lookup_elem(T.m.active, &zero, &a1), 0);
	assert_int_not_equal(a0, a1);
	assert_int_equal(hits_of(0), 0);
	vnf_check_frame(&T.t, f, len, &s, XDP_DROP, OUT_SAME, &east);
	assert_int_equal(hits_of(HIT_DEFAULT), 1);
	len = build_row(f, &rows[1], &s); /* udp: allowed now */
	vnf_check_frame(&T.t, f, len, &s, XDP_REDIRECT, OUT_MACS, &east);
	assert_int_equal(hits_of(0), 1);

	/* And back: the first set is rewritten, not reused stale. */
	table_rules(&spec);
	assert_int_equal(calvin_acl_write(&T.m, &spec), 0);
	assert_int_equal(bpf_map_lookup_elem(T.m.active, &zero, &a1), 0);
	assert_int_equal(a0, a1);
	len = build_row(f, &rows[3], &s);
	vnf_check_frame(&T.t, f, len, &s, XDP_REDIRECT, OUT_MACS, &east);
	assert_int_equal(hits_of(1), 1);
}

static void empty_rule_sets(void **state)
{
	struct calvin_port east = vnf_port(true);
	struct frame_spec s;
	uint8_t f[FRAME_MAX];
	size_t len = build_row(f, &rows[0], &s);

	memset(&spec, 0, sizeof(spec));
	spec.default_action = CALVIN_XDP_ACL_DENY;
	assert_int_equal(calvin_acl_write(&T.m, &spec), 0);
	vnf_check_frame(&T.t, f, len, &s, XDP_DROP, OUT_SAME, &east);
	spec.default_action = CALVIN_XDP_ACL_ALLOW;
	assert_int_equal(calvin_acl_write(&T.m, &spec), 0);
	vnf_check_frame(&T.t, f, len, &s, XDP_REDIRECT, OUT_MACS, &east);
	assert_int_equal(hits_of(HIT_DEFAULT), 1);
}

/* Rule 63 of 64 still matches: the walk covers the whole set. */
static void full_rule_set(void **state)
{
	struct calvin_port east = vnf_port(true);
	struct frame_spec s;
	uint8_t f[FRAME_MAX];
	size_t len = build_row(f, &rows[0], &s), i;

	memset(&spec, 0, sizeof(spec));
	for (i = 0; i < CALVIN_XDP_ACL_MAX_RULES; i++) {
		spec.rules[i] = rule(CALVIN_XDP_ACL_DENY, IPPROTO_TCP);
		spec.rules[i].dport.lo = spec.rules[i].dport.hi = (uint16_t)(100 + i);
	}
	spec.rules[CALVIN_XDP_ACL_MAX_RULES - 1].proto = IPPROTO_UDP;
	spec.rules[CALVIN_XDP_ACL_MAX_RULES - 1].dport = (struct calvin_xdp_port_range){ 53, 53 };
	spec.nr_rules = CALVIN_XDP_ACL_MAX_RULES;
	assert_int_equal(calvin_acl_write(&T.m, &spec), 0);
	vnf_check_frame(&T.t, f, len, &s, XDP_DROP, OUT_SAME, &east);
	assert_int_equal(hits_of(CALVIN_XDP_ACL_MAX_RULES - 1), 1);
}

static void bad_specs_refused(void **state)
{
	uint32_t zero = 0, a0, a1;

	assert_int_equal(bpf_map_lookup_elem(T.m.active, &zero, &a0), 0);
	table_rules(&spec);
	spec.nr_rules = CALVIN_XDP_ACL_MAX_RULES + 1;
	assert_int_equal(calvin_acl_write(&T.m, &spec), -E2BIG);
	table_rules(&spec);
	spec.rules[0].dst.len = 33;
	assert_int_equal(calvin_acl_write(&T.m, &spec), -EINVAL);
	table_rules(&spec);
	spec.rules[0].src = pfx("2001:db8::", 32); /* dst is IPv4 */
	assert_int_equal(calvin_acl_write(&T.m, &spec), -EINVAL);
	table_rules(&spec);
	spec.rules[0].sport = (struct calvin_xdp_port_range){ 10, 9 };
	assert_int_equal(calvin_acl_write(&T.m, &spec), -EINVAL);
	assert_int_equal(bpf_map_lookup_elem(T.m.active, &zero, &a1), 0);
	assert_int_equal(a0, a1); /* nothing flipped */
}

/* Host bits of a rule's prefix are ignored, as in any CIDR. */
static void prefix_host_bits_ignored(void **state)
{
	struct calvin_port east = vnf_port(true);
	struct frame_spec s;
	uint8_t f[FRAME_MAX];
	size_t len = build_row(f, &rows[0], &s);

	spec.rules[0].dst = pfx("10.200.3.4", 8);
	assert_int_equal(calvin_acl_write(&T.m, &spec), 0);
	vnf_check_frame(&T.t, f, len, &s, XDP_DROP, OUT_SAME, &east);
	assert_int_equal(hits_of(0), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(table, setup),
	    cmocka_unit_test_setup(truncated_at_every_boundary, setup),
	    cmocka_unit_test_setup(probe_allowed_is_stamped, setup),
	    cmocka_unit_test_setup(probe_denied_is_not_stamped, setup),
	    cmocka_unit_test_setup(live_update_flips, setup),
	    cmocka_unit_test_setup(empty_rule_sets, setup),
	    cmocka_unit_test_setup(full_rule_set, setup),
	    cmocka_unit_test_setup(bad_specs_refused, setup),
	    cmocka_unit_test_setup(prefix_host_bits_ignored, setup),
	};
	int err;

	VNF_TEST_LOAD(&T.t, T.skel, acl);
	T.m.rules = bpf_map__fd(T.skel->maps.acl_rules);
	T.m.sets = bpf_map__fd(T.skel->maps.acl_sets);
	T.m.active = bpf_map__fd(T.skel->maps.acl_active);
	T.m.hits = bpf_map__fd(T.skel->maps.acl_hits);
	err = cmocka_run_group_tests(tests, NULL, NULL);
	acl_bpf__destroy(T.skel);
	return err;
}
