/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Frame builders, checksums and BPF loading shared by the BPF_PROG_TEST_RUN tests.
 *
 * Header-only because the Makefile builds each tests/bpf/test_*.c alone.
 */
#ifndef CALVIN_TEST_FRAMES_H
#define CALVIN_TEST_FRAMES_H

#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "calvin_xdp.h"
#include "measure/measure.h"

#define TEST_PROBE_PORT 7357
#define TEST_APP_PORT 9000
/* room for a probe of a 32-VNF chain: 64 hop records, 1040 bytes of block */
#define FRAME_MAX 1600
#define L4_OFF(ihl) (ETH_HLEN + (ihl)*4)
#define PAYLOAD_OFF(ihl) (L4_OFF(ihl) + sizeof(struct udphdr))

static const uint8_t mac_probe[ETH_ALEN] = {0x02, 0, 0, 0, 0, 0x01};
static const uint8_t mac_vnf_w[ETH_ALEN] = {0x02, 0, 0, 0, 0, 0x0a};

/* Loopback in slots 0..nslots-1 of devmap fd, so that redirects succeed in
 * BPF_PROG_TEST_RUN; exits 77 (skip) where lo cannot be in a devmap. */
static inline void devmap_lo_or_skip(int fd, uint32_t nslots)
{
	uint32_t slot, lo = 1;

	for (slot = 0; slot < nslots; slot++) {
		if (bpf_map_update_elem(fd, &slot, &lo, BPF_ANY)) {
			printf("cannot put lo in a devmap here: %s\n", strerror(errno));
			exit(77);
		}
	}
}

/* One's-complement sum, not yet folded. */
static inline uint32_t csum_add(uint32_t sum, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		sum += (uint32_t)(p[len - 1] << 8);
	return sum;
}

static inline uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* 0 if the IPv4 header checksum verifies. */
static inline uint16_t ipv4_csum_check(const struct iphdr *ip)
{
	return csum_fold(csum_add(0, ip, ip->ihl * 4u));
}

/* 0 if the UDP checksum verifies (or is absent). */
static inline uint16_t udp_csum_check(const struct iphdr *ip)
{
	const struct udphdr *udp = (const void *)((const uint8_t *)ip + ip->ihl * 4);
	uint32_t sum;

	if (!udp->check)
		return 0;
	sum = csum_add(0, &ip->saddr, 8);
	sum += IPPROTO_UDP + ntohs(udp->len);
	return csum_fold(csum_add(sum, udp, ntohs(udp->len)));
}

struct udp_spec {
	uint32_t saddr, daddr; /* host order */
	uint16_t sport, dport;
	unsigned int ihl;  /* 5 + words of IP options */
	uint16_t frag_off; /* host order */
	int no_udp_csum;
};

/* An Ethernet/IPv4/UDP frame around payload; returns its length. */
static inline size_t build_udp(uint8_t *f, const struct udp_spec *s, const void *payload,
			       size_t len)
{
	struct ethhdr *eth = (struct ethhdr *)f;
	struct iphdr *ip = (struct iphdr *)(f + ETH_HLEN);
	struct udphdr *udp = (struct udphdr *)(f + L4_OFF(s->ihl));
	size_t total = PAYLOAD_OFF(s->ihl) + len;

	memset(f, 0, total);
	memcpy(eth->h_dest, mac_vnf_w, ETH_ALEN);
	memcpy(eth->h_source, mac_probe, ETH_ALEN);
	eth->h_proto = htons(ETH_P_IP);
	ip->version = 4;
	ip->ihl = s->ihl;
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->tot_len = htons((uint16_t)(total - ETH_HLEN));
	ip->frag_off = htons(s->frag_off);
	ip->saddr = htonl(s->saddr);
	ip->daddr = htonl(s->daddr);
	memset(ip + 1, 1, (s->ihl - 5) * 4); /* NOP options */
	ip->check = htons(csum_fold(csum_add(0, ip, s->ihl * 4)));
	udp->source = htons(s->sport);
	udp->dest = htons(s->dport);
	udp->len = htons((uint16_t)(sizeof(*udp) + len));
	memcpy(udp + 1, payload, len);
	if (!s->no_udp_csum) {
		uint32_t sum = csum_add(0, &ip->saddr, 8) + IPPROTO_UDP + ntohs(udp->len);

		udp->check = htons(csum_fold(csum_add(sum, udp, ntohs(udp->len))));
		if (!udp->check)
			udp->check = 0xffff; /* 0 would mean "no checksum" */
	}
	return total;
}

/* A probe payload: a telemetry block with max_hops records, nr_hops of them
 * already filled, then a few application bytes. Returns its length. */
static inline size_t build_probe_payload(uint8_t *buf, uint8_t max_hops, uint8_t nr_hops)
{
	struct calvin_hop hop = {.vnf_id = 99, .space = CALVIN_SPACE_USER, .t_in = 1, .t_out = 2};
	int len = calvin_tlm_init(buf, FRAME_MAX, max_hops, 42, 7);
	uint8_t i;

	if (len < 0)
		abort();
	for (i = 0; i < nr_hops; i++)
		calvin_tlm_push_hop(buf, (size_t)len, &hop);
	memcpy(buf + len, "app bytes", 9);
	return (size_t)len + 9;
}

static inline size_t build_probe(uint8_t *f, const struct udp_spec *s, uint8_t max_hops,
				 uint8_t nr_hops)
{
	uint8_t payload[FRAME_MAX];

	return build_udp(f, s, payload, build_probe_payload(payload, max_hops, nr_hops));
}

static inline size_t build_arp(uint8_t *f)
{
	struct ethhdr *eth = (struct ethhdr *)f;

	memset(f, 0, 60);
	memset(eth->h_dest, 0xff, ETH_ALEN);
	memcpy(eth->h_source, mac_probe, ETH_ALEN);
	eth->h_proto = htons(ETH_P_ARP);
	memcpy(f + ETH_HLEN, "\x00\x01\x08\x00\x06\x04\x00\x01", 8);
	return 60;
}

/* IPv6/UDP to the probe port, carrying a telemetry block: must not be stamped. */
static inline size_t build_ipv6_probe(uint8_t *f)
{
	struct ethhdr *eth = (struct ethhdr *)f;
	struct ipv6hdr *ip6 = (struct ipv6hdr *)(f + ETH_HLEN);
	struct udphdr *udp = (struct udphdr *)(ip6 + 1);
	size_t len = build_probe_payload((uint8_t *)(udp + 1), 4, 0);

	memset(f, 0, ETH_HLEN + sizeof(*ip6) + sizeof(*udp));
	memcpy(eth->h_dest, mac_vnf_w, ETH_ALEN);
	memcpy(eth->h_source, mac_probe, ETH_ALEN);
	eth->h_proto = htons(ETH_P_IPV6);
	ip6->version = 6;
	ip6->payload_len = htons((uint16_t)(sizeof(*udp) + len));
	ip6->nexthdr = IPPROTO_UDP;
	ip6->hop_limit = 64;
	ip6->saddr.s6_addr[15] = 1;
	ip6->daddr.s6_addr[15] = 2;
	udp->source = htons(40000);
	udp->dest = htons(TEST_PROBE_PORT);
	udp->len = ip6->payload_len;
	udp->check = htons(0x1234);
	return ETH_HLEN + sizeof(*ip6) + sizeof(*udp) + len;
}

static inline int print_silent(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

/* Exits 77 with one line if BPF programs cannot be loaded here. */
static inline void bpf_test_needs_root(void)
{
	libbpf_set_print(print_silent);
	if (geteuid() != 0) {
		printf("needs root to load BPF programs (BPF_PROG_TEST_RUN)\n");
		exit(77);
	}
}

/* skel = NAME_bpf__open(): the skeleton of build/kernel/NAME.bpf.o
 * (NAME.skel.h), the program as calvin embeds it. Exits 1 if it cannot. */
#define SKEL_OPEN(skel, name)                                                                      \
	do {                                                                                       \
		bpf_test_needs_root();                                                             \
		(skel) = name##_bpf__open();                                                       \
		if (!(skel)) {                                                                     \
			printf("cannot open the skeleton of %s.bpf.o: %s\n", #name,                \
			       strerror(errno));                                                   \
			exit(1);                                                                   \
		}                                                                                  \
	} while (0)

static inline void skel_loaded_or_skip(const char *name, int err)
{
	if (err) {
		printf("cannot load BPF program %s here: %s\n", name, strerror(-err));
		exit(77);
	}
}

/* Load an opened skeleton; exits 77 with the reason if the kernel refuses. */
#define SKEL_LOAD(skel, name) skel_loaded_or_skip(#name, name##_bpf__load(skel))

/* Open and load a two-port VNF's skeleton with probe_port and vnf_id set. */
#define SKEL_OPEN_LOAD_VNF(skel, name, id)                                                         \
	do {                                                                                       \
		SKEL_OPEN(skel, name);                                                             \
		(skel)->rodata->probe_port = TEST_PROBE_PORT;                                      \
		(skel)->rodata->vnf_id = (id);                                                     \
		SKEL_LOAD(skel, name);                                                             \
	} while (0)

/* Run the program once on a frame entering on ifindex; the frame is
 * rewritten in place. Returns the verdict, or -errno if the kernel refused
 * to run it (it refuses frames shorter than an Ethernet header). */
static inline int run_xdp(int prog_fd, int ifindex, uint8_t *frame, size_t *len)
{
	uint8_t out[FRAME_MAX + 256];
	struct xdp_md ctx = {.data_end = (uint32_t)*len, .ingress_ifindex = (uint32_t)ifindex};
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = frame, .data_size_in = (uint32_t)*len,
		    .data_out = out, .data_size_out = sizeof(out), .ctx_in = &ctx,
		    .ctx_size_in = sizeof(ctx));
	int err;

	err = bpf_prog_test_run_opts(prog_fd, &opts);
	if (err)
		return -errno;
	memcpy(frame, out, opts.data_size_out);
	*len = opts.data_size_out;
	return (int)opts.retval;
}

/* Sum of the per-CPU stats of direction dir. */
static inline struct calvin_vnf_stats read_stats(int stats_fd, uint32_t dir)
{
	int ncpu = libbpf_num_possible_cpus(), cpu;
	struct calvin_vnf_stats sum = {0}, *v = calloc((size_t)ncpu, sizeof(*v));
	/* __u64, the fields' own type: uint64_t would break strict aliasing. */
	const __u64 *src;
	__u64 *dst = (__u64 *)&sum;
	size_t i;

	if (!v || bpf_map_lookup_elem(stats_fd, &dir, v))
		abort();
	for (cpu = 0; cpu < ncpu; cpu++)
		for (i = 0, src = (const __u64 *)&v[cpu]; i < sizeof(sum) / sizeof(*dst); i++)
			dst[i] += src[i];
	free(v);
	return sum;
}

static inline void reset_stats(int stats_fd)
{
	int ncpu = libbpf_num_possible_cpus();
	struct calvin_vnf_stats *v = calloc((size_t)ncpu, sizeof(*v));
	uint32_t dir;

	for (dir = 0; v && dir < CALVIN_NR_DIRS; dir++)
		if (bpf_map_update_elem(stats_fd, &dir, v, BPF_ANY))
			abort();
	free(v);
}

#endif /* CALVIN_TEST_FRAMES_H */
