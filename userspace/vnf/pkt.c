// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Frame parsing and probe stamping, shared by the transforms.
 *
 * Only the first segment is read: the PMDs used here (af_xdp, af_packet)
 * deliver a frame in one segment, and a header that does not fit in it
 * counts as truncated. */
#include <errno.h>
#include <netinet/in.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_udp.h>

#include "measure/measure.h"
#include "vnf.h"

/* Minimum L4 header we need to read, or 0 for protocols we leave alone. */
static uint16_t l4_min_len(uint8_t proto)
{
	switch (proto) {
	case IPPROTO_UDP:
		return sizeof(struct rte_udp_hdr);
	case IPPROTO_TCP:
		return 20;
	case IPPROTO_ICMP:
	case IPPROTO_ICMPV6:
		return 8;
	}
	return 0;
}

static enum vnf_verdict parse_l4(uint16_t len, uint8_t proto, struct vnf_pkt *p)
{
	uint16_t need = l4_min_len(proto);

	if (!need) {
		p->l4_off = 0;
		return VNF_PKT_OK;
	}
	if (len < p->l4_off + need)
		return VNF_PKT_TRUNCATED;
	p->l4_proto = proto;
	return VNF_PKT_OK;
}

static enum vnf_verdict parse_ipv4(const uint8_t *data, uint16_t len, uint16_t probe_port,
				   struct vnf_pkt *p)
{
	const struct rte_ipv4_hdr *ip = (const void *)(data + p->l3_off);
	const struct rte_udp_hdr *udp;
	uint16_t ihl_len, frag;
	enum vnf_verdict v;

	if (len < p->l3_off + sizeof(*ip))
		return VNF_PKT_TRUNCATED;
	ihl_len = (uint16_t)((ip->version_ihl & 0x0f) * 4);
	if (ihl_len < sizeof(*ip) || len < p->l3_off + ihl_len ||
	    rte_be_to_cpu_16(ip->total_length) < ihl_len)
		return VNF_PKT_TRUNCATED;
	/* a fragment's L4 header is absent, or describes more than we hold */
	frag = rte_be_to_cpu_16(ip->fragment_offset);
	if (frag & (RTE_IPV4_HDR_MF_FLAG | RTE_IPV4_HDR_OFFSET_MASK))
		return VNF_PKT_OK;
	p->l4_off = p->l3_off + ihl_len;
	v = parse_l4(len, ip->next_proto_id, p);
	if (v != VNF_PKT_OK || p->l4_proto != IPPROTO_UDP)
		return v;
	udp = (const void *)(data + p->l4_off);
	p->probe = rte_be_to_cpu_16(udp->src_port) == probe_port ||
		   rte_be_to_cpu_16(udp->dst_port) == probe_port;
	return VNF_PKT_OK;
}

/* Extension headers are not walked: such packets are forwarded untouched. */
static enum vnf_verdict parse_ipv6(uint16_t len, const uint8_t *data, struct vnf_pkt *p)
{
	const struct rte_ipv6_hdr *ip6 = (const void *)(data + p->l3_off);

	if (len < p->l3_off + sizeof(*ip6))
		return VNF_PKT_TRUNCATED;
	p->l4_off = p->l3_off + sizeof(*ip6);
	return parse_l4(len, ip6->proto, p);
}

enum vnf_verdict vnf_pkt_parse(const struct rte_mbuf *m, uint16_t probe_port, struct vnf_pkt *p)
{
	const uint8_t *data = rte_pktmbuf_mtod(m, const uint8_t *);
	const struct rte_ether_hdr *eth = (const void *)data;
	uint16_t len = rte_pktmbuf_data_len(m);
	enum vnf_verdict v;

	p->l3_off = sizeof(*eth);
	p->l4_off = 0;
	p->l4_proto = 0;
	p->probe = false;
	if (len < sizeof(*eth))
		return VNF_PKT_TRUNCATED;
	p->ether_type = rte_be_to_cpu_16(eth->ether_type);
	if (p->ether_type == RTE_ETHER_TYPE_IPV4)
		v = parse_ipv4(data, len, probe_port, p);
	else if (p->ether_type == RTE_ETHER_TYPE_IPV6)
		v = parse_ipv6(len, data, p);
	else
		return VNF_PKT_NOT_IP;
	if (v != VNF_PKT_OK)
		p->l4_off = 0;
	return v;
}

/* Stamp one probe: close the record our hand-over program opened when
 * the port has one (handover.c), else push one whose t_in is when rx_burst
 * returned. Its IPv4 UDP checksum no longer matches a changed payload, and
 * 0 means "none" for IPv4 UDP. */
static void stamp_one(struct rte_mbuf *m, uint16_t l4_off, const struct calvin_hop *hop,
		      bool handover, struct vnf_port_stats *ps)
{
	uint8_t *data = rte_pktmbuf_mtod(m, uint8_t *);
	struct rte_udp_hdr *udp = (void *)(data + l4_off);
	uint16_t avail = rte_pktmbuf_data_len(m) - l4_off - sizeof(*udp);
	uint16_t ulen = rte_be_to_cpu_16(udp->dgram_len);
	size_t plen;
	int ret;

	if (ulen < sizeof(*udp)) {
		ps->probes_invalid++;
		return;
	}
	plen = RTE_MIN((uint16_t)(ulen - sizeof(*udp)), avail);
	ret = handover ? calvin_tlm_close_hop(udp + 1, plen, hop) : -ENOENT;
	if (ret >= 0)
		ps->probes_handover++;
	else if (ret == -ENOENT)
		ret = calvin_tlm_push_hop(udp + 1, plen, hop);
	if (ret >= 0)
		ps->probes_stamped++;
	else if (ret == -ENOSPC)
		ps->probes_full++;
	else {
		ps->probes_invalid++;
		return;
	}
	udp->dgram_cksum = 0;
}

void vnf_probes_stamp(const struct vnf *vnf, struct vnf_lcore_stats *st, struct vnf_probes *probes,
		      uint64_t t_out)
{
	struct vnf_port_stats *ps = &st->port[probes->in];
	bool handover = vnf->port[probes->in].handover;
	struct calvin_hop hop = {
	    .vnf_id = vnf->cfg.vnf_id,
	    .space = CALVIN_SPACE_USER,
	    .clock = vnf->cfg.clock,
	    .dir = vnf->port[probes->in].dir_in,
	    .t_in = probes->t_in,
	    .t_out = t_out,
	};
	uint16_t i;

	for (i = 0; i < probes->nb; i++)
		stamp_one(probes->pkts[i], probes->l4_off[i], &hop, handover, ps);
	probes->nb = 0;
}
