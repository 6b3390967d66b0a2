/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* BPF side of the probe telemetry: find a probe packet and stamp its next hop record.
 *
 * A probe is UDP over IPv4 or IPv6 (behind up to two VLAN tags: see
 * parse.bpf.h) to or from the probe port. IPv4 fragments are not stamped: a
 * fragment's payload is not the start of the datagram, and a later fragment
 * has no UDP header at all. IPv6 probes with extension headers are not
 * recognised (the parser does not walk them).
 *
 * Stamping changes the UDP payload, so a UDP checksum that is there is
 * updated incrementally for every 16-bit word written (RFC 1624), for both
 * families: it stays valid if it was valid. IPv6 makes the checksum
 * mandatory; a zero one (invalid in IPv6, "none" in IPv4) is left zero.
 * Hop records and the nr_hops/flags word lie at even offsets from the UDP
 * header, so they are whole 16-bit words of the checksum.
 *
 * Timestamps are bpf_ktime_get_ns(), the host's CLOCK_MONOTONIC, so a
 * kernel hop and a user hop in the same host can be compared
 * (CALVIN_CLOCK_HOST_MONO). t_in is taken by the caller at its first
 * instruction; the residence by calvin_tlm_stamp_out() just before the
 * verdict is returned, so it covers parsing, lookups, rewriting and the
 * redirect helper, but not the driver's transmit after the program.
 * A user VNF's window starts the same way, in the hand-over program on its
 * port (handover.bpf.c), and ends before its PMD transmits.
 */
#ifndef CALVIN_TELEMETRY_BPF_H
#define CALVIN_TELEMETRY_BPF_H

#include <stdbool.h>
#include <linux/udp.h>

#include <calvin/telemetry.h>
#include "calvin_xdp.h"
#include "parse.bpf.h"

_Static_assert((CALVIN_TLM_MAX_HOPS & (CALVIN_TLM_MAX_HOPS - 1)) == 0,
	       "the hop index is masked, so the bound must be a power of two");
_Static_assert(CALVIN_TLM_HOP_LEN % 2 == 0 && CALVIN_TLM_HDR_LEN % 2 == 0 &&
		   sizeof(struct udphdr) % 2 == 0,
	       "stamped fields must be whole words of the UDP checksum");

/* The clock domain of this node's bpf_ktime_get_ns(): the host's, or under
 * the libvirt backend the VM's own (set by the loader before load). */
const volatile __u8 calvin_clock = CALVIN_CLOCK_HOST_MONO;

/* Where a probe's headers are, once calvin_probe_find() has checked them. */
struct calvin_probe {
	struct iphdr *ip;
	struct udphdr *udp;
	struct calvin_tlm_hdr *tlm;
};

/* A stamped record and the checksum to keep in step when t_out is set. */
/* check always points at the UDP checksum once a probe was found, and
 * has_check says whether to update it: a pointer that is NULL on some
 * paths lets clang test a copy of udp->check instead of the pointer, and
 * the verifier of Linux 6.1 (Debian 12, the VM guests' kernel) then sees a
 * write through NULL and refuses the program. */
struct calvin_stamp {
	struct calvin_tlm_hop *hop; /* NULL: nothing to finish */
	__sum16 *check;		    /* the UDP checksum; NULL before a probe is found */
	__u8 has_check;		    /* 0: the datagram has no checksum to update */
	__u64 t_in;		    /* the record's, for the residence */
};

/* The telemetry block of the UDP datagram at udp if it is a probe: to or
 * from probe_port (to it only if dst_only), with a block we understand lying
 * wholly inside the frame. NULL if not. */
static __always_inline struct calvin_tlm_hdr *
calvin_probe_find_udp(struct udphdr *udp, void *data_end, __u16 probe_port, bool dst_only)
{
	__be16 port = bpf_htons(probe_port);
	struct calvin_tlm_hdr *tlm;

	if ((void *)(udp + 1) > data_end)
		return NULL;
	if (udp->dest != port && (dst_only || udp->source != port))
		return NULL;
	tlm = (void *)(udp + 1);
	if ((void *)(tlm + 1) > data_end)
		return NULL;
	if (tlm->magic != bpf_htonl(CALVIN_TLM_MAGIC) || tlm->version != CALVIN_TLM_VERSION)
		return NULL;
	if (tlm->max_hops == 0 || tlm->max_hops > CALVIN_TLM_MAX_HOPS ||
	    tlm->nr_hops > tlm->max_hops || (tlm->flags & ~CALVIN_TLM_F_KNOWN))
		return NULL;
	if ((void *)tlm + CALVIN_TLM_LEN(tlm->max_hops) > data_end)
		return NULL;
	return tlm;
}

/* Is the IPv4 packet at l3 a probe (see above), not a fragment? 0 and p
 * filled if so, -1 if not. For the reflector, which sees IPv4 only. */
static __always_inline int calvin_probe_find(void *l3, void *data_end, __u16 probe_port,
					     bool dst_only, struct calvin_probe *p)
{
	struct iphdr *ip = l3;
	struct udphdr *udp;

	if ((void *)(ip + 1) > data_end)
		return -1;
	if (ip->version != 4 || ip->ihl < 5 || ip->protocol != IPPROTO_UDP)
		return -1;
	if (ip->frag_off & bpf_htons(CALVIN_IP_MF | CALVIN_IP_OFFSET))
		return -1;
	udp = l3 + ip->ihl * 4;
	p->tlm = calvin_probe_find_udp(udp, data_end, probe_port, dst_only);
	if (!p->tlm)
		return -1;
	p->ip = ip;
	p->udp = udp;
	return 0;
}

/* One's-complement arithmetic over raw 16-bit words: byte order does not
 * matter as long as every word and the checksum are taken the same way. */
static __always_inline __u32 csum_sub_words(__u32 sum, const void *p, int n)
{
	const __u16 *w = p;
	int i;

#pragma unroll
	for (i = 0; i < n; i++)
		sum += (__u16)~w[i];
	return sum;
}

static __always_inline __u32 csum_add_words(__u32 sum, const void *p, int n)
{
	const __u16 *w = p;
	int i;

#pragma unroll
	for (i = 0; i < n; i++)
		sum += w[i];
	return sum;
}

/* The checksum field's new value from ~old checksum + changes (RFC 1624
 * eqn. 3). A UDP checksum that comes out 0 is sent as 0xffff (0 = none). */
static __always_inline __u16 csum_finish(__u32 sum)
{
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (__u16)~sum;
	return sum ? sum : 0xffff;
}

/* What a hop record says of its VNF, in host order, for calvin_tlm_fill_udp(). */
struct calvin_tlm_who {
	__u16 vnf_id;
	__u8 space; /* CALVIN_SPACE_* */
	__u8 clock;
	__u8 dir;
};

/* Fill the next hop record of the probe whose UDP header is at udp: the
 * common part of a kernel VNF's stamp and of a user VNF's hand-over
 * (handover.bpf.c), which differ in who. The residence is left 0,
 * for calvin_tlm_stamp_out() (kernel) or calvin_tlm_close_hop() (user) to
 * set: 0 marks a record as open. s->hop is NULL if it is
 * no probe, or if the block was full (then the overflow flag is set and
 * counted). New values are built on the stack and summed from there:
 * reading the packet back after writing it would make the compiler
 * recompute pointers the verifier no longer knows to be in bounds. */
static __always_inline void calvin_tlm_fill_udp(struct udphdr *udp, void *data_end,
						__u16 probe_port, const struct calvin_tlm_who *who,
						__u64 t_in, struct calvin_vnf_stats *st,
						struct calvin_stamp *s)
{
	struct calvin_tlm_hop *hop, old, rec = {0};
	struct calvin_tlm_hdr *tlm;
	__u8 counts[2]; /* nr_hops and flags: one checksum word */
	__u32 idx, sum;

	s->hop = NULL;
	s->check = NULL;
	s->has_check = 0;
	s->t_in = 0;
	tlm = calvin_probe_find_udp(udp, data_end, probe_port, false);
	if (!tlm)
		return;
	s->check = &udp->check;
	s->has_check = udp->check != 0;
	sum = ~udp->check & 0xffff;
	counts[0] = tlm->nr_hops;
	counts[1] = tlm->flags;
	sum = csum_sub_words(sum, counts, 1);
	idx = tlm->nr_hops;
	if (idx >= tlm->max_hops) {
		counts[1] |= CALVIN_TLM_F_OVERFLOW;
		tlm->flags = counts[1];
		if (s->has_check)
			*s->check = csum_finish(csum_add_words(sum, counts, 1));
		st->tlm_overflow++;
		return;
	}
	/* A no-op after the check above, but it is what lets the verifier
	 * bound the record's offset. */
	idx &= CALVIN_TLM_MAX_HOPS - 1;
	hop = (struct calvin_tlm_hop *)(tlm + 1) + idx;
	if ((void *)(hop + 1) > data_end)
		return;
	__builtin_memcpy(&old, hop, sizeof(old));
	rec.vnf_id = (__u8)who->vnf_id;
	rec.space = who->space;
	rec.dir = who->dir;
	rec.clock = who->clock;
	rec.residence = 0; /* open: see above */
	rec.t_in = bpf_cpu_to_be64(t_in);
	counts[0] = idx + 1;
	sum = csum_sub_words(sum, &old, CALVIN_TLM_HOP_LEN / 2);
	sum = csum_add_words(csum_add_words(sum, counts, 1), &rec, CALVIN_TLM_HOP_LEN / 2);
	__builtin_memcpy(hop, &rec, sizeof(rec));
	tlm->nr_hops = counts[0];
	if (s->has_check)
		*s->check = csum_finish(sum);
	st->probes++;
	s->hop = hop;
	s->t_in = t_in;
}

/* Stamp the probe whose UDP header is at udp: fill its next hop record,
 * except the residence, for calvin_tlm_stamp_out() to set last. */
static __always_inline void calvin_tlm_stamp_udp(struct udphdr *udp, void *data_end,
						 __u16 probe_port, __u16 vnf_id, __u8 dir,
						 __u64 t_in, struct calvin_vnf_stats *st,
						 struct calvin_stamp *s)
{
	const struct calvin_tlm_who who = {
		.vnf_id = vnf_id, .space = CALVIN_SPACE_KERNEL, .clock = calvin_clock, .dir = dir
	};

	calvin_tlm_fill_udp(udp, data_end, probe_port, &who, t_in, st, s);
}

/* Stamp the parsed frame if it is a probe (see calvin_tlm_stamp_udp()). */
static __always_inline void calvin_tlm_stamp(const struct calvin_pkt *pkt, void *data_end,
					     __u16 probe_port, __u16 vnf_id, __u8 dir, __u64 t_in,
					     struct calvin_vnf_stats *st, struct calvin_stamp *s)
{
	s->hop = NULL;
	s->check = NULL;
	s->has_check = 0;
	s->t_in = 0;
	if (pkt->l4_proto != IPPROTO_UDP || !pkt->l4 || pkt->frag)
		return;
	calvin_tlm_stamp_udp(pkt->l4, data_end, probe_port, vnf_id, dir, t_in, st, s);
}

/* Set the residence of a record from calvin_tlm_stamp(): call it last,
 * just before returning the verdict. A stay beyond 32 bits of ns is
 * written as CALVIN_TLM_RESIDENCE_MAX. */
static __always_inline void calvin_tlm_stamp_out(struct calvin_stamp *s)
{
	struct calvin_tlm_hop *hop = s->hop;
	__be32 res, old;
	__u64 ns;
	__u32 sum;

	if (!hop)
		return;
	old = hop->residence;
	ns = bpf_ktime_get_ns() - s->t_in;
	res = bpf_htonl(ns > CALVIN_TLM_RESIDENCE_MAX ? CALVIN_TLM_RESIDENCE_MAX : (__u32)ns);
	if (s->has_check) {
		sum = csum_sub_words(~*s->check & 0xffff, &old, 2);
		*s->check = csum_finish(csum_add_words(sum, &res, 2));
	}
	hop->residence = res;
}

#endif /* CALVIN_TELEMETRY_BPF_H */
