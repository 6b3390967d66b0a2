// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* BPF_PROG_TEST_RUN tests of the echo server stand-in (kernel/reflect.bpf.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "frames.h"

#define IFINDEX_LO 1 /* the kernel needs a real device behind ingress_ifindex */

static const struct udp_spec to_server = {
    .saddr = 0x0a460001, .daddr = 0x0a460002, .sport = 40000, .dport = TEST_PROBE_PORT, .ihl = 5};

static struct {
	struct bpf_object *obj;
	int prog, stats;
} T;

static int setup(void **state)
{
	reset_stats(T.stats);
	return 0;
}

/* Run a probe and check it comes back swapped, with valid checksums and
 * its telemetry block as it was. */
static void check_reflected(const struct udp_spec *s)
{
	uint8_t f[FRAME_MAX], in[FRAME_MAX];
	size_t len = build_probe(in, s, 4, 1), out_len = len;
	const struct iphdr *ip = (const struct iphdr *)(f + ETH_HLEN), *ip_in;
	const struct udphdr *udp = (const struct udphdr *)(f + L4_OFF(s->ihl)), *udp_in;

	ip_in = (const struct iphdr *)(in + ETH_HLEN);
	udp_in = (const struct udphdr *)(in + L4_OFF(s->ihl));
	memcpy(f, in, len);
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &out_len), XDP_TX);
	assert_int_equal(out_len, len);
	assert_memory_equal(f, in + ETH_ALEN, ETH_ALEN);
	assert_memory_equal(f + ETH_ALEN, in, ETH_ALEN);
	assert_int_equal(ip->saddr, ip_in->daddr);
	assert_int_equal(ip->daddr, ip_in->saddr);
	assert_int_equal(udp->source, udp_in->dest);
	assert_int_equal(udp->dest, udp_in->source);
	assert_int_equal(udp->check, udp_in->check);
	assert_int_equal(ipv4_csum_check(ip), 0);
	assert_int_equal(udp_csum_check(ip), 0);
	/* Addresses and ports aside, not a byte changed. */
	assert_memory_equal(f + ETH_HLEN, in + ETH_HLEN, offsetof(struct iphdr, saddr));
	assert_memory_equal(f + L4_OFF(s->ihl) + 4, in + L4_OFF(s->ihl) + 4,
			    len - L4_OFF(s->ihl) - 4);
}

static void probe_reflected(void **state)
{
	struct calvin_vnf_stats rx, tx;

	check_reflected(&to_server);
	rx = read_stats(T.stats, CALVIN_DIR_FWD);
	tx = read_stats(T.stats, CALVIN_DIR_REV);
	assert_int_equal(rx.rx_packets, 1);
	assert_int_equal(rx.probes, 1);
	assert_int_equal(rx.pass_other, 0);
	assert_int_equal(tx.tx_packets, 1);
	assert_int_equal(tx.tx_bytes, rx.rx_bytes);
}

static void probe_with_ip_options_reflected(void **state)
{
	struct udp_spec s = to_server;

	s.ihl = 6;
	check_reflected(&s);
}

static void probe_without_udp_checksum_reflected(void **state)
{
	struct udp_spec s = to_server;

	s.no_udp_csum = 1;
	check_reflected(&s);
}

/* Passed to the server's stack exactly as it came. */
static void check_passed(uint8_t *f, size_t len)
{
	uint8_t want[FRAME_MAX];

	memcpy(want, f, len);
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &len), XDP_PASS);
	assert_memory_equal(f, want, len);
}

static void non_probe_passed(void **state)
{
	struct udp_spec s = to_server;
	uint8_t f[FRAME_MAX], payload[FRAME_MAX];
	size_t len;

	s.dport = TEST_APP_PORT; /* a server application's traffic */
	check_passed(f, build_udp(f, &s, payload, build_probe_payload(payload, 4, 0)));
	s = to_server;
	s.sport = TEST_PROBE_PORT; /* from the probe port only: not for us */
	s.dport = TEST_APP_PORT;
	check_passed(f, build_probe(f, &s, 4, 0));
	len = build_probe(f, &to_server, 4, 0);
	f[PAYLOAD_OFF(5)] = 'X'; /* no telemetry magic */
	check_passed(f, len);
	check_passed(f, build_arp(f));
	check_passed(f, build_ipv6_probe(f));
	len = build_probe(f, &to_server, 4, 0);
	check_passed(f, ETH_HLEN + 20); /* truncated */
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).pass_other, 6);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_FWD).probes, 0);
	assert_int_equal(read_stats(T.stats, CALVIN_DIR_REV).tx_packets, 0);
}

/* The checks above are only as good as the test's own checksum code. */
static void checksum_helpers_catch_corruption(void **state)
{
	uint8_t f[FRAME_MAX];
	struct iphdr *ip = (struct iphdr *)(f + ETH_HLEN);
	size_t len = build_probe(f, &to_server, 4, 0);

	assert_int_equal(ipv4_csum_check(ip), 0);
	assert_int_equal(udp_csum_check(ip), 0);
	assert_int_not_equal(((struct udphdr *)(f + L4_OFF(5)))->check, 0);
	f[len - 1] ^= 0x10;
	ip->ttl--;
	assert_int_not_equal(ipv4_csum_check(ip), 0);
	assert_int_not_equal(udp_csum_check(ip), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(checksum_helpers_catch_corruption),
	    cmocka_unit_test_setup(probe_reflected, setup),
	    cmocka_unit_test_setup(probe_with_ip_options_reflected, setup),
	    cmocka_unit_test_setup(probe_without_udp_checksum_reflected, setup),
	    cmocka_unit_test_setup(non_probe_passed, setup),
	};
	int err;

	T.obj = load_or_skip("reflect", -1);
	T.prog = bpf_program__fd(bpf_object__find_program_by_name(T.obj, "reflect"));
	T.stats = map_fd_of(T.obj, "calvin_stats");
	err = cmocka_run_group_tests(tests, NULL, NULL);
	bpf_object__close(T.obj);
	return err;
}
