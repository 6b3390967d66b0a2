/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Frame builder for the table-driven BPF tests: VLAN tags, IPv4/IPv6, UDP/TCP/ICMP, checksums.
 *
 * Header-only, like frames.h, which it extends: every frame it builds has
 * valid IPv4 header and L4 checksums, so a test can check that a VNF kept
 * them valid by recomputing them (frame_csums_ok()).
 */
#ifndef CALVIN_TEST_FRAMES_L3_H
#define CALVIN_TEST_FRAMES_L3_H

#include <stdbool.h>
#include <linux/icmp.h>
#include <linux/tcp.h>

#include "frames.h"

struct frame_spec {
	int family; /* 4 or 6; anything else: an ARP frame */
	unsigned int nr_vlans;
	uint16_t vlan_proto[3]; /* default 802.1Q */
	uint8_t proto;		/* IPPROTO_UDP (default), _TCP, _ICMP, _ICMPV6, or other */
	uint8_t src[16], dst[16];
	uint16_t sport, dport;
	unsigned int ihl;  /* IPv4: 5 (default) + words of NOP options */
	uint16_t frag_off; /* IPv4, host order */
	uint8_t ttl;	   /* default 64; set ttl_zero for 0 */
	bool ttl_zero;
	bool no_csum; /* UDP: checksum 0 */
};

static inline unsigned int frame_l3_off(const struct frame_spec *s)
{
	return ETH_HLEN + 4 * s->nr_vlans;
}

static inline unsigned int frame_ihl(const struct frame_spec *s)
{
	return s->ihl ? s->ihl : 5;
}

static inline unsigned int frame_l4_off(const struct frame_spec *s)
{
	return frame_l3_off(s) + (s->family == 6 ? 40 : frame_ihl(s) * 4);
}

static inline uint8_t frame_proto(const struct frame_spec *s)
{
	return s->proto ? s->proto : IPPROTO_UDP;
}

static inline unsigned int frame_l4_hdr_len(const struct frame_spec *s)
{
	switch (frame_proto(s)) {
	case IPPROTO_TCP:
		return sizeof(struct tcphdr);
	case IPPROTO_UDP:
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		return 8;
	default:
		return 0;
	}
}

static inline unsigned int frame_payload_off(const struct frame_spec *s)
{
	return frame_l4_off(s) + frame_l4_hdr_len(s);
}

/* Offset of the L4 checksum field, or 0 if it has none we keep. */
static inline unsigned int frame_csum_off(const struct frame_spec *s)
{
	switch (frame_proto(s)) {
	case IPPROTO_TCP:
		return frame_l4_off(s) + 16;
	case IPPROTO_UDP:
		return frame_l4_off(s) + 6;
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		return frame_l4_off(s) + 2;
	default:
		return 0;
	}
}

/* Pseudo-header sum (none for ICMPv4) over the L4 bytes [l4, l4 + len). */
static inline uint32_t frame_pseudo_sum(const uint8_t *f, const struct frame_spec *s, size_t len)
{
	const uint8_t *l3 = f + frame_l3_off(s);
	uint32_t sum;

	if (frame_proto(s) == IPPROTO_ICMP)
		return 0;
	if (s->family == 6)
		sum = csum_add(0, l3 + 8, 32);
	else
		sum = csum_add(0, l3 + 12, 8);
	return sum + frame_proto(s) + (uint32_t)len;
}

static inline void frame_fill_l4(uint8_t *f, const struct frame_spec *s, size_t l4_len)
{
	uint8_t *l4 = f + frame_l4_off(s);
	unsigned int coff = frame_csum_off(s);
	uint16_t c;

	switch (frame_proto(s)) {
	case IPPROTO_TCP:
		((struct tcphdr *)l4)->doff = 5;
		((struct tcphdr *)l4)->ack = 1;
		/* fall through */
	case IPPROTO_UDP:
		((uint16_t *)l4)[0] = htons(s->sport);
		((uint16_t *)l4)[1] = htons(s->dport);
		if (frame_proto(s) == IPPROTO_UDP)
			((struct udphdr *)l4)->len = htons((uint16_t)l4_len);
		break;
	case IPPROTO_ICMP:
		l4[0] = ICMP_ECHO;
		break;
	case IPPROTO_ICMPV6:
		l4[0] = 128; /* echo request */
		break;
	}
	if (!coff || (s->no_csum && frame_proto(s) == IPPROTO_UDP))
		return;
	c = csum_fold(csum_add(frame_pseudo_sum(f, s, l4_len), l4, l4_len));
	if (!c && frame_proto(s) == IPPROTO_UDP)
		c = 0xffff;
	f[coff] = (uint8_t)(c >> 8);
	f[coff + 1] = (uint8_t)c;
}

static inline void frame_fill_l3(uint8_t *f, const struct frame_spec *s, size_t l3_len)
{
	uint8_t ttl = s->ttl_zero ? 0 : s->ttl ? s->ttl : 64;
	uint8_t *l3 = f + frame_l3_off(s);

	if (s->family == 6) {
		struct ipv6hdr *ip6 = (struct ipv6hdr *)l3;

		ip6->version = 6;
		ip6->payload_len = htons((uint16_t)(l3_len - sizeof(*ip6)));
		ip6->nexthdr = frame_proto(s);
		ip6->hop_limit = ttl;
		memcpy(&ip6->saddr, s->src, 16);
		memcpy(&ip6->daddr, s->dst, 16);
	} else {
		struct iphdr *ip = (struct iphdr *)l3;

		ip->version = 4;
		ip->ihl = frame_ihl(s);
		ip->ttl = ttl;
		ip->protocol = frame_proto(s);
		ip->tot_len = htons((uint16_t)l3_len);
		ip->frag_off = htons(s->frag_off);
		memcpy(&ip->saddr, s->src, 4);
		memcpy(&ip->daddr, s->dst, 4);
		memset(ip + 1, 1, (frame_ihl(s) - 5) * 4); /* NOP options */
		ip->check = htons(csum_fold(csum_add(0, ip, ip->ihl * 4u)));
	}
}

/* Build the frame s describes around payload; returns its length. */
static inline size_t build_frame(uint8_t *f, const struct frame_spec *s, const void *payload,
				 size_t len)
{
	unsigned int i, l3 = frame_l3_off(s), pay = frame_payload_off(s);
	struct ethhdr *eth = (struct ethhdr *)f;
	uint16_t *tag;

	if (s->family != 4 && s->family != 6)
		return build_arp(f);
	memset(f, 0, pay + len);
	memcpy(eth->h_dest, mac_vnf_w, ETH_ALEN);
	memcpy(eth->h_source, mac_probe, ETH_ALEN);
	for (i = 0; i < s->nr_vlans; i++) {
		tag = (uint16_t *)(f + ETH_HLEN - 2 + 4 * i);
		tag[0] = htons(s->vlan_proto[i] ? s->vlan_proto[i] : ETH_P_8021Q);
		tag[1] = htons((uint16_t)(100 + i)); /* the TCI */
	}
	*(uint16_t *)(f + l3 - 2) = htons(s->family == 6 ? ETH_P_IPV6 : ETH_P_IP);
	memcpy(f + pay, payload, len);
	frame_fill_l3(f, s, pay + len - l3);
	if (!(s->frag_off & 0x1fff))
		frame_fill_l4(f, s, pay + len - frame_l4_off(s));
	return pay + len;
}

/* A probe of s's addressing with a telemetry block of max_hops records,
 * nr_hops filled. */
static inline size_t build_frame_probe(uint8_t *f, const struct frame_spec *s, uint8_t max_hops,
				       uint8_t nr_hops)
{
	uint8_t payload[FRAME_MAX];

	return build_frame(f, s, payload, build_probe_payload(payload, max_hops, nr_hops));
}

/* Do the IPv4 header checksum and the L4 checksum of frame f (len bytes)
 * verify? A UDP checksum of 0 counts as valid (IPv4: none). */
static inline bool frame_csums_ok(const uint8_t *f, const struct frame_spec *s, size_t len)
{
	const uint8_t *l3 = f + frame_l3_off(s);
	size_t l4_len = len - frame_l4_off(s);
	unsigned int coff = frame_csum_off(s);

	if (s->family == 4 && ipv4_csum_check((const struct iphdr *)l3))
		return false;
	if (s->family == 4 && (s->frag_off & 0x1fff))
		return true;
	if (!coff || (frame_proto(s) == IPPROTO_UDP && !f[coff] && !f[coff + 1]))
		return true;
	return csum_fold(csum_add(frame_pseudo_sum(f, s, l4_len), f + frame_l4_off(s), l4_len)) ==
	       0;
}

static inline void addr4(uint8_t *a, uint8_t b0, uint8_t b1, uint8_t b2, uint8_t b3)
{
	a[0] = b0;
	a[1] = b1;
	a[2] = b2;
	a[3] = b3;
}

/* 2001:db8::X:Y */
static inline void addr6(uint8_t *a, uint8_t x, uint8_t y)
{
	memset(a, 0, 16);
	a[0] = 0x20;
	a[1] = 0x01;
	a[2] = 0x0d;
	a[3] = 0xb8;
	a[13] = x;
	a[15] = y;
}

#endif /* CALVIN_TEST_FRAMES_L3_H */
