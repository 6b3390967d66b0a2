// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* What the transforming VNFs (nc.c, crypt.c) share: finding the bytes they
 * transform, growing and shrinking them in place, building new frames.
 *
 * The transformed bytes are an IPv4 UDP payload minus the probe's telemetry
 * block, which stays in clear at the front so that VNFs further down can
 * still stamp it. They always end the frame (Ethernet padding is trimmed
 * first), so a header goes in front of them by moving the few bytes before
 * them into the headroom, and a trailer is appended at the tail: the bulk
 * of the packet is never copied. IPv6 and non-UDP frames are left alone.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <rte_byteorder.h>
#include <rte_ip.h>
#include <rte_udp.h>

#include "vnf.h"

void vnf_out_init(struct vnf_out *o, enum vnf_side side, enum vnf_side in, uint64_t t_in)
{
	o->side = side;
	o->n = 0;
	o->probes.t_in = t_in;
	o->probes.in = in;
	o->probes.nb = 0;
}

void vnf_out_flush(struct vnf *vnf, struct vnf_lcore_stats *st, struct vnf_out *o)
{
	vnf_tx(vnf, st, o->side, o->pkts, o->n, &o->probes);
	o->n = 0;
}

void vnf_out_add(struct vnf *vnf, struct vnf_lcore_stats *st, struct vnf_out *o, struct rte_mbuf *m,
		 bool probe, uint16_t l4_off)
{
	if (o->n == VNF_MAX_BURST)
		vnf_out_flush(vnf, st, o);
	o->pkts[o->n++] = m;
	if (probe) {
		o->probes.pkts[o->probes.nb] = m;
		o->probes.l4_off[o->probes.nb++] = l4_off;
	}
}

/* Length of the telemetry block at the front of a probe's payload, or 0
 * when there is none we know: its bytes are then transformed like any. */
uint16_t vnf_tlm_len(const uint8_t *payload, uint16_t len)
{
	return (uint16_t)calvin_tlm_block_len(payload, len);
}

/* The frame is [0, frame_len) with its bytes after a->off changed. */
static void lengths_set(uint8_t *d, const struct vnf_app *a, uint16_t frame_len)
{
	struct rte_ipv4_hdr *ip = (void *)(d + a->l3_off);
	struct rte_udp_hdr *udp = (void *)(d + a->l4_off);

	ip->total_length = rte_cpu_to_be_16((uint16_t)(frame_len - a->l3_off));
	ip->hdr_checksum = 0;
	ip->hdr_checksum = rte_ipv4_cksum(ip);
	udp->dgram_len = rte_cpu_to_be_16((uint16_t)(frame_len - a->l4_off));
	udp->dgram_cksum = 0; /* none, for IPv4: cheaper than recomputing it */
}

static int app_locate(struct rte_mbuf *m, const struct vnf_pkt *p, struct vnf_app *a)
{
	uint8_t *d = rte_pktmbuf_mtod(m, uint8_t *);
	const struct rte_ipv4_hdr *ip = (const void *)(d + p->l3_off);
	const struct rte_udp_hdr *udp = (const void *)(d + p->l4_off);
	uint16_t frame_len = (uint16_t)(p->l3_off + rte_be_to_cpu_16(ip->total_length));
	uint16_t udp_len = rte_be_to_cpu_16(udp->dgram_len), skip = 0;

	if (!rte_pktmbuf_is_contiguous(m) || frame_len > rte_pktmbuf_data_len(m) ||
	    udp_len < sizeof(*udp) || p->l4_off + udp_len != frame_len ||
	    p->l4_off + sizeof(*udp) > VNF_TMPL_MAX)
		return -EBADMSG;
	if (rte_pktmbuf_data_len(m) > frame_len)
		rte_pktmbuf_trim(m, (uint16_t)(rte_pktmbuf_data_len(m) - frame_len));
	if (p->probe)
		skip = vnf_tlm_len((const uint8_t *)(udp + 1), (uint16_t)(udp_len - sizeof(*udp)));
	a->l3_off = p->l3_off;
	a->l4_off = p->l4_off;
	a->off = (uint16_t)(p->l4_off + sizeof(*udp) + skip);
	a->len = (uint16_t)(frame_len - a->off);
	a->probe = skip != 0;
	return 0;
}

/* First steps of a transforming VNF for a frame that came in on side in:
 * parse, readdress for the link it leaves on (o's side), find the bytes
 * to transform. Returns 1 with *a filled; 0 when the frame is not IPv4 UDP
 * and was queued on o as it came; -1 when it was dropped (freed and
 * counted). */
int vnf_app_prepare(struct vnf *vnf, struct vnf_lcore_stats *st, enum vnf_side in,
		    struct rte_mbuf *m, struct vnf_app *a, struct vnf_out *o)
{
	const struct vnf_port *op = &vnf->port[o->side];
	struct vnf_port_stats *ps = &st->port[in];
	struct rte_ether_hdr *eth;
	struct vnf_pkt p;
	enum vnf_verdict v;

	v = vnf_pkt_parse(m, vnf->cfg.probe_port, &p);
	if (unlikely(v != VNF_PKT_OK)) {
		if (v == VNF_PKT_NOT_IP)
			ps->drop_not_ip++;
		else
			ps->drop_truncated++;
		rte_pktmbuf_free(m);
		return -1;
	}
	eth = rte_pktmbuf_mtod(m, struct rte_ether_hdr *);
	rte_ether_addr_copy(&op->peer, &eth->dst_addr);
	rte_ether_addr_copy(&op->mac, &eth->src_addr);
	if (p.ether_type != RTE_ETHER_TYPE_IPV4 || !p.l4_off || p.l4_proto != IPPROTO_UDP) {
		st->xf.untouched++;
		vnf_out_add(vnf, st, o, m, p.probe, p.l4_off);
		return 0;
	}
	if (unlikely(app_locate(m, &p, a))) {
		ps->drop_truncated++;
		rte_pktmbuf_free(m);
		return -1;
	}
	return 1;
}

/* Read once: link MTUs are the controller's to set before the VNF starts. */
void vnf_mtu_read(struct vnf *vnf)
{
	enum vnf_side side;
	struct ifreq ifr;
	int fd;

	memset(vnf->mtu, 0, sizeof(vnf->mtu));
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	for (side = VNF_WEST; side < VNF_SIDES; side++) {
		if (!vnf->cfg.ifname[side])
			continue;
		memset(&ifr, 0, sizeof(ifr));
		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", vnf->cfg.ifname[side]);
		if (!ioctl(fd, SIOCGIFMTU, &ifr) && ifr.ifr_mtu > 0)
			vnf->mtu[side] = (unsigned int)ifr.ifr_mtu;
	}
	close(fd);
}

/* Open head bytes in front of the application bytes (a->off then points
 * at them) and tail bytes after them. Returns 0, or -EMSGSIZE when the IP
 * packet would exceed mtu (0: no limit), -ENOSPC when the mbuf has no
 * room; the frame is then unchanged. */
int vnf_app_grow(struct rte_mbuf *m, struct vnf_app *a, uint16_t head, uint16_t tail,
		 unsigned int mtu)
{
	bool front = rte_pktmbuf_headroom(m) >= head;
	uint8_t *d;

	if (mtu && (unsigned int)(rte_pktmbuf_data_len(m) - a->l3_off + head + tail) > mtu)
		return -EMSGSIZE;
	if (rte_pktmbuf_tailroom(m) < tail + (front ? 0 : head))
		return -ENOSPC;
	if (front) {
		/* the headers are shorter than the payload they would move past */
		d = (uint8_t *)rte_pktmbuf_prepend(m, head);
		memmove(d, d + head, a->off);
	} else {
		d = rte_pktmbuf_mtod(m, uint8_t *);
		rte_pktmbuf_append(m, head);
		memmove(d + a->off + head, d + a->off, a->len);
	}
	if (tail)
		rte_pktmbuf_append(m, tail);
	a->len = (uint16_t)(a->len + head + tail);
	lengths_set(d, a, rte_pktmbuf_data_len(m));
	return 0;
}

/* Remove head bytes at a->off and tail bytes at the end; the caller made
 * sure a->len >= head + tail. */
void vnf_app_shrink(struct rte_mbuf *m, struct vnf_app *a, uint16_t head, uint16_t tail)
{
	uint8_t *d = rte_pktmbuf_mtod(m, uint8_t *);

	memmove(d + head, d, a->off);
	d = (uint8_t *)rte_pktmbuf_adj(m, head);
	rte_pktmbuf_trim(m, tail);
	a->len = (uint16_t)(a->len - head - tail);
	lengths_set(d, a, rte_pktmbuf_data_len(m));
}

/* A new frame from the pool: the Ethernet, IPv4 and UDP headers of tmpl
 * (laid out as a says, no telemetry block), then len bytes. NULL when the
 * pool is empty. */
struct rte_mbuf *vnf_frame_build(struct rte_mempool *pool, const uint8_t *tmpl,
				 const struct vnf_app *a, const void *bytes, uint16_t len)
{
	uint16_t hdr_len = (uint16_t)(a->l4_off + sizeof(struct rte_udp_hdr));
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	struct vnf_app na = *a;
	uint8_t *d;

	if (!m)
		return NULL;
	d = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)(hdr_len + len));
	if (!d) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	memcpy(d, tmpl, hdr_len);
	memcpy(d + hdr_len, bytes, len);
	na.off = hdr_len;
	na.len = len;
	na.probe = false;
	lengths_set(d, &na, (uint16_t)(hdr_len + len));
	return m;
}

/* The shape of every transforming VNF, for one direction: each frame that
 * came in on side in is prepared for the other side and handed to fn with
 * priv, and what fn keeps leaves together. fn NULL: this direction is not
 * transformed, frames are forwarded as they came. */
void vnf_app_burst(struct vnf *vnf, struct vnf_lcore_stats *st, enum vnf_side in,
		   struct rte_mbuf **pkts, uint16_t n, uint64_t t_in, vnf_app_fn fn, void *priv)
{
	struct vnf_out o;
	struct vnf_app a;
	uint16_t i;

	if (!fn) {
		vnf_forward_process(vnf, st, in, pkts, n, t_in);
		return;
	}
	vnf_out_init(&o, vnf_other_side(in), in, t_in);
	for (i = 0; i < n; i++)
		if (vnf_app_prepare(vnf, st, in, pkts[i], &a, &o) == 1)
			fn(vnf, st, priv, pkts[i], &a, &o);
	vnf_out_flush(vnf, st, &o);
}
