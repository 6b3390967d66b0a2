/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Bounded header parse shared by the XDP VNFs: Ethernet, up to two VLAN tags, IPv4/IPv6, ports.
 *
 * What it accepts and how it classifies, by design:
 * - Ethernet, then at most two VLAN tags (802.1Q 0x8100 or 802.1ad 0x88a8,
 *   in any order). A third tag, or any ethertype but IPv4/IPv6 after the
 *   tags, is "not IP" (family CALVIN_FAMILY_ANY): the VNFs pass it to the
 *   stack. A frame cut inside the Ethernet header or a tag is malformed.
 * - IPv4: version 4, ihl >= 5 and the whole header (options included) in
 *   the frame, else malformed. The header checksum and tot_len are not
 *   verified: a VNF is not the endpoint, and the next real IP stack drops
 *   what is bad. A fragment (MF or offset) is flagged; only the first one
 *   (offset 0) carries an L4 header, so only it can have ports.
 * - IPv6: version 6 and the fixed 40-byte header in the frame, else
 *   malformed. Extension headers are not walked: l4_proto is the fixed
 *   header's next header, and only TCP/UDP there give ports. So a packet
 *   with a hop-by-hop, routing, fragment or destination-options header is
 *   classified by that header's number ("other L4"), which is what an ACL
 *   rule on proto N sees.
 * - Ports: TCP or UDP whose first 4 bytes (the ports) are in the frame. An
 *   L4 header cut short is not malformed, it just has no ports (has_ports 0),
 *   so no rule with a port range matches it.
 */
#ifndef CALVIN_PARSE_BPF_H
#define CALVIN_PARSE_BPF_H

#include <stdbool.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include "calvin_xdp.h"

/* From the kernel's include/net/ip.h, which is not UAPI. */
#define CALVIN_IP_MF 0x2000
#define CALVIN_IP_OFFSET 0x1fff

#define CALVIN_MAX_VLANS 2

struct calvin_vlan_hdr {
	__be16 tci;
	__be16 proto; /* ethertype of what follows */
};

/* Where the headers of one frame are; filled by calvin_parse(). */
struct calvin_pkt {
	struct ethhdr *eth;
	void *l3;      /* struct iphdr or struct ipv6hdr; NULL if not IP */
	void *l4;      /* L4 header if present: not a later fragment */
	__u8 family;   /* CALVIN_FAMILY_*; ANY: not IP */
	__u8 l4_proto; /* IPPROTO_* (IPv6: the fixed header's next header) */
	__u8 nr_vlans;
	__u8 frag;	    /* IPv4 fragment, first or later */
	__u8 has_ports;	    /* sport and dport are valid */
	__u16 sport, dport; /* host order */
	/* Copies, IPv4 in word 0 and the rest zero: a later reader need not
	 * prove again which header l3 points to. */
	__be32 saddr[4], daddr[4];
};

static __always_inline bool is_vlan(__be16 proto)
{
	return proto == bpf_htons(ETH_P_8021Q) || proto == bpf_htons(ETH_P_8021AD);
}

static __always_inline void parse_ports(struct calvin_pkt *p, void *data_end)
{
	__be16 *ports = p->l4;

	if (p->l4_proto != IPPROTO_TCP && p->l4_proto != IPPROTO_UDP)
		return;
	if (!ports || (void *)(ports + 2) > data_end)
		return;
	p->sport = bpf_ntohs(ports[0]);
	p->dport = bpf_ntohs(ports[1]);
	p->has_ports = 1;
}

static __always_inline int parse_ipv4(struct calvin_pkt *p, void *data_end)
{
	struct iphdr *ip = p->l3;

	if ((void *)(ip + 1) > data_end)
		return -1;
	if (ip->version != 4 || ip->ihl < 5)
		return -1;
	if ((void *)ip + ip->ihl * 4 > data_end)
		return -1;
	p->family = CALVIN_FAMILY_IPV4;
	p->l4_proto = ip->protocol;
	p->saddr[0] = ip->saddr;
	p->daddr[0] = ip->daddr;
	p->frag = (ip->frag_off & bpf_htons(CALVIN_IP_MF | CALVIN_IP_OFFSET)) != 0;
	if (!(ip->frag_off & bpf_htons(CALVIN_IP_OFFSET)))
		p->l4 = (void *)ip + ip->ihl * 4;
	return 0;
}

static __always_inline int parse_ipv6(struct calvin_pkt *p, void *data_end)
{
	struct ipv6hdr *ip6 = p->l3;

	if ((void *)(ip6 + 1) > data_end)
		return -1;
	if (ip6->version != 6)
		return -1;
	p->family = CALVIN_FAMILY_IPV6;
	p->l4_proto = ip6->nexthdr;
	__builtin_memcpy(p->saddr, &ip6->saddr, 16);
	__builtin_memcpy(p->daddr, &ip6->daddr, 16);
	p->l4 = ip6 + 1;
	return 0;
}

/* Parse the frame in [data, data_end): 0 and p filled (p->family ANY for a
 * frame that is not IP), or -1 if malformed (see above). */
static __always_inline int calvin_parse(void *data, void *data_end, struct calvin_pkt *p)
{
	struct calvin_vlan_hdr *vlan;
	struct ethhdr *eth = data;
	void *cur = eth + 1;
	__be16 proto;
	int i;

	__builtin_memset(p, 0, sizeof(*p));
	if (cur > data_end)
		return -1;
	p->eth = eth;
	proto = eth->h_proto;
#pragma unroll
	for (i = 0; i < CALVIN_MAX_VLANS; i++) {
		if (!is_vlan(proto))
			break;
		vlan = cur;
		if ((void *)(vlan + 1) > data_end)
			return -1;
		proto = vlan->proto;
		cur = vlan + 1;
		p->nr_vlans++;
	}
	p->l3 = cur;
	if (proto == bpf_htons(ETH_P_IP)) {
		if (parse_ipv4(p, data_end))
			return -1;
	} else if (proto == bpf_htons(ETH_P_IPV6)) {
		if (parse_ipv6(p, data_end))
			return -1;
	} else {
		p->l3 = NULL; /* not IP, or a third tag */
		return 0;
	}
	parse_ports(p, data_end);
	return 0;
}

#endif /* CALVIN_PARSE_BPF_H */
