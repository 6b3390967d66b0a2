// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* BPF_PROG_TEST_RUN tests of the router VNF (kernel/router.bpf.c), table-driven, with its route
 * loader. */
#include "vnf_test.h"
#include "router.skel.h"
#include "router_routes.h"

static struct {
	struct router_bpf *skel;
	struct vnf_test t;
	int routes4, routes6, via;
} T;

static struct calvin_xdp_routes spec;

static void add_route(struct calvin_xdp_routes *r, const char *addr, uint8_t len, uint32_t via)
{
	r->routes[r->nr_routes].prefix = pfx(addr, len);
	r->routes[r->nr_routes].via = via;
	r->nr_routes++;
}

static void table_routes(struct calvin_xdp_routes *r)
{
	memset(r, 0, sizeof(*r));
	add_route(r, "10.0.0.0", 8, CALVIN_XDP_VIA_EAST);
	add_route(r, "10.1.0.0", 16, CALVIN_XDP_VIA_WEST);
	add_route(r, "10.1.2.0", 24, CALVIN_XDP_VIA_DROP);
	add_route(r, "10.1.2.3", 32, CALVIN_XDP_VIA_EAST);
	add_route(r, "2001:db8::", 32, CALVIN_XDP_VIA_EAST);
	add_route(r, "2001:db8:1::", 48, CALVIN_XDP_VIA_WEST);
}

#define EAST 1
#define WEST 0
#define NONE -1 /* not forwarded */
#define C(field) offsetof(struct calvin_vnf_stats, field)

struct router_row {
	const char *name;
	struct frame_spec s;
	const char *src, *dst;
	int verdict, egress;
	size_t counter; /* the one counter the row adds 1 to, besides rx */
	int spoil;	/* 1: bad IPv4 header checksum, 2: ihl 4 */
	bool from_east; /* enters on the east port (REV) */
};

#define V4 .family = 4, .proto = IPPROTO_UDP, .sport = 1, .dport = 2
#define V6 .family = 6, .proto = IPPROTO_UDP, .sport = 1, .dport = 2
#define SRC4 "192.0.2.1"
#define SRC6 "2001:db9::1"

static const struct router_row rows[] = {
    {.name = "v4 /8 east",
     .s = {V4},
     .src = SRC4,
     .dst = "10.9.9.9",
     .verdict = XDP_REDIRECT,
     .egress = EAST,
     .counter = C(tx_packets)},
    {.name = "v4 /16 west",
     .s = {V4},
     .src = SRC4,
     .dst = "10.1.9.9",
     .verdict = XDP_REDIRECT,
     .egress = WEST,
     .counter = C(tx_packets)},
    {.name = "v4 /24 via drop",
     .s = {V4},
     .src = SRC4,
     .dst = "10.1.2.9",
     .verdict = XDP_DROP,
     .egress = NONE,
     .counter = C(drop_route)},
    {.name = "v4 /32 inside the /24",
     .s = {V4},
     .src = SRC4,
     .dst = "10.1.2.3",
     .verdict = XDP_REDIRECT,
     .egress = EAST,
     .counter = C(tx_packets)},
    {.name = "v4 no route",
     .s = {V4},
     .src = SRC4,
     .dst = "11.0.0.1",
     .verdict = XDP_DROP,
     .egress = NONE,
     .counter = C(drop_no_route)},
    {.name = "v4 tcp",
     .s = {.family = 4, .proto = IPPROTO_TCP},
     .src = SRC4,
     .dst = "10.9.9.9",
     .verdict = XDP_REDIRECT,
     .egress = EAST,
     .counter = C(tx_packets)},
    {.name = "v4 icmp",
     .s = {.family = 4, .proto = IPPROTO_ICMP},
     .src = SRC4,
     .dst = "10.1.0.1",
     .verdict = XDP_REDIRECT,
     .egress = WEST,
     .counter = C(tx_packets)},
    {.name = "v6 /32 east",
     .s = {V6},
     .src = SRC6,
     .dst = "2001:db8::5",
     .verdict = XDP_REDIRECT,
     .egress = EAST,
     .counter = C(tx_packets)},
    {.name = "v6 /48 west",
     .s = {V6},
     .src = SRC6,
     .dst = "2001:db8:1::5",
     .verdict = XDP_REDIRECT,
     .egress = WEST,
     .counter = C(tx_packets)},
    {.name = "v6 no route",
     .s = {V6},
     .src = SRC6,
     .dst = "2001:db9::2",
     .verdict = XDP_DROP,
     .egress = NONE,
     .counter = C(drop_no_route)},
    {.name = "v6 ext header routed",
     .s = {.family = 6, .proto = 0},
     .src = SRC6,
     .dst = "2001:db8::5",
     .verdict = XDP_REDIRECT,
     .egress = EAST,
     .counter = C(tx_packets)},
    {.name = "v4 ttl 2 leaves with 1",
     .s = {V4, .ttl = 2},
     .src = SRC4,
     .dst = "10.9.9.9",
     .verdict = XDP_REDIRECT,
     .egress = EAST,
     .counter = C(tx_packets)},
    {.name = "v4 ttl 1 expires",
     .s = {V4, .ttl = 1},
     .src = SRC4,
     .dst = "10.9.9.9",
     .verdict = XDP_DROP,
     .egress = NONE,
     .counter = C(drop_ttl)},
    {.name = "v4 ttl 0 expires",
     .s = {V4, .ttl_zero = true},
     .src = SRC4,
     .dst = "10.9.9.9",
     .verdict = XDP_DROP,
     .egress = NONE,
     .counter = C(drop_ttl)},
    {.name = "v4 ttl 255",
     .s = {V4, .ttl = 255},
     .src = SRC4,
     .dst = "10.9.9.9",
     .verdict = XDP_REDIRECT,
     .egress = EAST,
     .counter = C(tx_packets)},
    {.name = "v4 ttl 1 but no route",
     .s = {V4, .ttl = 1},
     .src = SRC4,
     .dst = "11.0.0.1",
     .verdict = XDP_DROP,
     .egress = NONE,
     .counter = C(drop_no_route)},
    {.name = "v6 hop limit 2",
     .s = {V6, .ttl = 2},
     .src = SRC6,
     .dst = "2001:db8::5",
     .verdict = XDP_REDIRECT,
     .egress = EAST,
     .counter = C(tx_packets)},
    {.name = "v6 hop limit 1 expires",
     .s = {V6, .ttl = 1},
     .src = SRC6,
     .dst = "2001:db8::5",
     .verdict = XDP_DROP,
     .egress = NONE,
     .counter = C(drop_ttl)},
    {.name = "v6 hop limit 0 expires",
     .s = {V6, .ttl_zero = true},
     .src = SRC6,
     .dst = "2001:db8::5",
     .verdict = XDP_DROP,
     .egress = NONE,
     .counter = C(drop_ttl)},
    {.name = "v4 options",
     .s = {V4, .ihl = 7},
     .src = SRC4,
     .dst = "10.9.9.9",
     .verdict = XDP_REDIRECT,
     .egress = EAST,
     .counter = C(tx_packets)},
    {.name = "v4 max options",
     .s = {V4, .ihl = 15},
     .src = SRC4,
     .dst = "10.1.9.9",
     .verdict = XDP_REDIRECT,
     .egress = WEST,
     .counter = C(tx_packets)},
    {.name = "vlan v4",
     .s = {V4, .nr_vlans = 1},
     .src = SRC4,
     .dst = "10.9.9.9",
     .verdict = XDP_REDIRECT,
     .egress = EAST,
     .counter = C(tx_packets)},
    {.name = "qinq v4",
     .s = {V4, .nr_vlans = 2, .vlan_proto = {ETH_P_8021AD}},
     .src = SRC4,
     .dst = "10.1.9.9",
     .verdict = XDP_REDIRECT,
     .egress = WEST,
     .counter = C(tx_packets)},
    {.name = "qinq v6",
     .s = {V6, .nr_vlans = 2},
     .src = SRC6,
     .dst = "2001:db8:1::1",
     .verdict = XDP_REDIRECT,
     .egress = WEST,
     .counter = C(tx_packets)},
    {.name = "triple tag passed",
     .s = {V4, .nr_vlans = 3},
     .src = SRC4,
     .dst = "10.9.9.9",
     .verdict = XDP_PASS,
     .egress = NONE,
     .counter = C(pass_other)},
    {.name = "v4 first fragment",
     .s = {V4, .frag_off = 0x2000},
     .src = SRC4,
     .dst = "10.9.9.9",
     .verdict = XDP_REDIRECT,
     .egress = EAST,
     .counter = C(tx_packets)},
    {.name = "v4 later fragment",
     .s = {V4, .frag_off = 0x0100},
     .src = SRC4,
     .dst = "10.9.9.9",
     .verdict = XDP_REDIRECT,
     .egress = EAST,
     .counter = C(tx_packets)},
    /* Not verified: forwarded with the TTL decremented and the checksum
     * updated incrementally, so it stays exactly as wrong as it came. */
    {.name = "v4 bad header checksum",
     .s = {V4},
     .src = SRC4,
     .dst = "10.9.9.9",
     .verdict = XDP_REDIRECT,
     .egress = EAST,
     .counter = C(tx_packets),
     .spoil = 1},
    {.name = "v4 ihl 4 malformed",
     .s = {V4},
     .src = SRC4,
     .dst = "10.9.9.9",
     .verdict = XDP_DROP,
     .egress = NONE,
     .counter = C(drop_malformed),
     .spoil = 2},
    {.name = "arp passed",
     .s = {.family = 0},
     .src = NULL,
     .dst = NULL,
     .verdict = XDP_PASS,
     .egress = NONE,
     .counter = C(pass_other)},
    {.name = "from east, routed back east",
     .s = {V4},
     .src = SRC4,
     .dst = "10.9.9.9",
     .verdict = XDP_REDIRECT,
     .egress = EAST,
     .counter = C(tx_packets),
     .spoil = 0,
     .from_east = true},
    {.name = "from east, routed west",
     .s = {V6},
     .src = SRC6,
     .dst = "2001:db8:1::1",
     .verdict = XDP_REDIRECT,
     .egress = WEST,
     .counter = C(tx_packets),
     .spoil = 0,
     .from_east = true},
};

static size_t build_row(uint8_t *f, const struct router_row *r, struct frame_spec *s)
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

static void enter_from(bool east)
{
	/* Frames entering east are REV, and the forwarder's entry for them is
	 * the one of frames leaving west. */
	struct calvin_port p = vnf_port(!east);
	uint32_t lo = IFINDEX_LO;

	assert_int_equal(bpf_map_update_elem(T.t.ports, &lo, &p, BPF_ANY), 0);
}

static int setup(void **state)
{
	struct calvin_port west = vnf_port(false), east = vnf_port(true);
	uint32_t k;

	reset_stats(T.t.stats);
	enter_from(false);
	k = CALVIN_XDP_VIA_WEST;
	assert_int_equal(bpf_map_update_elem(T.via, &k, &west, BPF_ANY), 0);
	k = CALVIN_XDP_VIA_EAST;
	assert_int_equal(bpf_map_update_elem(T.via, &k, &east, BPF_ANY), 0);
	table_routes(&spec);
	return calvin_router_write(T.routes4, T.routes6, &spec);
}

static uint64_t counter(uint32_t dir, size_t off)
{
	struct calvin_vnf_stats st = read_stats(T.t.stats, dir);
	uint64_t v;

	memcpy(&v, (const uint8_t *)&st + off, sizeof(v));
	return v;
}

static void run_row(const struct router_row *r)
{
	uint32_t dir = r->from_east ? CALVIN_DIR_REV : CALVIN_DIR_FWD;
	struct calvin_port out = vnf_port(r->egress == EAST);
	uint64_t before = counter(dir, r->counter);
	uint8_t f[FRAME_MAX];
	struct frame_spec s;
	size_t len = build_row(f, r, &s);

	enter_from(r->from_east);
	vnf_check_frame(&T.t, f, len, &s, r->verdict, r->egress == NONE ? OUT_SAME : OUT_MACS_TTL,
			&out);
	assert_int_equal(counter(dir, r->counter), before + 1);
}

static void table(void **state)
{
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		print_message("row %zu: %s\n", i, rows[i].name);
		run_row(&rows[i]);
	}
}

/* Every prefix of each row's frame: malformed while the IP header is
 * incomplete, then routed like the whole frame (only the IP header is read). */
static void truncated_at_every_boundary(void **state)
{
	static const int pick[] = {0, 7, 19, 22, 23};
	struct frame_spec s;
	uint8_t full[FRAME_MAX];
	size_t i, n, len;
	int verdict;

	for (i = 0; i < sizeof(pick) / sizeof(pick[0]); i++) {
		const struct router_row *r = &rows[pick[i]];
		struct calvin_port out = vnf_port(r->egress == EAST);

		len = build_row(full, r, &s);
		for (n = ETH_HLEN; n <= len; n++) {
			verdict = n < frame_l4_off(&s) ? XDP_DROP : r->verdict;
			print_message("row %d cut at %zu\n", pick[i], n);
			vnf_check_frame(&T.t, full, n, &s, verdict,
					verdict == XDP_DROP ? OUT_SAME : OUT_MACS_TTL, &out);
		}
	}
}

/* The incremental IPv4 checksum against a full recomputation, over every
 * TTL and many headers, so every carry case comes up. */
static void checksum_every_ttl(void **state)
{
	struct calvin_port out = vnf_port(true);
	struct frame_spec s = {V4};
	uint8_t f[FRAME_MAX];
	unsigned int ttl, id;
	size_t len;

	for (ttl = 2; ttl <= 255; ttl++) {
		for (id = 0; id < 16; id++) {
			s.ttl = (uint8_t)ttl;
			spec_addrs(&s, SRC4, "10.9.9.9");
			s.src[2] = (uint8_t)(id * 17);
			s.src[3] = (uint8_t)(ttl * 7 + id);
			len = build_frame(f, &s, "payload!", 8);
			vnf_check_frame(&T.t, f, len, &s, XDP_REDIRECT, OUT_MACS_TTL, &out);
		}
	}
}

static void probe_stamped_when_routed(void **state)
{
	struct frame_spec s = {
	    .family = 6, .proto = IPPROTO_UDP, .sport = 1, .dport = TEST_PROBE_PORT};
	uint8_t f[FRAME_MAX];
	struct calvin_tlm tlm;
	size_t len, out;

	spec_addrs(&s, SRC6, "2001:db8:1::1"); /* west, from the west port */
	out = len = build_frame_probe(f, &s, 4, 0);
	assert_int_equal(run_xdp(T.t.prog, IFINDEX_LO, f, &out), XDP_REDIRECT);
	assert_true(frame_csums_ok(f, &s, len));
	assert_int_equal(f[frame_l3_off(&s) + 7], 63);
	assert_int_equal(
	    calvin_tlm_decode(f + frame_payload_off(&s), len - frame_payload_off(&s), &tlm), 0);
	assert_int_equal(tlm.nr_hops, 1);
	assert_int_equal(tlm.hops[0].vnf_id, VNF_ID);
	assert_int_equal(tlm.hops[0].dir, CALVIN_DIR_FWD);
	assert_memory_equal(f, mac_probe, ETH_ALEN); /* out west: to the probe */
}

static unsigned int trie_size(int fd, size_t key_size)
{
	uint8_t k[sizeof(struct calvin_lpm6_key)], next[sizeof(k)];
	unsigned int n = 0;

	assert_true(key_size <= sizeof(k));
	while (!bpf_map_get_next_key(fd, n ? k : NULL, next)) {
		memcpy(k, next, key_size);
		n++;
	}
	return n;
}

/* An update adds, replaces and deletes; a default route of family 0 goes
 * into both tries. */
static void live_update(void **state)
{
	assert_int_equal(trie_size(T.routes4, sizeof(struct calvin_lpm4_key)), 4);
	assert_int_equal(trie_size(T.routes6, sizeof(struct calvin_lpm6_key)), 2);

	memset(&spec, 0, sizeof(spec));
	add_route(&spec, "10.0.0.0", 8, CALVIN_XDP_VIA_EAST);  /* kept */
	add_route(&spec, "10.1.0.0", 16, CALVIN_XDP_VIA_EAST); /* changed */
	add_route(&spec, "10.1.2.3", 32, CALVIN_XDP_VIA_DROP); /* changed; /24 deleted */
	spec.routes[spec.nr_routes++] =
	    (struct calvin_xdp_route){ .via = CALVIN_XDP_VIA_WEST }; /* any */
	assert_int_equal(calvin_router_write(T.routes4, T.routes6, &spec), 0);
	assert_int_equal(trie_size(T.routes4, sizeof(struct calvin_lpm4_key)), 4);
	assert_int_equal(trie_size(T.routes6, sizeof(struct calvin_lpm6_key)), 1);

	static const struct router_row after[] = {
	    {.name = "kept",
	     .s = {V4},
	     .src = SRC4,
	     .dst = "10.9.9.9",
	     .verdict = XDP_REDIRECT,
	     .egress = EAST,
	     .counter = C(tx_packets)},
	    {.name = "changed",
	     .s = {V4},
	     .src = SRC4,
	     .dst = "10.1.9.9",
	     .verdict = XDP_REDIRECT,
	     .egress = EAST,
	     .counter = C(tx_packets)},
	    {.name = "deleted /24 falls to /16",
	     .s = {V4},
	     .src = SRC4,
	     .dst = "10.1.2.9",
	     .verdict = XDP_REDIRECT,
	     .egress = EAST,
	     .counter = C(tx_packets)},
	    {.name = "changed /32",
	     .s = {V4},
	     .src = SRC4,
	     .dst = "10.1.2.3",
	     .verdict = XDP_DROP,
	     .egress = NONE,
	     .counter = C(drop_route)},
	    {.name = "default v4",
	     .s = {V4},
	     .src = SRC4,
	     .dst = "11.0.0.1",
	     .verdict = XDP_REDIRECT,
	     .egress = WEST,
	     .counter = C(tx_packets)},
	    {.name = "default v6",
	     .s = {V6},
	     .src = SRC6,
	     .dst = "2001:db8::5",
	     .verdict = XDP_REDIRECT,
	     .egress = WEST,
	     .counter = C(tx_packets)},
	};
	for (size_t i = 0; i < sizeof(after) / sizeof(after[0]); i++) {
		print_message("after update: %s\n", after[i].name);
		run_row(&after[i]);
	}

	memset(&spec, 0, sizeof(spec));
	assert_int_equal(calvin_router_write(T.routes4, T.routes6, &spec), 0);
	assert_int_equal(trie_size(T.routes4, sizeof(struct calvin_lpm4_key)), 0);
	assert_int_equal(trie_size(T.routes6, sizeof(struct calvin_lpm6_key)), 0);
	run_row(&rows[0] + 4); /* no route now for anything; row 4 expects that */
}

/* Host bits of a prefix do not make a second route. */
static void host_bits_normalised(void **state)
{
	memset(&spec, 0, sizeof(spec));
	add_route(&spec, "10.1.2.3", 8, CALVIN_XDP_VIA_EAST);
	add_route(&spec, "10.0.0.0", 8, CALVIN_XDP_VIA_EAST);
	assert_int_equal(calvin_router_write(T.routes4, T.routes6, &spec), 0);
	assert_int_equal(trie_size(T.routes4, sizeof(struct calvin_lpm4_key)), 1);
}

static void bad_specs_refused(void **state)
{
	table_routes(&spec);
	spec.nr_routes = CALVIN_XDP_ROUTER_MAX_ROUTES + 1;
	assert_int_equal(calvin_router_write(T.routes4, T.routes6, &spec), -E2BIG);
	table_routes(&spec);
	spec.routes[0].prefix.len = 33;
	assert_int_equal(calvin_router_write(T.routes4, T.routes6, &spec), -EINVAL);
	table_routes(&spec);
	spec.routes[0].via = 7;
	assert_int_equal(calvin_router_write(T.routes4, T.routes6, &spec), -EINVAL);
	/* Nothing was written: the table's routes still hold. */
	run_row(&rows[1]);
}

/* A full table of CALVIN_XDP_ROUTER_MAX_ROUTES routes fits, and so does a
 * whole new one on top of it while the update runs. */
static void full_table(void **state)
{
	char addr[32];
	unsigned int i;

	memset(&spec, 0, sizeof(spec));
	for (i = 0; i < CALVIN_XDP_ROUTER_MAX_ROUTES; i++) {
		snprintf(addr, sizeof(addr), "10.%u.%u.0", i / 16, i % 16);
		add_route(&spec, addr, 24, i % 2 ? CALVIN_XDP_VIA_WEST : CALVIN_XDP_VIA_EAST);
	}
	assert_int_equal(calvin_router_write(T.routes4, T.routes6, &spec), 0);
	assert_int_equal(trie_size(T.routes4, sizeof(struct calvin_lpm4_key)),
			 CALVIN_XDP_ROUTER_MAX_ROUTES);
	/* and a live update to another full table, none in common */
	memset(&spec, 0, sizeof(spec));
	for (i = 0; i < CALVIN_XDP_ROUTER_MAX_ROUTES; i++) {
		snprintf(addr, sizeof(addr), "11.%u.%u.0", i / 16, i % 16);
		add_route(&spec, addr, 24, CALVIN_XDP_VIA_WEST);
	}
	assert_int_equal(calvin_router_write(T.routes4, T.routes6, &spec), 0);
	assert_int_equal(trie_size(T.routes4, sizeof(struct calvin_lpm4_key)),
			 CALVIN_XDP_ROUTER_MAX_ROUTES);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(table, setup),
	    cmocka_unit_test_setup(truncated_at_every_boundary, setup),
	    cmocka_unit_test_setup(checksum_every_ttl, setup),
	    cmocka_unit_test_setup(probe_stamped_when_routed, setup),
	    cmocka_unit_test_setup(live_update, setup),
	    cmocka_unit_test_setup(host_bits_normalised, setup),
	    cmocka_unit_test_setup(bad_specs_refused, setup),
	    cmocka_unit_test_setup(full_table, setup),
	};
	int err;

	VNF_TEST_LOAD(&T.t, T.skel, router);
	T.routes4 = bpf_map__fd(T.skel->maps.routes4);
	T.routes6 = bpf_map__fd(T.skel->maps.routes6);
	T.via = bpf_map__fd(T.skel->maps.router_via);
	err = cmocka_run_group_tests(tests, NULL, NULL);
	router_bpf__destroy(T.skel);
	return err;
}
