/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* What every two-port kernel VNF shares: its maps and settings, its start and its forwarding tail.
 *
 * A VNF program reads as:
 *
 *	if (calvin_vnf_begin(ctx, &v, &verdict))	t_in, port, stats, parse
 *		return verdict;
 *	... decide: count and return XDP_DROP, or go on ...
 *	return calvin_vnf_tail(&v, v.port);		stamp, rewrite, redirect
 *
 * Verdicts of the common part, by design:
 * - ingress ifindex not in the port table: XDP_PASS, counted in FWD
 *   drop_redirect (not forwarded). The loader fills the table right after
 *   attaching and after the VNF's own maps, so this is the short window
 *   before that or a port nobody configured; passing leaves such a port to
 *   the next program in libxdp's dispatcher and to the stack, as if we were
 *   not there.
 * - malformed (parse.bpf.h: runt, cut VLAN tag, bad IPv4/IPv6 header):
 *   XDP_DROP, drop_malformed. Nothing downstream could make sense of it.
 * - not IP (ARP, LLDP, a third VLAN tag...): XDP_PASS to the node's own
 *   stack, pass_other. No ARP crosses the chain: endpoints have static
 *   neighbours, and VNF nodes own no addresses.
 * - the tail, if calvin_last has the frame's direction: MAC rewrite, then
 *   XDP_REDIRECT through the egress devmap; an empty slot gives XDP_DROP,
 *   counted in drop_redirect. If not (another kernel VNF runs after this
 *   one on the port, through libxdp's dispatcher with chain call on
 *   XDP_PASS): XDP_PASS untouched but for the hop record, and the last one
 *   forwards. tx_* count frames handed on either way.
 *
 * Each VNF stamps its own hop record on probes, in the tail, so a probe that
 * a VNF drops carries no record of it (it never arrives anyway).
 * A transmit that fails after the program returned (for instance a veth
 * whose peer has no XDP program) is not seen here; the kernel's
 * xdp:xdp_redirect_err tracepoint reports it.
 */
#ifndef CALVIN_VNF_TAIL_BPF_H
#define CALVIN_VNF_TAIL_BPF_H

#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

#include "parse.bpf.h"
#include "telemetry.bpf.h"

/* Set by the loader before load. */
const volatile __u16 vnf_id = 0;
const volatile __u16 probe_port = 7357;
/* Bit CALVIN_DIR_x set: this VNF forwards frames going that way (see
 * above). The loader sets both bits for the node's last kernel VNF, none
 * for the others, as the dispatcher runs them in one order both ways. */
const volatile __u8 calvin_last = 1 << CALVIN_DIR_FWD | 1 << CALVIN_DIR_REV;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, CALVIN_MAX_PORTS);
	__type(key, __u32); /* ingress ifindex */
	__type(value, struct calvin_port);
} calvin_ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, CALVIN_EGRESS_SLOTS);
	__type(key, __u32);   /* CALVIN_SLOT_* */
	__type(value, __u32); /* egress ifindex */
} calvin_egress SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CALVIN_NR_DIRS);
	__type(key, __u32); /* CALVIN_DIR_* */
	__type(value, struct calvin_vnf_stats);
} calvin_stats SEC(".maps");

/* One frame on its way through a VNF. */
struct calvin_vnf {
	__u64 t_in;
	void *data, *data_end;
	struct calvin_port *port; /* of the ingress interface */
	struct calvin_vnf_stats *st;
	__u32 dir;
	struct calvin_pkt pkt;
};

/* Reading the clock costs about 30 ns here, a third of what the forwarder
 * costs under BPF_PROG_TEST_RUN, and only probes need t_in. So the clock is
 * read first thing for every frame, except the one common layout that a
 * few loads can rule out: untagged IPv4 without options, not UDP, or UDP
 * with neither port the probe port. A probe's t_in is thus taken within a
 * handful of instructions of the program's start, as DESIGN.md asks. */
static __always_inline bool calvin_surely_not_probe(void *data, void *data_end)
{
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	struct udphdr *udp = (void *)(ip + 1);

	if ((void *)(udp + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP) ||
	    *(__u8 *)ip != 0x45)
		return false;
	if (ip->protocol != IPPROTO_UDP)
		return true;
	return udp->source != bpf_htons(probe_port) && udp->dest != bpf_htons(probe_port);
}

/* The time the frame arrived, for VNFs that need it for every frame (a
 * rate limiter): read on first use where calvin_vnf_begin() skipped it. */
static __always_inline __u64 calvin_vnf_now(struct calvin_vnf *v)
{
	if (!v->t_in)
		v->t_in = bpf_ktime_get_ns();
	return v->t_in;
}

/* After t_in, data and data_end: find the port and the stats, count,
 * parse. 0: go on with an IP frame in v->pkt; 1: return the XDP verdict
 * *verdict now (see above for which). Shared with the tc forwarder
 * (forward_tc.bpf.c), which says the verdicts in tc's words. */
static __always_inline int calvin_vnf_classify(struct calvin_vnf *v, __u32 ifindex, __u64 len,
					       int *verdict)
{
	v->port = bpf_map_lookup_elem(&calvin_ports, &ifindex);
	v->dir = v->port ? v->port->dir & 1 : CALVIN_DIR_FWD;
	v->st = bpf_map_lookup_elem(&calvin_stats, &v->dir);
	if (!v->st) {
		*verdict = XDP_ABORTED; /* cannot happen: an array has every index */
		return 1;
	}
	v->st->rx_packets++;
	v->st->rx_bytes += len;
	if (!v->port) {
		v->st->drop_redirect++;
		*verdict = XDP_PASS;
		return 1;
	}
	if (calvin_parse(v->data, v->data_end, &v->pkt)) {
		v->st->drop_malformed++;
		*verdict = XDP_DROP;
		return 1;
	}
	if (v->pkt.family == CALVIN_FAMILY_ANY) {
		v->st->pass_other++;
		*verdict = XDP_PASS;
		return 1;
	}
	return 0;
}

/* Take t_in, find the port and the stats, count, parse (see above). */
static __always_inline int calvin_vnf_begin(struct xdp_md *ctx, struct calvin_vnf *v, int *verdict)
{
	v->data = (void *)(long)ctx->data;
	v->data_end = (void *)(long)ctx->data_end;
	v->t_in = calvin_surely_not_probe(v->data, v->data_end) ? 0 : bpf_ktime_get_ns();
	return calvin_vnf_classify(v, ctx->ingress_ifindex, v->data_end - v->data, verdict);
}

/* Hand the frame on: out of out's egress (out is v->port for a VNF that
 * sends everything to the other side), or to the next VNF if not last. */
static __always_inline int calvin_vnf_tail(struct calvin_vnf *v, struct calvin_port *out)
{
	struct ethhdr *eth = v->pkt.eth;
	struct calvin_stamp stamp;
	int action = XDP_PASS;

	calvin_tlm_stamp(&v->pkt, v->data_end, probe_port, vnf_id, v->dir, v->t_in, v->st, &stamp);
	if (calvin_last & (1 << v->dir)) {
		__builtin_memcpy(eth->h_source, out->egress_mac, ETH_ALEN);
		__builtin_memcpy(eth->h_dest, out->peer_mac, ETH_ALEN);
		action = bpf_redirect_map(&calvin_egress, out->egress_slot, XDP_DROP);
		if (action != XDP_REDIRECT) {
			v->st->drop_redirect++;
			return action;
		}
	}
	v->st->tx_packets++;
	v->st->tx_bytes += v->data_end - v->data;
	calvin_tlm_stamp_out(&stamp);
	return action;
}

#endif /* CALVIN_VNF_TAIL_BPF_H */
