// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Echo server stand-in for the MEC server: bounce frames back out of their own port with XDP_TX.
 *
 * Two modes, chosen by the loader (reflect_all):
 * - echo (the default): only probes are bounced. A probe is UDP over IPv4
 *   or IPv6 to probe_port with a telemetry block we understand (see
 *   telemetry.bpf.h), not an IPv4 fragment: a fragment's payload is not
 *   the start of the datagram, so a block seen there proves nothing. An
 *   IPv6 probe behind extension headers is not one either (the parser does
 *   not walk them).
 *   Everything else is XDP_PASS, so a real server application in the node
 *   (sockperf, say) still gets its traffic.
 * - all: every IPv4/IPv6 frame is bounced. UDP and TCP get their ports
 *   swapped; an ICMP or ICMPv6 echo request becomes an echo reply; any
 *   other L4 (SCTP, GRE, IPv6 extension headers, which the parser does not
 *   walk, ICMP other than echo request) only gets its addresses swapped.
 *   IPv4 fragments are bounced too, consistently: the first one (offset 0)
 *   carries the L4 header and gets the L4 treatment, later ones only the
 *   addresses, so the datagram reassembles into the reflected one.
 *
 * Either way MACs and IP addresses are swapped, VLAN tags (up to two) and
 * IPv4 options are kept as they are, TTL / hop limit is left alone, and
 * the telemetry block is not stamped: the server is an endpoint, not a
 * hop. Swapping is checksum-neutral (a one's-complement sum does not depend
 * on the order of its words, and the pseudo-header holds both addresses),
 * so the IPv4 header, UDP and TCP checksums stay valid untouched, zero UDP
 * checksums stay zero. Only the echo type change needs an incremental
 * checksum fix (RFC 1624).
 *
 * Not bounced in either mode, by design:
 * - malformed (parse.bpf.h: cut Ethernet/VLAN header, bad IPv4/IPv6
 *   header): XDP_DROP, drop_malformed;
 * - not IP (ARP, a third VLAN tag...): XDP_PASS, pass_other;
 * - a frame sent to a group MAC address (broadcast, multicast: IPv6
 *   neighbour solicitations, DHCP...): XDP_PASS, pass_other, since bouncing
 *   it would send a group address as the source MAC.
 * In all mode unicast ICMPv6 neighbour discovery is bounced like any other
 * ICMPv6, so the peers need static neighbours (as the chain's endpoints
 * have).
 *
 * Stats: what arrives is counted under CALVIN_DIR_FWD (rx_*, probes for
 * probes bounced, pass_other, drop_malformed), what is sent back under
 * CALVIN_DIR_REV (tx_*).
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <linux/icmp.h>
#include <linux/icmpv6.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>
#include <xdp/xdp_helpers.h>

#include "parse.bpf.h"
#include "telemetry.bpf.h"

/* Set by the loader before load. */
const volatile __u16 probe_port = 7357;
const volatile __u8 reflect_all = 0; /* 1: all mode (see above) */

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CALVIN_NR_DIRS);
	__type(key, __u32); /* CALVIN_DIR_* */
	__type(value, struct calvin_vnf_stats);
} calvin_stats SEC(".maps");

struct {
	__uint(priority, 10);
	__uint(XDP_PASS, 1);
} XDP_RUN_CONFIG(reflect);

static __always_inline bool is_probe(const struct calvin_pkt *p, void *data_end)
{
	if (p->l4_proto != IPPROTO_UDP || !p->l4 || p->frag)
		return false;
	return calvin_probe_find_udp(p->l4, data_end, probe_port, true) != NULL;
}

/* MACs and IP addresses, from the parser's copies so nothing is read back
 * after it was written. */
static __always_inline int swap_addresses(struct calvin_pkt *p, void *data_end)
{
	struct ethhdr *eth = p->eth;
	__u8 mac[ETH_ALEN];

	if ((void *)(eth + 1) > data_end)
		return -1;
	if (p->family == CALVIN_FAMILY_IPV4) {
		struct iphdr *ip = p->l3;

		if ((void *)(ip + 1) > data_end)
			return -1;
		ip->saddr = p->daddr[0];
		ip->daddr = p->saddr[0];
	} else {
		struct ipv6hdr *ip6 = p->l3;

		if ((void *)(ip6 + 1) > data_end)
			return -1;
		__builtin_memcpy(&ip6->saddr, p->daddr, 16);
		__builtin_memcpy(&ip6->daddr, p->saddr, 16);
	}
	__builtin_memcpy(mac, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, mac, ETH_ALEN);
	return 0;
}

static __always_inline void swap_ports(struct calvin_pkt *p, void *data_end)
{
	__be16 *ports = p->l4;

	if (!p->has_ports || !ports || (void *)(ports + 2) > data_end)
		return;
	ports[0] = bpf_htons(p->dport);
	ports[1] = bpf_htons(p->sport);
}

/* Turn an echo request (type req) into a reply (type rep): the type is the
 * high byte of the first checksummed word, whichever family. */
static __always_inline void echo_to_reply(struct calvin_pkt *p, void *data_end, __u8 req, __u8 rep)
{
	__u8 *hdr = p->l4, old[2], new[2];
	__u16 *check;
	__u32 sum;

	if (!hdr || (void *)(hdr + 4) > data_end || hdr[0] != req)
		return;
	check = (__u16 *)(hdr + 2);
	old[0] = req;
	old[1] = hdr[1];
	new[0] = rep;
	new[1] = old[1];
	sum = csum_sub_words(~*check & 0xffff, old, 1);
	hdr[0] = rep;
	/* 0xffff for a result of 0: the same number in one's complement, and
	 * what a sender computing it in full would send (RFC 1071). */
	*check = csum_finish(csum_add_words(sum, new, 1));
}

/* All mode: the L4 part of the bounce (see above). */
static __always_inline void reflect_l4(struct calvin_pkt *p, void *data_end)
{
	if (p->l4_proto == IPPROTO_UDP || p->l4_proto == IPPROTO_TCP)
		swap_ports(p, data_end);
	else if (p->family == CALVIN_FAMILY_IPV4 && p->l4_proto == IPPROTO_ICMP)
		echo_to_reply(p, data_end, ICMP_ECHO, ICMP_ECHOREPLY);
	else if (p->family == CALVIN_FAMILY_IPV6 && p->l4_proto == IPPROTO_ICMPV6)
		echo_to_reply(p, data_end, ICMPV6_ECHO_REQUEST, ICMPV6_ECHO_REPLY);
}

SEC("xdp")
int reflect(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u32 fwd = CALVIN_DIR_FWD, rev = CALVIN_DIR_REV;
	struct calvin_vnf_stats *rx, *tx;
	struct calvin_pkt pkt;
	bool probe;

	rx = bpf_map_lookup_elem(&calvin_stats, &fwd);
	tx = bpf_map_lookup_elem(&calvin_stats, &rev);
	if (!rx || !tx)
		return XDP_ABORTED; /* cannot happen: an array has every index */
	rx->rx_packets++;
	rx->rx_bytes += data_end - data;

	if (calvin_parse(data, data_end, &pkt)) {
		rx->drop_malformed++;
		return XDP_DROP;
	}
	if (pkt.family == CALVIN_FAMILY_ANY || (pkt.eth->h_dest[0] & 1))
		goto pass;
	probe = is_probe(&pkt, data_end);
	if (!probe && !reflect_all)
		goto pass;
	if (swap_addresses(&pkt, data_end))
		goto pass; /* cannot happen: the parser checked these bounds */
	reflect_l4(&pkt, data_end);
	if (probe)
		rx->probes++;
	tx->tx_packets++;
	tx->tx_bytes += data_end - data;
	return XDP_TX;

pass:
	rx->pass_other++;
	return XDP_PASS;
}

char _license[] SEC("license") = "Dual BSD/GPL";
