// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The transforms that only readdress frames: forward (a router's hop) and
 * echo (a server). Both are one burst loop: parse, rewrite, collect the
 * probes, send; what differs is the rewrite and the way out.
 */
#include <string.h>
#include <netinet/in.h>

#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_tcp.h>
#include <rte_udp.h>

#include "vnf.h"

static void count_drop(struct vnf_port_stats *ps, enum vnf_verdict v)
{
	if (v == VNF_PKT_NOT_IP)
		ps->drop_not_ip++;
	else
		ps->drop_truncated++;
}

static void swap_bytes(void *a, void *b, size_t len)
{
	uint8_t tmp[16];

	memcpy(tmp, a, len);
	memcpy(a, b, len);
	memcpy(b, tmp, len);
}

/* An ICMP echo request becomes its reply: only the type changes, so the
 * checksum is updated incrementally (RFC 1624) rather than recomputed. */
static void icmp_echo_reply(uint8_t *icmp, uint8_t reply_type)
{
	uint16_t *csum = (uint16_t *)(icmp + 2);
	uint16_t old_word = (uint16_t)(icmp[0] << 8 | icmp[1]);
	uint16_t new_word;
	uint32_t sum;

	icmp[0] = reply_type;
	new_word = (uint16_t)(icmp[0] << 8 | icmp[1]);
	sum = (uint32_t)(uint16_t)~rte_be_to_cpu_16(*csum) + (uint16_t)~old_word + new_word;
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	*csum = rte_cpu_to_be_16((uint16_t)~sum);
}

/* Swapping source and destination leaves the IPv4 header and the UDP/TCP
 * pseudo-header sums unchanged, so no checksum needs recomputing. */
static void echo_addresses(uint8_t *data, const struct vnf_pkt *p)
{
	uint8_t *l4 = data + p->l4_off;

	if (p->ether_type == RTE_ETHER_TYPE_IPV4) {
		struct rte_ipv4_hdr *ip = (void *)(data + p->l3_off);

		swap_bytes(&ip->src_addr, &ip->dst_addr, sizeof(ip->src_addr));
	} else {
		struct rte_ipv6_hdr *ip6 = (void *)(data + p->l3_off);

		swap_bytes(ip6->src_addr, ip6->dst_addr, sizeof(ip6->src_addr));
	}
	if (!p->l4_off)
		return;
	if (p->l4_proto == IPPROTO_UDP || p->l4_proto == IPPROTO_TCP)
		swap_bytes(l4, l4 + 2, 2); /* source and destination ports lead both headers */
	else if (p->l4_proto == IPPROTO_ICMP && l4[0] == 8)
		icmp_echo_reply(l4, 0);
}

/* What a readdressing transform does to one parsed frame that goes out
 * of side out. */
typedef void (*vnf_readdress_fn)(const struct vnf *vnf, enum vnf_side out,
				 struct rte_ether_hdr *eth, const struct vnf_pkt *p);

/* The one burst loop of forward and echo: frames we cannot parse are
 * counted and dropped, the others readdressed and sent out of side out,
 * their probes stamped as they leave. Inlined into each caller, so the
 * rewrite is a direct call, as it was when each had its own loop. */
static __rte_always_inline void readdress_burst(struct vnf *vnf, struct vnf_lcore_stats *st,
						enum vnf_side in, enum vnf_side out,
						struct rte_mbuf **pkts, uint16_t n, uint64_t t_in,
						vnf_readdress_fn readdress)
{
	struct vnf_probes probes = { .t_in = t_in, .in = in, .nb = 0 };
	struct rte_mbuf *keep[VNF_MAX_BURST];
	struct vnf_pkt p;
	enum vnf_verdict v;
	uint16_t i, k = 0;

	for (i = 0; i < n; i++) {
		v = vnf_pkt_parse(pkts[i], vnf->cfg.probe_port, &p);
		if (unlikely(v != VNF_PKT_OK)) {
			count_drop(&st->port[in], v);
			rte_pktmbuf_free(pkts[i]);
			continue;
		}
		readdress(vnf, out, rte_pktmbuf_mtod(pkts[i], struct rte_ether_hdr *), &p);
		if (p.probe) {
			probes.pkts[probes.nb] = pkts[i];
			probes.l4_off[probes.nb++] = p.l4_off;
		}
		keep[k++] = pkts[i];
	}
	vnf_tx(vnf, st, out, keep, k, &probes);
}

/* To the far end of the egress link, from the egress port, as a router
 * would. */
static inline void forward_readdress(const struct vnf *vnf, enum vnf_side out,
				     struct rte_ether_hdr *eth, const struct vnf_pkt *p)
{
	const struct vnf_port *op = &vnf->port[out];

	rte_ether_addr_copy(&op->peer, &eth->dst_addr);
	rte_ether_addr_copy(&op->mac, &eth->src_addr);
}

/* Frames entering on one side leave on the other. */
void vnf_forward_process(struct vnf *vnf, struct vnf_lcore_stats *st, enum vnf_side in,
			 struct rte_mbuf **pkts, uint16_t n, uint64_t t_in)
{
	readdress_burst(vnf, st, in, vnf_other_side(in), pkts, n, t_in, forward_readdress);
}

/* Back to the sender, from us: the old destination may be broadcast. */
static inline void echo_readdress(const struct vnf *vnf, enum vnf_side out,
				  struct rte_ether_hdr *eth, const struct vnf_pkt *p)
{
	rte_ether_addr_copy(&eth->src_addr, &eth->dst_addr);
	rte_ether_addr_copy(&vnf->port[out].mac, &eth->src_addr);
	echo_addresses((uint8_t *)eth, p);
}

/* A user-space server: every frame goes back where it came from. */
static void echo_process(struct vnf *vnf, struct vnf_lcore_stats *st, enum vnf_side in,
			 struct rte_mbuf **pkts, uint16_t n, uint64_t t_in)
{
	readdress_burst(vnf, st, in, in, pkts, n, t_in, echo_readdress);
}

const struct vnf_transform vnf_forward = {
	.name = "forward",
	.help = "west <-> east, MAC rewrite, probes stamped",
	.needs_east = true,
	.process = vnf_forward_process,
};

const struct vnf_transform vnf_echo = {
	.name = "echo",
	.help = "back out of the port it came in on, addresses swapped (a server)",
	.needs_east = false,
	.process = echo_process,
};
