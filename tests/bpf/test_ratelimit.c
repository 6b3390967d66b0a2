// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* BPF_PROG_TEST_RUN tests of kernel/ratelimit.bpf.c: bursts, flows, refill, live updates.
 *
 * bpf_ktime_get_ns() cannot be faked, so the rates are chosen slow enough
 * (10 or 100 frames/s) that a batch of runs takes a small fraction of one
 * token's time, and refill is checked after real sleeps, within one frame.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <time.h>
#include <cmocka.h>

#include "frames.h"
#include "ratelimit.h"
#include "ratelimit.skel.h"

#define VNF_ID 3
#define IFINDEX_LO 1

static const struct udp_spec flow_a = {
    .saddr = 0x0a460001, .daddr = 0x0a460002, .sport = 40000, .dport = TEST_APP_PORT, .ihl = 5};

static struct {
	struct ratelimit_bpf *skel;
	int prog, ports, stats, config, bucket, flows;
} T;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

/* Fresh buckets and stats, and this config. */
static void configure(uint64_t pps, uint64_t bps, uint64_t burst, uint64_t burst_bytes,
		      uint32_t per)
{
	struct calvin_rl_config c = {.pps = pps,
				     .bytes_per_sec = bps,
				     .burst_packets = burst,
				     .burst_bytes = burst_bytes,
				     .per = per};
	struct calvin_rl_flow key;
	/* The per-VNF bucket's value is private to the program; all zero
	 * (lock free, full bucket) is all the test needs to write. */
	char zero_bucket[64] = {0};
	uint32_t zero = 0;

	assert_int_equal(bpf_map_update_elem(T.config, &zero, &c, BPF_ANY), 0);
	assert_int_equal(bpf_map_update_elem(T.bucket, &zero, zero_bucket, BPF_ANY), 0);
	while (!bpf_map_get_next_key(T.flows, NULL, &key))
		assert_int_equal(bpf_map_delete_elem(T.flows, &key), 0);
	reset_stats(T.stats);
}

/* Run a frame n times, one run each; how many were forwarded. Every
 * verdict must be XDP_REDIRECT or XDP_DROP. */
static unsigned int run_n(const uint8_t *frame, size_t len, unsigned int n)
{
	unsigned int i, passed = 0;
	uint8_t f[FRAME_MAX];
	size_t l;
	int verdict;

	for (i = 0; i < n; i++) {
		memcpy(f, frame, len);
		l = len;
		verdict = run_xdp(T.prog, IFINDEX_LO, f, &l);
		if (verdict == XDP_REDIRECT)
			passed++;
		else
			assert_int_equal(verdict, XDP_DROP);
	}
	return passed;
}

static size_t udp_frame(uint8_t *f, const struct udp_spec *s, size_t payload_len)
{
	uint8_t payload[FRAME_MAX] = {0};

	return build_udp(f, s, payload, payload_len);
}

static void burst_then_drop(void **state)
{
	uint8_t f[FRAME_MAX];
	size_t len = udp_frame(f, &flow_a, 18);
	struct calvin_vnf_stats st;

	configure(10, 0, 10, 0, CALVIN_XDP_RL_PER_VNF);
	assert_int_equal(run_n(f, len, 25), 10);
	st = read_stats(T.stats, CALVIN_DIR_FWD);
	assert_int_equal(st.drop_ratelimit, 15);
	assert_int_equal(st.tx_packets, 10);
	assert_int_equal(st.rx_packets, 25);
}

/* The kernel's repeat count: many runs in one call, counted by the stats. */
static void burst_with_repeat(void **state)
{
	uint8_t f[FRAME_MAX], out[FRAME_MAX + 256];
	size_t len = udp_frame(f, &flow_a, 18);
	struct xdp_md ctx = {.data_end = (uint32_t)len, .ingress_ifindex = IFINDEX_LO};
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = f, .data_size_in = (uint32_t)len,
		    .data_out = out, .data_size_out = sizeof(out), .ctx_in = &ctx,
		    .ctx_size_in = sizeof(ctx), .repeat = 1000);
	struct calvin_vnf_stats st;

	configure(10, 0, 50, 0, CALVIN_XDP_RL_PER_VNF);
	assert_int_equal(bpf_prog_test_run_opts(T.prog, &opts), 0);
	assert_int_equal(opts.retval, XDP_DROP);
	st = read_stats(T.stats, CALVIN_DIR_FWD);
	assert_int_equal(st.tx_packets, 50);
	assert_int_equal(st.drop_ratelimit, 950);
}

static void bytes_per_second(void **state)
{
	uint8_t f[FRAME_MAX];
	size_t len = udp_frame(f, &flow_a, 58); /* 100 bytes */

	assert_int_equal(len, 100);
	configure(0, 10, 0, 1000, CALVIN_XDP_RL_PER_VNF);
	assert_int_equal(run_n(f, len, 20), 10);
}

/* With both set, whichever bucket is shorter decides, and a frame one of
 * them refuses costs nothing in the other. */
static void both_dimensions(void **state)
{
	uint8_t f[FRAME_MAX];
	size_t len = udp_frame(f, &flow_a, 58);

	configure(10, 10, 10, 300, CALVIN_XDP_RL_PER_VNF);
	assert_int_equal(run_n(f, len, 20), 3);
	configure(10, 10, 2, 100000, CALVIN_XDP_RL_PER_VNF);
	assert_int_equal(run_n(f, len, 20), 2);
}

/* A frame larger than the byte burst can never pass. */
static void frame_larger_than_burst_bytes(void **state)
{
	uint8_t f[FRAME_MAX];
	size_t len = udp_frame(f, &flow_a, 58);

	configure(0, 1000000, 0, 99, CALVIN_XDP_RL_PER_VNF);
	assert_int_equal(run_n(f, len, 5), 0);
}

static void per_flow_independent(void **state)
{
	struct udp_spec b = flow_a;
	uint8_t fa[FRAME_MAX], fb[FRAME_MAX];
	size_t la = udp_frame(fa, &flow_a, 18), lb;
	unsigned int i, pa = 0, pb = 0;

	b.sport++;
	lb = udp_frame(fb, &b, 18);
	configure(10, 0, 5, 0, CALVIN_XDP_RL_PER_FLOW);
	for (i = 0; i < 10; i++) {
		pa += run_n(fa, la, 1);
		pb += run_n(fb, lb, 1);
	}
	assert_int_equal(pa, 5);
	assert_int_equal(pb, 5);
	/* The same traffic against one shared bucket. */
	configure(10, 0, 5, 0, CALVIN_XDP_RL_PER_VNF);
	for (i = 0, pa = pb = 0; i < 10; i++) {
		pa += run_n(fa, la, 1);
		pb += run_n(fb, lb, 1);
	}
	assert_int_equal(pa + pb, 5);
}

static void per_flow_ipv6(void **state)
{
	uint8_t f[FRAME_MAX];
	size_t len = build_ipv6_probe(f);

	configure(10, 0, 3, 0, CALVIN_XDP_RL_PER_FLOW);
	assert_int_equal(run_n(f, len, 6), 3);
}

/* Drained, then a sleep: about rate * elapsed frames pass, never more than
 * the burst. Tolerance one frame each way for timer slack. */
static void refill_after_sleep(void **state)
{
	uint8_t f[FRAME_MAX];
	size_t len = udp_frame(f, &flow_a, 18);
	uint64_t t0, t1;
	unsigned int n, expect;

	configure(100, 0, 10, 0, CALVIN_XDP_RL_PER_VNF);
	t0 = now_ns();
	assert_int_equal(run_n(f, len, 20), 10);
	sleep_ms(35);
	t1 = now_ns();
	n = run_n(f, len, 20);
	expect = (unsigned int)((t1 - t0) / 10000000ULL);
	print_message("refill: %u frames after %.1f ms (expected about %u)\n", n,
		      (double)(t1 - t0) / 1e6, expect);
	assert_true(n + 1 >= expect && n <= expect + 1);
	sleep_ms(200);
	assert_int_equal(run_n(f, len, 20), 10);
}

/* An update keeps the buckets: a drained bucket stays drained, then
 * refills at the new rate. */
static void update_keeps_buckets(void **state)
{
	struct calvin_rl_config c = {.pps = 100, .burst_packets = 5, .per = CALVIN_XDP_RL_PER_FLOW};
	uint8_t f[FRAME_MAX];
	size_t len = udp_frame(f, &flow_a, 18);
	uint32_t zero = 0;

	configure(1, 0, 5, 0, CALVIN_XDP_RL_PER_FLOW);
	assert_int_equal(run_n(f, len, 10), 5);
	assert_int_equal(bpf_map_update_elem(T.config, &zero, &c, BPF_ANY), 0);
	assert_true(run_n(f, len, 5) <= 1);
	sleep_ms(80); /* 8 frames' worth at 100/s, 0.08 at 1/s */
	assert_int_equal(run_n(f, len, 10), 5);
}

/* Not IP and malformed frames take no tokens. */
static void other_frames_take_no_tokens(void **state)
{
	uint8_t f[FRAME_MAX], g[FRAME_MAX];
	size_t len = udp_frame(f, &flow_a, 18), l;
	unsigned int i;

	configure(10, 0, 1, 0, CALVIN_XDP_RL_PER_VNF);
	for (i = 0; i < 5; i++) {
		l = build_arp(g);
		assert_int_equal(run_xdp(T.prog, IFINDEX_LO, g, &l), XDP_PASS);
		memcpy(g, f, len);
		l = ETH_HLEN + 10;
		assert_int_equal(run_xdp(T.prog, IFINDEX_LO, g, &l), XDP_DROP);
	}
	assert_int_equal(run_n(f, len, 3), 1);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).pass_other, 5);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).drop_malformed, 5);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).drop_ratelimit, 2);
}

static void set_lo_port(void)
{
	struct calvin_port port = {.egress_slot = CALVIN_SLOT_EAST, .dir = CALVIN_DIR_FWD};
	uint32_t key = IFINDEX_LO;

	memcpy(port.egress_mac, mac_vnf_w, ETH_ALEN);
	memcpy(port.peer_mac, mac_probe, ETH_ALEN);
	if (bpf_map_update_elem(T.ports, &key, &port, BPF_ANY))
		abort();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(burst_then_drop),
	    cmocka_unit_test(burst_with_repeat),
	    cmocka_unit_test(bytes_per_second),
	    cmocka_unit_test(both_dimensions),
	    cmocka_unit_test(frame_larger_than_burst_bytes),
	    cmocka_unit_test(per_flow_independent),
	    cmocka_unit_test(per_flow_ipv6),
	    cmocka_unit_test(refill_after_sleep),
	    cmocka_unit_test(update_keeps_buckets),
	    cmocka_unit_test(other_frames_take_no_tokens),
	};
	int egress, err;

	SKEL_OPEN_LOAD_VNF(T.skel, ratelimit, VNF_ID);
	T.prog = bpf_program__fd(T.skel->progs.ratelimit);
	T.ports = bpf_map__fd(T.skel->maps.calvin_ports);
	T.stats = bpf_map__fd(T.skel->maps.calvin_stats);
	T.config = bpf_map__fd(T.skel->maps.calvin_rl_config);
	T.bucket = bpf_map__fd(T.skel->maps.calvin_rl_bucket);
	T.flows = bpf_map__fd(T.skel->maps.calvin_rl_flows);
	egress = bpf_map__fd(T.skel->maps.calvin_egress);
	devmap_lo_or_skip(egress, CALVIN_SLOT_EAST + 1);
	set_lo_port();
	err = cmocka_run_group_tests(tests, NULL, NULL);
	ratelimit_bpf__destroy(T.skel);
	return err;
}
