/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* BPF side of the probe telemetry: find a probe packet and stamp its next hop record.
 *
 * Only IPv4 probes are recognised. IPv6 and VLAN-tagged frames are never
 * stamped here: the caller sees them before calling in (the forwarder
 * redirects IPv6 untouched and hands VLAN frames to the stack); stamping
 * them is left to a later change. IPv4 fragments are not stamped either: a
 * fragment's payload is not the start of the datagram, and a later fragment
 * has no UDP header at all.
 *
 * Timestamps are bpf_ktime_get_ns(), the host's CLOCK_MONOTONIC, so a
 * kernel hop and a user hop in the same host can be compared
 * (CALVIN_CLOCK_HOST_MONO). t_in is taken by the caller at its first
 * instruction; t_out by calvin_tlm_stamp_out() just before the verdict is
 * returned, so the residence time covers parsing, lookups, rewriting and
 * the redirect helper, but not the driver's transmit after the program.
 */
#ifndef CALVIN_TELEMETRY_BPF_H
#define CALVIN_TELEMETRY_BPF_H

#include <stdbool.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

#include <calvin/telemetry.h>
#include "calvin_xdp.h"

/* From the kernel's include/net/ip.h, which is not UAPI. */
#define CALVIN_IP_MF 0x2000
#define CALVIN_IP_OFFSET 0x1fff

_Static_assert((CALVIN_TLM_MAX_HOPS & (CALVIN_TLM_MAX_HOPS - 1)) == 0,
	       "the hop index is masked, so the bound must be a power of two");

/* Where a probe's headers are, once calvin_probe_find() has checked them. */
struct calvin_probe {
	struct iphdr *ip;
	struct udphdr *udp;
	struct calvin_tlm_hdr *tlm;
};

/* Is the IPv4 packet at l3 a probe: UDP to or from probe_port (to it only if
 * dst_only), not a fragment, with a telemetry block we understand lying
 * wholly inside the packet? 0 and p filled if so, -1 if not. */
static __always_inline int calvin_probe_find(void *l3, void *data_end, __u16 probe_port,
					     bool dst_only, struct calvin_probe *p)
{
	__be16 port = bpf_htons(probe_port);
	struct calvin_tlm_hdr *tlm;
	struct iphdr *ip = l3;
	struct udphdr *udp;

	if ((void *)(ip + 1) > data_end)
		return -1;
	if (ip->version != 4 || ip->ihl < 5 || ip->protocol != IPPROTO_UDP)
		return -1;
	if (ip->frag_off & bpf_htons(CALVIN_IP_MF | CALVIN_IP_OFFSET))
		return -1;
	udp = l3 + ip->ihl * 4;
	if ((void *)(udp + 1) > data_end)
		return -1;
	if (udp->dest != port && (dst_only || udp->source != port))
		return -1;
	tlm = (void *)(udp + 1);
	if ((void *)(tlm + 1) > data_end)
		return -1;
	if (tlm->magic != bpf_htonl(CALVIN_TLM_MAGIC) || tlm->version != CALVIN_TLM_VERSION)
		return -1;
	if (tlm->max_hops == 0 || tlm->max_hops > CALVIN_TLM_MAX_HOPS ||
	    tlm->nr_hops > tlm->max_hops)
		return -1;
	if ((void *)tlm + CALVIN_TLM_LEN(tlm->max_hops) > data_end)
		return -1;
	p->ip = ip;
	p->udp = udp;
	p->tlm = tlm;
	return 0;
}

/* Stamp the IPv4 packet at l3 if it is a probe: fill its next hop record,
 * except t_out, and return the record so the caller can set t_out last.
 * NULL if it is no probe, or if the block was full (then the overflow flag
 * is set and counted). */
static __always_inline struct calvin_tlm_hop *calvin_tlm_stamp(void *l3, void *data_end,
							       __u16 probe_port, __u16 vnf_id,
							       __u8 dir, __u64 t_in,
							       struct calvin_vnf_stats *st)
{
	struct calvin_tlm_hop *hop;
	struct calvin_probe p;
	__u32 idx;

	if (calvin_probe_find(l3, data_end, probe_port, false, &p))
		return NULL;
	/* The payload changes below and we do not recompute the checksum:
	 * IPv4 lets a UDP sender say "no checksum" with 0. */
	if (p.udp->check)
		p.udp->check = 0;
	idx = p.tlm->nr_hops;
	if (idx >= p.tlm->max_hops) {
		p.tlm->flags |= CALVIN_TLM_F_OVERFLOW;
		st->tlm_overflow++;
		return NULL;
	}
	/* A no-op after the check above, but it is what lets the verifier
	 * bound the record's offset. */
	idx &= CALVIN_TLM_MAX_HOPS - 1;
	hop = (struct calvin_tlm_hop *)(p.tlm + 1) + idx;
	if ((void *)(hop + 1) > data_end)
		return NULL;
	hop->vnf_id = bpf_htons(vnf_id);
	hop->space = CALVIN_SPACE_KERNEL;
	hop->clock = CALVIN_CLOCK_HOST_MONO;
	hop->dir = dir;
	hop->reserved[0] = 0;
	hop->reserved[1] = 0;
	hop->reserved[2] = 0;
	hop->t_in = bpf_cpu_to_be64(t_in);
	hop->t_out = hop->t_in; /* until calvin_tlm_stamp_out() */
	p.tlm->nr_hops = idx + 1;
	st->probes++;
	return hop;
}

/* Set t_out of a record from calvin_tlm_stamp(): call it last, just before
 * returning the verdict. */
static __always_inline void calvin_tlm_stamp_out(struct calvin_tlm_hop *hop)
{
	if (hop)
		hop->t_out = bpf_cpu_to_be64(bpf_ktime_get_ns());
}

#endif /* CALVIN_TELEMETRY_BPF_H */
