// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* BPF_PROG_TEST_RUN tests of the forwarding VNF (kernel/forward.bpf.c): verdicts, rewrites, stamps,
 * stats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "forward.skel.h"
#include "frames_l3.h"

#define VNF_ID 5
/* The kernel needs a real device behind ingress_ifindex and the devmap:
 * lo exists in every namespace. Each test points lo's port entry the way
 * it wants the frame to go. */
#define IFINDEX_LO 1

static const uint8_t mac_vnf_e[ETH_ALEN] = {0x02, 0, 0, 0, 0, 0x0b};
static const uint8_t mac_server[ETH_ALEN] = {0x02, 0, 0, 0, 0, 0x02};

static const struct udp_spec to_server = {
    .saddr = 0x0a460001, .daddr = 0x0a460002, .sport = 40000, .dport = TEST_PROBE_PORT, .ihl = 5};
static const struct udp_spec to_probe = {
    .saddr = 0x0a460002, .daddr = 0x0a460001, .sport = TEST_PROBE_PORT, .dport = 40000, .ihl = 5};

static struct {
	struct forward_bpf *skel;
	int prog, ports, egress, stats;
	struct calvin_port port; /* what lo's entry says now */
} T;

static void set_port(uint8_t dir)
{
	uint32_t key = IFINDEX_LO;

	memset(&T.port, 0, sizeof(T.port));
	T.port.dir = dir;
	T.port.egress_slot = dir == CALVIN_DIR_FWD ? CALVIN_SLOT_EAST : CALVIN_SLOT_WEST;
	memcpy(T.port.egress_mac, dir == CALVIN_DIR_FWD ? mac_vnf_e : mac_vnf_w, ETH_ALEN);
	memcpy(T.port.peer_mac, dir == CALVIN_DIR_FWD ? mac_server : mac_probe, ETH_ALEN);
	assert_int_equal(bpf_map_update_elem(T.ports, &key, &T.port, BPF_ANY), 0);
}

static int setup_fwd(void **state)
{
	reset_stats(T.stats);
	set_port(CALVIN_DIR_FWD);
	return 0;
}

/* What a forwarded frame must look like when nothing but the MACs changed. */
static void expect_forwarded(uint8_t *f)
{
	memcpy(f, T.port.peer_mac, ETH_ALEN);
	memcpy(f + ETH_ALEN, T.port.egress_mac, ETH_ALEN);
}

/* Run a probe and check it was redirected with exactly one record added. */
static void check_stamp(const uint8_t *in, size_t len, unsigned int ihl)
{
	size_t plen = len - PAYLOAD_OFF(ihl), out_len = len;
	struct calvin_tlm before, after;
	uint8_t out[FRAME_MAX], want[FRAME_MAX];
	struct udphdr *udp = (struct udphdr *)(want + L4_OFF(ihl));
	const struct calvin_hop *hop;

	assert_int_equal(calvin_tlm_decode(in + PAYLOAD_OFF(ihl), plen, &before), 0);
	memcpy(out, in, len);
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, out, &out_len), XDP_REDIRECT);
	assert_int_equal(out_len, len);
	assert_int_equal(calvin_tlm_decode(out + PAYLOAD_OFF(ihl), plen, &after), 0);
	assert_int_equal(after.nr_hops, before.nr_hops + 1);
	assert_int_equal(after.flags, before.flags);
	hop = &after.hops[before.nr_hops];
	assert_int_equal(hop->vnf_id, VNF_ID);
	assert_int_equal(hop->space, CALVIN_SPACE_KERNEL);
	assert_int_equal(hop->clock, CALVIN_CLOCK_HOST_MONO);
	assert_int_equal(hop->dir, T.port.dir);
	assert_true(hop->t_in > 0);
	assert_true(hop->t_in <= hop->t_out);

	/* Everything else is as sent: MACs rewritten, the checksum updated so
	 * it still verifies, and the same record the codec would have appended. */
	assert_int_equal(udp_csum_check((const struct iphdr *)(out + ETH_HLEN)), 0);
	memcpy(want, in, len);
	expect_forwarded(want);
	udp->check = ((struct udphdr *)(out + L4_OFF(ihl)))->check;
	assert_int_equal(calvin_tlm_push_hop(want + PAYLOAD_OFF(ihl), plen, hop), before.nr_hops);
	assert_memory_equal(out, want, len);
}

static void probe_fwd_stamped(void **state)
{
	uint8_t f[FRAME_MAX];

	check_stamp(f, build_probe(f, &to_server, 4, 0), 5);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).probes, 1);
}

/* The reply travels from the probe port, so the source port matches. */
static void probe_rev_stamped(void **state)
{
	uint8_t f[FRAME_MAX];

	set_port(CALVIN_DIR_REV);
	check_stamp(f, build_probe(f, &to_probe, 4, 1), 5);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_REV).probes, 1);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).rx_packets, 0);
}

static void probe_appends_after_other_hops(void **state)
{
	uint8_t f[FRAME_MAX];

	check_stamp(f, build_probe(f, &to_server, CALVIN_TLM_MAX_HOPS, CALVIN_TLM_MAX_HOPS - 1), 5);
}

static void probe_with_ip_options(void **state)
{
	struct udp_spec s = to_server;
	uint8_t f[FRAME_MAX];

	s.ihl = 7;
	check_stamp(f, build_probe(f, &s, 2, 0), 7);
}

static void probe_without_udp_checksum(void **state)
{
	struct udp_spec s = to_server;
	uint8_t f[FRAME_MAX];

	s.no_udp_csum = 1;
	check_stamp(f, build_probe(f, &s, 3, 0), 5);
}

static void full_block_flags_overflow(void **state)
{
	uint8_t f[FRAME_MAX], want[FRAME_MAX];
	size_t len = build_probe(f, &to_server, 2, 2), out_len = len;
	struct calvin_tlm tlm;

	memcpy(want, f, len);
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &out_len), XDP_REDIRECT);
	assert_int_equal(calvin_tlm_decode(f + PAYLOAD_OFF(5), len - PAYLOAD_OFF(5), &tlm), 0);
	assert_int_equal(tlm.nr_hops, 2);
	assert_int_equal(tlm.flags, CALVIN_TLM_F_OVERFLOW);
	expect_forwarded(want);
	assert_int_equal(udp_csum_check((const struct iphdr *)(f + ETH_HLEN)), 0);
	((struct udphdr *)(want + L4_OFF(5)))->check = ((struct udphdr *)(f + L4_OFF(5)))->check;
	want[PAYLOAD_OFF(5) + offsetof(struct calvin_tlm_hdr, flags)] = CALVIN_TLM_F_OVERFLOW;
	assert_memory_equal(f, want, len);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).tlm_overflow, 1);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).probes, 0);
}

/* Redirected with nothing but the MACs changed. */
static void check_forwarded_untouched(uint8_t *f, size_t len)
{
	uint8_t want[FRAME_MAX];
	size_t out_len = len;

	memcpy(want, f, len);
	expect_forwarded(want);
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &out_len), XDP_REDIRECT);
	assert_int_equal(out_len, len);
	assert_memory_equal(f, want, len);
}

/* A probe of a 32-VNF chain: its last record (index 63, where the mask
 * must hold) is stamped; a full one overflows. */
static void probe_of_32_vnfs(void **state)
{
	uint8_t f[FRAME_MAX];
	size_t len, out_len;
	struct calvin_tlm tlm;

	check_stamp(f, build_probe(f, &to_server, 64, 0), 5);
	check_stamp(f, build_probe(f, &to_server, 64, 63), 5);
	out_len = len = build_probe(f, &to_server, 64, 64);
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &out_len), XDP_REDIRECT);
	assert_int_equal(calvin_tlm_decode(f + PAYLOAD_OFF(5), len - PAYLOAD_OFF(5), &tlm), 0);
	assert_int_equal(tlm.nr_hops, 64);
	assert_int_equal(tlm.flags, CALVIN_TLM_F_OVERFLOW);
	assert_int_equal(udp_csum_check((const struct iphdr *)(f + ETH_HLEN)), 0);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).probes, 2);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).tlm_overflow, 1);
}

/* Every cut of a 64-record block, from the UDP header on: forwarded as it
 * is until the whole block is there, then stamped. */
static void truncated_blocks(void **state)
{
	uint8_t full[FRAME_MAX], f[FRAME_MAX];
	size_t len = build_probe(full, &to_server, 64, 10);
	size_t end = PAYLOAD_OFF(5) + CALVIN_TLM_LEN(64), n;

	for (n = L4_OFF(5); n <= len; n++) {
		memcpy(f, full, n);
		if (n < end)
			check_forwarded_untouched(f, n);
	}
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).probes, 0);
	check_stamp(full, len, 5);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).probes, 1);
}

static void non_probe_udp_untouched(void **state)
{
	struct udp_spec s = to_server;
	uint8_t f[FRAME_MAX], payload[FRAME_MAX];

	/* Even a telemetry block is no probe on another port. */
	s.dport = TEST_APP_PORT;
	check_forwarded_untouched(f, build_udp(f, &s, payload, build_probe_payload(payload, 4, 0)));
	check_forwarded_untouched(f, build_udp(f, &s, "hello", 5));
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).probes, 0);
}

/* Blocks a decoder must reject are forwarded as they are. */
static void bad_telemetry_not_stamped(void **state)
{
	static const struct {
		size_t off;
		uint8_t val;
	} bad[] = {
	    {0, 'X'}, /* magic */
	    {4, 1},   /* version 1: 24-byte records */
	    {4, 3},   /* a version to come */
	    {5, 0},   /* max_hops */
	    {5, CALVIN_TLM_MAX_HOPS + 1},
	    {6, 5},    /* nr_hops > max_hops */
	    {7, 0x02}, /* a flag this version does not define */
	    {7, 0x80},
	    {5, 5}, /* block longer than the packet */
	};
	const size_t n = sizeof(bad) / sizeof(bad[0]);
	uint8_t f[FRAME_MAX];
	size_t i, len;

	for (i = 0; i < n; i++) {
		len = build_probe(f, &to_server, 4, 0);
		f[PAYLOAD_OFF(5) + bad[i].off] = bad[i].val;
		if (i == n - 1)
			len = PAYLOAD_OFF(5) + CALVIN_TLM_LEN(5) - 1;
		check_forwarded_untouched(f, len);
	}
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).probes, 0);
}

static void fragments_not_stamped(void **state)
{
	struct udp_spec s = to_server;
	uint8_t f[FRAME_MAX];

	s.frag_off = 0x2000; /* more fragments */
	check_forwarded_untouched(f, build_probe(f, &s, 4, 0));
	s.frag_off = 0x0001; /* a later fragment that happens to look like a probe */
	check_forwarded_untouched(f, build_probe(f, &s, 4, 0));
}

/* Every prefix of a probe up to its telemetry block: dropped while the IPv4
 * header is incomplete, forwarded unstamped after that; never a crash.
 * (A prefix holding the whole block is a probe: IP and UDP lengths are not
 * checked against the frame.) */
static void truncated_frames(void **state)
{
	uint8_t full[FRAME_MAX], f[FRAME_MAX];
	size_t len = PAYLOAD_OFF(5) + CALVIN_TLM_LEN(4), n, out_len;
	uint64_t drops = 0;
	int verdict;

	build_probe(full, &to_server, 4, 0);
	for (n = 0; n < len; n++) {
		memcpy(f, full, n);
		out_len = n;
		if (n >= ETH_HLEN + sizeof(struct iphdr)) {
			check_forwarded_untouched(f, n);
			continue;
		}
		verdict = run_xdp(T.prog, IFINDEX_LO, f, &out_len);
		if (n < ETH_HLEN && verdict == -EINVAL)
			continue; /* BPF_PROG_TEST_RUN refuses runts itself */
		assert_int_equal(verdict, XDP_DROP);
		drops++;
	}
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).drop_malformed, drops);
	assert_true(drops >= sizeof(struct iphdr));
}

static void arp_passed(void **state)
{
	uint8_t f[FRAME_MAX], want[FRAME_MAX];
	size_t len = build_arp(f);

	memcpy(want, f, len);
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &len), XDP_PASS);
	assert_memory_equal(f, want, len);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).pass_other, 1);
}

static void bad_ipv4_dropped(void **state)
{
	uint8_t f[FRAME_MAX];
	size_t len;

	len = build_probe(f, &to_server, 4, 0);
	f[ETH_HLEN] = 0x65; /* version 6 under an IPv4 ethertype */
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &len), XDP_DROP);
	len = build_probe(f, &to_server, 4, 0);
	f[ETH_HLEN] = 0x44; /* ihl 4 */
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &len), XDP_DROP);
	len = build_probe(f, &to_server, 4, 0);
	f[ETH_HLEN] = 0x4f; /* 60 bytes of header in a 34-byte frame */
	len = ETH_HLEN + 20;
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &len), XDP_DROP);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).drop_malformed, 3);
}

/* A probe of s, tagged or IPv6: stamped once, checksums still valid, all
 * else as sent but the MACs. */
static void check_stamp_spec(const struct frame_spec *s, uint8_t max_hops, uint8_t nr_hops)
{
	uint8_t in[FRAME_MAX], out[FRAME_MAX];
	size_t len = build_frame_probe(in, s, max_hops, nr_hops), out_len = len;
	unsigned int pay = frame_payload_off(s), coff = frame_csum_off(s);
	struct calvin_tlm after;

	memcpy(out, in, len);
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, out, &out_len), XDP_REDIRECT);
	assert_int_equal(out_len, len);
	assert_true(frame_csums_ok(out, s, len));
	assert_int_equal(calvin_tlm_decode(out + pay, len - pay, &after), 0);
	assert_int_equal(after.nr_hops, nr_hops + 1);
	assert_int_equal(after.hops[nr_hops].vnf_id, VNF_ID);
	assert_int_equal(after.hops[nr_hops].dir, T.port.dir);
	expect_forwarded(in);
	assert_int_equal(calvin_tlm_push_hop(in + pay, len - pay, &after.hops[nr_hops]), nr_hops);
	memcpy(in + coff, out + coff, 2);
	assert_memory_equal(out, in, len);
}

static const struct frame_spec v6_probe = {.family = 6,
					   .src = {0x20, 0x01, 0x0d, 0xb8, [15] = 1},
					   .dst = {0x20, 0x01, 0x0d, 0xb8, [15] = 2},
					   .sport = 40000,
					   .dport = TEST_PROBE_PORT};
static const struct frame_spec v4_probe = {.family = 4,
					   .src = {10, 70, 0, 1},
					   .dst = {10, 70, 0, 2},
					   .sport = 40000,
					   .dport = TEST_PROBE_PORT};

static void ipv6_probe_stamped(void **state)
{
	check_stamp_spec(&v6_probe, 4, 0);
	check_stamp_spec(&v6_probe, CALVIN_TLM_MAX_HOPS, 7);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).probes, 2);
}

/* The incremental update must also hold where the sum wraps: try many
 * sessions, so checksums and timestamps fall every which way. */
static void ipv6_probe_checksum_many(void **state)
{
	struct frame_spec s = v6_probe;
	int i;

	for (i = 0; i < 300; i++) {
		s.src[14] = (uint8_t)i;
		s.src[15] = (uint8_t)(i * 37);
		check_stamp_spec(&s, 3, (uint8_t)(i % 3));
	}
}

static void vlan_probes_stamped(void **state)
{
	struct frame_spec s = v4_probe;

	s.nr_vlans = 1;
	check_stamp_spec(&s, 4, 0);
	s.nr_vlans = 2;
	s.vlan_proto[0] = ETH_P_8021AD;
	check_stamp_spec(&s, 4, 1);
	s.ihl = 6;
	check_stamp_spec(&s, 4, 1);
	s = v6_probe;
	s.nr_vlans = 2;
	check_stamp_spec(&s, 2, 0);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).probes, 4);
}

static void vlan_probe_rev_stamped(void **state)
{
	struct frame_spec s = v6_probe;

	set_port(CALVIN_DIR_REV);
	s.sport = TEST_PROBE_PORT;
	s.dport = 40000;
	s.nr_vlans = 1;
	check_stamp_spec(&s, 4, 1);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_REV).probes, 1);
}

/* A third tag is more than the parser reads: the stack gets it. */
static void triple_tagged_passed(void **state)
{
	struct frame_spec s = v4_probe;
	uint8_t f[FRAME_MAX], want[FRAME_MAX];
	size_t len;

	s.nr_vlans = 3;
	len = build_frame_probe(f, &s, 4, 0);
	memcpy(want, f, len);
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &len), XDP_PASS);
	assert_memory_equal(f, want, len);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).pass_other, 1);
}

/* Cut inside a tag or the IPv6 header: dropped; after that: forwarded. */
static void truncated_tagged_and_v6(void **state)
{
	struct frame_spec specs[2] = {v6_probe, v4_probe};
	uint8_t full[FRAME_MAX], f[FRAME_MAX];
	size_t n, len, l3_end, out_len;
	uint64_t drops = 0, stamped = 0;
	unsigned int i;
	int verdict;

	/* A prefix holding the whole block is a probe (see truncated_frames). */
	specs[0].nr_vlans = 1;
	specs[1].nr_vlans = 2;
	for (i = 0; i < 2; i++) {
		len = build_frame_probe(full, &specs[i], 2, 0);
		l3_end = frame_l4_off(&specs[i]);
		for (n = ETH_HLEN; n < len; n++) {
			memcpy(f, full, n);
			out_len = n;
			verdict = run_xdp(T.prog, IFINDEX_LO, f, &out_len);
			assert_int_equal(verdict, n < l3_end ? XDP_DROP : XDP_REDIRECT);
			drops += n < l3_end;
			stamped += n >= frame_payload_off(&specs[i]) + CALVIN_TLM_LEN(2);
		}
	}
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).drop_malformed, drops);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).probes, stamped);
}

static void ipv6_non_probe_untouched(void **state)
{
	struct frame_spec s = v6_probe;
	uint8_t f[FRAME_MAX];

	s.dport = TEST_APP_PORT;
	check_forwarded_untouched(f, build_frame_probe(f, &s, 4, 0));
	s.proto = IPPROTO_TCP;
	s.dport = TEST_PROBE_PORT;
	check_forwarded_untouched(f, build_frame(f, &s, "tcp", 3));
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).probes, 0);
}

/* A forwarder of the test's own, its globals set before load as a node's
 * place and clock domain would (last: calvin_last's direction bits), lo's
 * entry as T.port says. */
static struct forward_bpf *own_forwarder(uint8_t last, uint8_t clock)
{
	struct forward_bpf *skel = forward_bpf__open();
	uint32_t lo = IFINDEX_LO;

	assert_non_null(skel);
	skel->rodata->probe_port = TEST_PROBE_PORT;
	skel->rodata->vnf_id = VNF_ID;
	skel->rodata->calvin_last = last;
	skel->rodata->calvin_clock = clock;
	assert_int_equal(forward_bpf__load(skel), 0);
	assert_int_equal(
	    bpf_map_update_elem(bpf_map__fd(skel->maps.calvin_ports), &lo, &T.port, BPF_ANY), 0);
	return skel;
}

/* Not the node's last VNF: decide and stamp, then XDP_PASS to the next
 * program in the dispatcher, MACs untouched. */
static void not_last_passes_stamped(void **state)
{
	struct forward_bpf *skel = own_forwarder(0, CALVIN_CLOCK_HOST_MONO);
	int prog = bpf_program__fd(skel->progs.forward);
	struct frame_spec s = v6_probe;
	uint8_t f[FRAME_MAX], want[FRAME_MAX];
	size_t len, out;
	struct calvin_tlm tlm;

	s.nr_vlans = 1;
	out = len = build_frame_probe(f, &s, 4, 0);
	memcpy(want, f, len);
	assert_int_equal(run_xdp(prog, IFINDEX_LO, f, &out), XDP_PASS);
	assert_memory_equal(f, want, 2 * ETH_ALEN);
	assert_true(frame_csums_ok(f, &s, len));
	assert_int_equal(
	    calvin_tlm_decode(f + frame_payload_off(&s), len - frame_payload_off(&s), &tlm), 0);
	assert_int_equal(tlm.nr_hops, 1);
	assert_int_equal(
	    read_stats(bpf_map__fd(skel->maps.calvin_stats), CALVIN_DIR_FWD).tx_packets, 1);
	forward_bpf__destroy(skel);
}

/* A VNF in a VM of its own stamps its VM's clock domain, set before load. */
static void vm_clock_stamped(void **state)
{
	struct forward_bpf *skel = own_forwarder(1 << CALVIN_DIR_FWD | 1 << CALVIN_DIR_REV, 3);
	int prog = bpf_program__fd(skel->progs.forward);
	uint32_t lo = IFINDEX_LO, slot = CALVIN_SLOT_EAST;
	uint8_t f[FRAME_MAX];
	size_t len = build_probe(f, &to_server, 4, 0);
	struct calvin_tlm tlm;

	assert_int_equal(
	    bpf_map_update_elem(bpf_map__fd(skel->maps.calvin_egress), &slot, &lo, BPF_ANY), 0);
	assert_int_equal(run_xdp(prog, IFINDEX_LO, f, &len), XDP_REDIRECT);
	assert_int_equal(calvin_tlm_decode(f + PAYLOAD_OFF(5), len - PAYLOAD_OFF(5), &tlm), 0);
	assert_int_equal(tlm.nr_hops, 1);
	assert_int_equal(tlm.hops[0].clock, 3);
	forward_bpf__destroy(skel);
}

static void unknown_port_passed(void **state)
{
	uint8_t f[FRAME_MAX], want[FRAME_MAX];
	uint32_t key = IFINDEX_LO;
	size_t len = build_probe(f, &to_server, 4, 0);

	assert_int_equal(bpf_map_delete_elem(T.ports, &key), 0);
	memcpy(want, f, len);
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &len), XDP_PASS);
	assert_memory_equal(f, want, len);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).drop_redirect, 1);
}

static void empty_egress_slot_dropped(void **state)
{
	uint32_t slot = CALVIN_SLOT_EAST, lo = IFINDEX_LO;
	uint8_t f[FRAME_MAX];
	size_t len = build_probe(f, &to_server, 4, 0);

	assert_int_equal(bpf_map_delete_elem(T.egress, &slot), 0);
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &len), XDP_DROP);
	assert_int_equal(bpf_map_update_elem(T.egress, &slot, &lo, BPF_ANY), 0);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).drop_redirect, 1);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).tx_packets, 0);
}

static void stats_counted(void **state)
{
	uint8_t f[FRAME_MAX];
	struct calvin_vnf_stats fwd, rev;
	size_t len, probe_len, arp_len, full_len;

	probe_len = len = build_probe(f, &to_server, 4, 0);
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &len), XDP_REDIRECT);
	len = build_probe(f, &to_server, 1, 1);
	full_len = len; /* a full block: forwarded, not stamped */
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &len), XDP_REDIRECT);
	arp_len = len = build_arp(f);
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &len), XDP_PASS);
	len = build_probe(f, &to_server, 4, 0);
	len = ETH_HLEN + 10;
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &len), XDP_DROP);
	set_port(CALVIN_DIR_REV);
	len = build_probe(f, &to_probe, 4, 1);
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &len), XDP_REDIRECT);

	fwd = read_stats(T.stats, CALVIN_DIR_FWD);
	rev = read_stats(T.stats, CALVIN_DIR_REV);
	assert_int_equal(fwd.rx_packets, 4);
	assert_int_equal(fwd.rx_bytes, probe_len + full_len + arp_len + ETH_HLEN + 10);
	assert_int_equal(fwd.tx_packets, 2);
	assert_int_equal(fwd.tx_bytes, probe_len + full_len);
	assert_int_equal(fwd.probes, 1);
	assert_int_equal(fwd.tlm_overflow, 1);
	assert_int_equal(fwd.pass_other, 1);
	assert_int_equal(fwd.drop_malformed, 1);
	assert_int_equal(fwd.drop_redirect, 0);
	assert_int_equal(rev.rx_packets, 1);
	assert_int_equal(rev.tx_packets, 1);
	assert_int_equal(rev.probes, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(probe_fwd_stamped, setup_fwd),
	    cmocka_unit_test_setup(probe_rev_stamped, setup_fwd),
	    cmocka_unit_test_setup(probe_appends_after_other_hops, setup_fwd),
	    cmocka_unit_test_setup(probe_with_ip_options, setup_fwd),
	    cmocka_unit_test_setup(probe_without_udp_checksum, setup_fwd),
	    cmocka_unit_test_setup(probe_of_32_vnfs, setup_fwd),
	    cmocka_unit_test_setup(truncated_blocks, setup_fwd),
	    cmocka_unit_test_setup(full_block_flags_overflow, setup_fwd),
	    cmocka_unit_test_setup(non_probe_udp_untouched, setup_fwd),
	    cmocka_unit_test_setup(bad_telemetry_not_stamped, setup_fwd),
	    cmocka_unit_test_setup(fragments_not_stamped, setup_fwd),
	    cmocka_unit_test_setup(truncated_frames, setup_fwd),
	    cmocka_unit_test_setup(arp_passed, setup_fwd),
	    cmocka_unit_test_setup(bad_ipv4_dropped, setup_fwd),
	    cmocka_unit_test_setup(ipv6_probe_stamped, setup_fwd),
	    cmocka_unit_test_setup(ipv6_probe_checksum_many, setup_fwd),
	    cmocka_unit_test_setup(vlan_probes_stamped, setup_fwd),
	    cmocka_unit_test_setup(vlan_probe_rev_stamped, setup_fwd),
	    cmocka_unit_test_setup(triple_tagged_passed, setup_fwd),
	    cmocka_unit_test_setup(truncated_tagged_and_v6, setup_fwd),
	    cmocka_unit_test_setup(ipv6_non_probe_untouched, setup_fwd),
	    cmocka_unit_test_setup(not_last_passes_stamped, setup_fwd),
	    cmocka_unit_test_setup(vm_clock_stamped, setup_fwd),
	    cmocka_unit_test_setup(unknown_port_passed, setup_fwd),
	    cmocka_unit_test_setup(empty_egress_slot_dropped, setup_fwd),
	    cmocka_unit_test_setup(stats_counted, setup_fwd),
	};
	int err;

	SKEL_OPEN_LOAD_VNF(T.skel, forward, VNF_ID);
	T.prog = bpf_program__fd(T.skel->progs.forward);
	T.ports = bpf_map__fd(T.skel->maps.calvin_ports);
	T.egress = bpf_map__fd(T.skel->maps.calvin_egress);
	T.stats = bpf_map__fd(T.skel->maps.calvin_stats);
	devmap_lo_or_skip(T.egress, CALVIN_SLOT_EAST + 1);
	err = cmocka_run_group_tests(tests, NULL, NULL);
	forward_bpf__destroy(T.skel);
	return err;
}
