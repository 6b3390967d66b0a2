// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* BPF_PROG_TEST_RUN tests of the host-side link (kernel/link.bpf.c): a
 * frame from a known port is redirected to its partner with not a byte
 * changed, whatever it is; one from an unknown port goes to the stack. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "frames.h"
#include "link.skel.h"

/* A real device behind ingress_ifindex and the devmap: lo is in every
 * namespace, so it is its own partner here. */
#define IFINDEX_LO 1

static const struct udp_spec to_server = {
	.saddr = 0x0a460001, .daddr = 0x0a460002, .sport = 40000, .dport = TEST_PROBE_PORT, .ihl = 5
};

static struct {
	struct link_bpf *skel;
	int prog, peer;
} T;

static int setup_peer(void **state)
{
	uint32_t lo = IFINDEX_LO;

	return bpf_map_update_elem(T.peer, &lo, &lo, BPF_ANY);
}

static void check_redirected_untouched(uint8_t *f, size_t len)
{
	uint8_t want[FRAME_MAX];
	size_t out = len;

	memcpy(want, f, len);
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &out), XDP_REDIRECT);
	assert_int_equal(out, len);
	assert_memory_equal(f, want, len);
}

/* Probes, other UDP, ARP, IPv6 and runts alike: a link is a wire. */
static void every_frame_redirected(void **state)
{
	uint8_t f[FRAME_MAX];

	check_redirected_untouched(f, build_probe(f, &to_server, 4, 1));
	check_redirected_untouched(f, build_udp(f, &to_server, "app", 3));
	check_redirected_untouched(f, build_arp(f));
	check_redirected_untouched(f, build_ipv6_probe(f));
	memset(f, 0xab, ETH_HLEN);
	check_redirected_untouched(f, ETH_HLEN);
}

static void unknown_port_passed(void **state)
{
	uint32_t lo = IFINDEX_LO;
	uint8_t f[FRAME_MAX], want[FRAME_MAX];
	size_t len = build_probe(f, &to_server, 4, 0);

	assert_int_equal(bpf_map_delete_elem(T.peer, &lo), 0);
	memcpy(want, f, len);
	assert_int_equal(run_xdp(T.prog, IFINDEX_LO, f, &len), XDP_PASS);
	assert_memory_equal(f, want, len);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(every_frame_redirected, setup_peer),
		cmocka_unit_test_setup(unknown_port_passed, setup_peer),
	};
	int err;

	SKEL_OPEN(T.skel, link);
	SKEL_LOAD(T.skel, link);
	T.prog = bpf_program__fd(T.skel->progs.link);
	T.peer = bpf_map__fd(T.skel->maps.calvin_link_peer);
	err = cmocka_run_group_tests(tests, NULL, NULL);
	link_bpf__destroy(T.skel);
	return err;
}
