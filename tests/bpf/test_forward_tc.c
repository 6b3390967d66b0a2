// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* BPF_PROG_TEST_RUN tests of the forwarder at tc (kernel/forward_tc.bpf.c, throughput mode):
 * the verdicts of vnf_tail.bpf.h in tc's words, the rewrite, the hop record and the stats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <linux/pkt_cls.h>

#include "forward_tc.skel.h"
#include "frames_l3.h"

#define VNF_ID 6
#define IFINDEX_LO 1 /* the skb's device under BPF_PROG_TEST_RUN; the egress too */

static const uint8_t mac_vnf_e[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x0b };
static const uint8_t mac_server[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x02 };

static const struct udp_spec to_server = {
	.saddr = 0x0a460001, .daddr = 0x0a460002, .sport = 40000, .dport = TEST_PROBE_PORT, .ihl = 5
};

static struct {
	struct forward_tc_bpf *skel;
	int prog, ports, egress, stats;
	struct calvin_port port;
} T;

/* Run the program on a frame that came in on lo; rewritten in place. */
static int run_tc(int prog, uint8_t *frame, size_t *len)
{
	uint8_t out[FRAME_MAX + 256];
	struct __sk_buff ctx = { .ifindex = IFINDEX_LO };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = frame, .data_size_in = (uint32_t)*len,
		    .data_out = out, .data_size_out = sizeof(out), .ctx_in = &ctx,
		    .ctx_size_in = sizeof(ctx));

	if (bpf_prog_test_run_opts(prog, &opts))
		return -errno;
	memcpy(frame, out, opts.data_size_out);
	*len = opts.data_size_out;
	return (int)opts.retval;
}

static int setup(void **state)
{
	uint32_t key = IFINDEX_LO;

	reset_stats(T.stats);
	memset(&T.port, 0, sizeof(T.port));
	T.port.dir = CALVIN_DIR_FWD;
	T.port.egress_slot = CALVIN_SLOT_EAST;
	memcpy(T.port.egress_mac, mac_vnf_e, ETH_ALEN);
	memcpy(T.port.peer_mac, mac_server, ETH_ALEN);
	assert_int_equal(bpf_map_update_elem(T.ports, &key, &T.port, BPF_ANY), 0);
	return 0;
}

/* A probe: redirected, MACs rewritten, one record added, checksum valid. */
static void probe_stamped_redirected(void **state)
{
	uint8_t f[FRAME_MAX], want[FRAME_MAX];
	size_t len = build_probe(f, &to_server, 4, 1), out = len;
	size_t plen = len - PAYLOAD_OFF(5);
	struct calvin_tlm tlm;
	const struct calvin_hop *hop;

	memcpy(want, f, len);
	assert_int_equal(run_tc(T.prog, f, &out), TC_ACT_REDIRECT);
	assert_int_equal(out, len);
	assert_int_equal(calvin_tlm_decode(f + PAYLOAD_OFF(5), plen, &tlm), 0);
	assert_int_equal(tlm.nr_hops, 2);
	hop = &tlm.hops[1];
	assert_int_equal(hop->vnf_id, VNF_ID);
	assert_int_equal(hop->space, CALVIN_SPACE_KERNEL);
	assert_int_equal(hop->dir, CALVIN_DIR_FWD);
	assert_true(hop->t_in > 0 && hop->t_in <= hop->t_out);
	assert_int_equal(udp_csum_check((const struct iphdr *)(f + ETH_HLEN)), 0);
	memcpy(want, mac_server, ETH_ALEN);
	memcpy(want + ETH_ALEN, mac_vnf_e, ETH_ALEN);
	assert_int_equal(calvin_tlm_push_hop(want + PAYLOAD_OFF(5), plen, hop), 1);
	memcpy(want + L4_OFF(5) + offsetof(struct udphdr, check),
	       f + L4_OFF(5) + offsetof(struct udphdr, check), 2);
	assert_memory_equal(f, want, len);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).probes, 1);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).tx_packets, 1);
}

/* TCP, the traffic throughput mode is for: only the MACs change. */
static void tcp_forwarded_untouched(void **state)
{
	struct frame_spec s = { .family = 4,
				.src = { 10, 70, 0, 1 },
				.dst = { 10, 70, 0, 2 },
				.sport = 40000,
				.dport = 5201,
				.proto = IPPROTO_TCP };
	uint8_t f[FRAME_MAX], want[FRAME_MAX], data[1000] = { 1, 2, 3 };
	size_t len = build_frame(f, &s, data, sizeof(data)), out = len;

	memcpy(want, f, len);
	memcpy(want, mac_server, ETH_ALEN);
	memcpy(want + ETH_ALEN, mac_vnf_e, ETH_ALEN);
	assert_int_equal(run_tc(T.prog, f, &out), TC_ACT_REDIRECT);
	assert_memory_equal(f, want, len);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).probes, 0);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).tx_bytes, len);
}

/* Not IP: the node's stack (TC_ACT_OK), as XDP_PASS; malformed: shot. */
static void arp_passed_malformed_shot(void **state)
{
	uint8_t f[FRAME_MAX], want[FRAME_MAX];
	size_t len = build_arp(f), out = len;

	memcpy(want, f, len);
	assert_int_equal(run_tc(T.prog, f, &out), TC_ACT_OK);
	assert_memory_equal(f, want, len);
	len = build_probe(f, &to_server, 4, 0);
	f[ETH_HLEN] = 0x44; /* ihl 4 */
	assert_int_equal(run_tc(T.prog, f, &len), TC_ACT_SHOT);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).pass_other, 1);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).drop_malformed, 1);
}

/* Before the loader filled the port table: passed untouched. An empty
 * egress slot: shot, counted. */
static void no_port_passed_no_egress_shot(void **state)
{
	uint32_t key = IFINDEX_LO, slot = CALVIN_SLOT_EAST, lo = IFINDEX_LO;
	uint8_t f[FRAME_MAX], want[FRAME_MAX];
	size_t len = build_probe(f, &to_server, 4, 0), out = len;

	assert_int_equal(bpf_map_delete_elem(T.ports, &key), 0);
	memcpy(want, f, len);
	assert_int_equal(run_tc(T.prog, f, &out), TC_ACT_OK);
	assert_memory_equal(f, want, len);
	setup(state);
	assert_int_equal(bpf_map_delete_elem(T.egress, &slot), 0);
	assert_int_equal(run_tc(T.prog, f, &out), TC_ACT_SHOT);
	assert_int_equal(bpf_map_update_elem(T.egress, &slot, &lo, BPF_ANY), 0);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).drop_redirect, 1);
}

/* Not the node's last VNF: stamp, then TC_ACT_UNSPEC (the next filter, the
 * next VNF), MACs untouched. */
static void not_last_continues_stamped(void **state)
{
	struct forward_tc_bpf *skel = forward_tc_bpf__open();
	uint32_t lo = IFINDEX_LO;
	uint8_t f[FRAME_MAX], want[FRAME_MAX];
	size_t len = build_probe(f, &to_server, 4, 0), out = len;
	struct calvin_tlm tlm;

	assert_non_null(skel);
	skel->rodata->probe_port = TEST_PROBE_PORT;
	skel->rodata->calvin_last = 0;
	assert_int_equal(forward_tc_bpf__load(skel), 0);
	assert_int_equal(
	    bpf_map_update_elem(bpf_map__fd(skel->maps.calvin_ports), &lo, &T.port, BPF_ANY), 0);
	memcpy(want, f, len);
	assert_int_equal(run_tc(bpf_program__fd(skel->progs.forward_tc), f, &out), TC_ACT_UNSPEC);
	assert_memory_equal(f, want, 2 * ETH_ALEN);
	assert_int_equal(calvin_tlm_decode(f + PAYLOAD_OFF(5), len - PAYLOAD_OFF(5), &tlm), 0);
	assert_int_equal(tlm.nr_hops, 1);
	forward_tc_bpf__destroy(skel);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(probe_stamped_redirected, setup),
		cmocka_unit_test_setup(tcp_forwarded_untouched, setup),
		cmocka_unit_test_setup(arp_passed_malformed_shot, setup),
		cmocka_unit_test_setup(no_port_passed_no_egress_shot, setup),
		cmocka_unit_test_setup(not_last_continues_stamped, setup),
	};
	int err;

	SKEL_OPEN_LOAD_VNF(T.skel, forward_tc, VNF_ID);
	T.prog = bpf_program__fd(T.skel->progs.forward_tc);
	T.ports = bpf_map__fd(T.skel->maps.calvin_ports);
	T.egress = bpf_map__fd(T.skel->maps.calvin_egress);
	T.stats = bpf_map__fd(T.skel->maps.calvin_stats);
	devmap_lo_or_skip(T.egress, CALVIN_SLOT_EAST + 1);
	err = cmocka_run_group_tests(tests, NULL, NULL);
	forward_tc_bpf__destroy(T.skel);
	return err;
}
