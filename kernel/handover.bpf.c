// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Hand-over of a user VNF's port: open the probe's hop record where the node first sees the frame.
 *
 * A kernel VNF's residence starts at the first instruction of its XDP
 * program; a user VNF's would start only when rx_burst returns, after the
 * frame crossed the AF_XDP ring or the stack and the AF_PACKET ring, and
 * after any wake-up of the VNF. So calvin-vnf puts this program on each of
 * its ports: at its first instruction it reads t_in and, for a probe (the
 * frames calvin-vnf stamps: untagged IPv4 UDP to or from the probe port,
 * not a fragment, with a block we understand), fills the next hop record
 * as calvin-vnf's: VNF id, user space, clock domain, direction, t_in, and
 * t_out 0, which marks it open. calvin-vnf sets t_out just before
 * tx_burst (calvin_tlm_close_hop()); a record it finds no open record for
 * (a probe the nc-decode VNF rebuilt) it fills itself from rx_burst on.
 * The UDP checksum is kept valid, as a kernel VNF's stamp keeps it.
 *
 * Then every frame goes to the AF_XDP socket of its receive queue, if
 * there is one (af_xdp: the PMD puts its socket in xsks_map), else to the
 * stack (XDP_PASS: af_packet, whose socket the stack feeds). Like the pass
 * program it replaces there, it also makes the veth accept what a
 * neighbour XDP_REDIRECTs to it.
 *
 * Settings come from handover_cfg (see handover.h): until calvin-vnf has
 * written it, nothing is stamped and frames are handed over all the same.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

#include "handover.h"
#include "telemetry.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, CALVIN_HANDOVER_MAX_QUEUES);
	__type(key, __u32);   /* receive queue */
	__type(value, __u32); /* AF_XDP socket */
} xsks_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct calvin_handover_cfg);
} handover_cfg SEC(".maps");

/* rx_*: frames handed over; probes: records opened; tlm_overflow: probes
 * with no free record. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct calvin_vnf_stats);
} handover_stats SEC(".maps");

/* The UDP header of an untagged IPv4 UDP frame that is not a fragment,
 * as calvin-vnf's parser (userspace/vnf/pkt.c) takes probes; NULL if not. */
static __always_inline struct udphdr *ipv4_udp(void *data, void *data_end)
{
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);

	if ((void *)(ip + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return NULL;
	if (ip->version != 4 || ip->ihl < 5 || ip->protocol != IPPROTO_UDP)
		return NULL;
	if (ip->frag_off & bpf_htons(CALVIN_IP_MF | CALVIN_IP_OFFSET))
		return NULL;
	return (void *)ip + ip->ihl * 4;
}

SEC("xdp")
int handover(struct xdp_md *ctx)
{
	__u64 t_in = bpf_ktime_get_ns();
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct calvin_handover_cfg *cfg;
	struct calvin_tlm_who who;
	struct calvin_vnf_stats *st;
	struct calvin_stamp s;
	struct udphdr *udp;
	__u32 key = 0;

	cfg = bpf_map_lookup_elem(&handover_cfg, &key);
	st = bpf_map_lookup_elem(&handover_stats, &key);
	if (cfg && st && cfg->probe_port) {
		st->rx_packets++;
		st->rx_bytes += data_end - data;
		udp = ipv4_udp(data, data_end);
		if (udp) {
			who.vnf_id = cfg->vnf_id;
			who.space = CALVIN_SPACE_USER;
			who.clock = cfg->clock;
			who.dir = cfg->dir;
			calvin_tlm_fill_udp(udp, data_end, cfg->probe_port, &who, t_in, st, &s);
		}
	}
	return bpf_redirect_map(&xsks_map, ctx->rx_queue_index, XDP_PASS);
}

char _license[] SEC("license") = "Dual BSD/GPL";
