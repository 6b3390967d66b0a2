/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Harness for the table-driven tests of the two-port VNFs (acl, router): load, ports, table rows.
 *
 * Header-only, like frames.h. Frames enter on lo (ifindex 1, present in every
 * namespace), whose port entry says FWD; both devmap slots hold lo, so a
 * redirect succeeds whichever slot a VNF picks.
 */
#ifndef CALVIN_TEST_VNF_H
#define CALVIN_TEST_VNF_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "frames_l3.h"
#include "loader.h"

#define VNF_ID 3
#define IFINDEX_LO 1

static const uint8_t mac_vnf_e[ETH_ALEN] = {0x02, 0, 0, 0, 0, 0x0b};
static const uint8_t mac_server[ETH_ALEN] = {0x02, 0, 0, 0, 0, 0x02};

struct vnf_test {
	int prog, ports, egress, stats;
};

/* The port table entry of frames leaving east (FWD) or west (REV). */
static inline struct calvin_port vnf_port(bool east)
{
	struct calvin_port p = {.egress_slot = east ? CALVIN_SLOT_EAST : CALVIN_SLOT_WEST,
				.dir = east ? CALVIN_DIR_FWD : CALVIN_DIR_REV};

	memcpy(p.egress_mac, east ? mac_vnf_e : mac_vnf_w, ETH_ALEN);
	memcpy(p.peer_mac, east ? mac_server : mac_probe, ETH_ALEN);
	return p;
}

/* The program and common maps of a loaded two-port VNF, lo in both devmap
 * slots and lo's entry pointing east; exits 77 if lo cannot be in a devmap. */
static inline void vnf_test_init(struct vnf_test *t, struct bpf_program *prog,
				 struct bpf_map *ports, struct bpf_map *egress,
				 struct bpf_map *stats)
{
	struct calvin_port east = vnf_port(true);
	uint32_t lo = IFINDEX_LO;

	t->prog = bpf_program__fd(prog);
	t->ports = bpf_map__fd(ports);
	t->egress = bpf_map__fd(egress);
	t->stats = bpf_map__fd(stats);
	devmap_lo_or_skip(t->egress, CALVIN_SLOT_EAST + 1);
	if (bpf_map_update_elem(t->ports, &lo, &east, BPF_ANY))
		abort();
}

/* Open and load skeleton NAME as VNF_ID, then vnf_test_init() t from it. */
#define VNF_TEST_LOAD(t, skel, name)                                                               \
	do {                                                                                       \
		SKEL_OPEN_LOAD_VNF(skel, name, VNF_ID);                                            \
		vnf_test_init(t, (skel)->progs.name, (skel)->maps.calvin_ports,                    \
			      (skel)->maps.calvin_egress, (skel)->maps.calvin_stats);              \
	} while (0)

/* What a row expects of the bytes out. */
enum out_bytes {
	OUT_SAME,     /* dropped or passed: not a byte changed */
	OUT_MACS,     /* forwarded: MACs of the port given, nothing else */
	OUT_MACS_TTL, /* routed: MACs, TTL/hop limit - 1, IPv4 checksum still valid */
};

/* Run frame f (len bytes, built from s) and check the verdict and the bytes
 * out against the frame as sent. */
static inline void vnf_check_frame(const struct vnf_test *t, const uint8_t *f, size_t len,
				   const struct frame_spec *s, int verdict, enum out_bytes out,
				   const struct calvin_port *egress)
{
	uint8_t got[FRAME_MAX], want[FRAME_MAX];
	size_t got_len = len;
	uint8_t *l3 = want + frame_l3_off(s);

	memcpy(got, f, len);
	memcpy(want, f, len);
	assert_int_equal(run_xdp(t->prog, IFINDEX_LO, got, &got_len), verdict);
	assert_int_equal(got_len, len);
	if (out != OUT_SAME) {
		memcpy(want, egress->peer_mac, ETH_ALEN);
		memcpy(want + ETH_ALEN, egress->egress_mac, ETH_ALEN);
	}
	if (out == OUT_MACS_TTL && s->family == 6) {
		l3[7]--;
	} else if (out == OUT_MACS_TTL) {
		struct iphdr *ip = (struct iphdr *)l3;
		bool was_valid = ipv4_csum_check(ip) == 0;

		ip->ttl--;
		/* A full recomputation must give what the program's incremental
		 * update gave, and a bad checksum must stay bad. */
		ip->check = 0;
		ip->check = htons(csum_fold(csum_add(0, ip, ip->ihl * 4u)));
		if (!was_valid)
			memcpy(&ip->check, got + frame_l3_off(s) + 10, 2);
		assert_int_equal(ipv4_csum_check((struct iphdr *)(got + frame_l3_off(s))) == 0,
				 was_valid);
	}
	assert_memory_equal(got, want, len);
}

/* Sum of the per-CPU __u64 at key of a per-CPU array. */
static inline uint64_t percpu_u64(int fd, uint32_t key)
{
	int ncpu = libbpf_num_possible_cpus(), cpu;
	__u64 *v = calloc((size_t)ncpu, sizeof(*v));
	uint64_t sum = 0;

	if (!v || bpf_map_lookup_elem(fd, &key, v))
		abort();
	for (cpu = 0; cpu < ncpu; cpu++)
		sum += v[cpu];
	free(v);
	return sum;
}

static inline struct calvin_xdp_prefix pfx(const char *addr, uint8_t len)
{
	struct calvin_xdp_prefix p = { .len = len };

	if (inet_pton(AF_INET, addr, p.addr) == 1)
		p.family = CALVIN_FAMILY_IPV4;
	else if (inet_pton(AF_INET6, addr, p.addr) == 1)
		p.family = CALVIN_FAMILY_IPV6;
	else
		abort();
	return p;
}

/* Fill a frame_spec's addresses from text. */
static inline void spec_addrs(struct frame_spec *s, const char *src, const char *dst)
{
	int af = s->family == 6 ? AF_INET6 : AF_INET;

	if (inet_pton(af, src, s->src) != 1 || inet_pton(af, dst, s->dst) != 1)
		abort();
}

#endif /* CALVIN_TEST_VNF_H */
