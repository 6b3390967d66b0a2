// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Forwarding VNF: rewrite MACs and redirect each frame out of the other port, stamping probes.
 *
 * Verdicts, by design:
 * - ingress ifindex not in the port table: XDP_PASS, counted in FWD
 *   drop_redirect (not forwarded). The loader fills the table right after
 *   attaching, so this is the short window before that or a port nobody
 *   configured; passing leaves such a port to the next program in libxdp's
 *   dispatcher and to the stack, as if we were not there.
 * - frame shorter than an Ethernet header: XDP_DROP, drop_malformed.
 * - IPv4 with a truncated header, version != 4 or ihl < 5: XDP_DROP,
 *   drop_malformed. Nothing downstream could make sense of it either.
 * - IPv4 (probes stamped) and IPv6 (never stamped, for now): MAC rewrite,
 *   then XDP_REDIRECT through the egress devmap; an empty slot gives
 *   XDP_DROP, counted in drop_redirect.
 * - anything else (ARP, LLDP, and VLAN-tagged frames for now): XDP_PASS to
 *   the node's own stack, pass_other. No ARP crosses the chain: endpoints
 *   have static neighbours, and VNF nodes own no addresses.
 *
 * A transmit that fails after the program returned (for instance a veth
 * whose peer has no XDP program) is not seen here; the kernel's
 * xdp:xdp_redirect_err tracepoint reports it.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>
#include <xdp/xdp_helpers.h>

#include "telemetry.bpf.h"

/* Set by the loader before load. */
const volatile __u16 vnf_id = 0;
const volatile __u16 probe_port = 7357;

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

/* Run early among other XDP programs on the port; go on to them only for
 * what we pass to the stack. */
struct {
	__uint(priority, 10);
	__uint(XDP_PASS, 1);
} XDP_RUN_CONFIG(forward);

static __always_inline bool ipv4_header_ok(struct iphdr *ip, void *data_end)
{
	if ((void *)(ip + 1) > data_end)
		return false;
	if (ip->version != 4 || ip->ihl < 5)
		return false;
	return (void *)ip + ip->ihl * 4 <= data_end;
}

SEC("xdp")
int forward(struct xdp_md *ctx)
{
	__u64 t_in = bpf_ktime_get_ns();
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u32 ifindex = ctx->ingress_ifindex;
	struct calvin_tlm_hop *hop = NULL;
	struct calvin_vnf_stats *st;
	struct calvin_port *port;
	struct ethhdr *eth = data;
	__u32 dir;
	int action;

	port = bpf_map_lookup_elem(&calvin_ports, &ifindex);
	dir = port ? port->dir & 1 : CALVIN_DIR_FWD;
	st = bpf_map_lookup_elem(&calvin_stats, &dir);
	if (!st)
		return XDP_ABORTED; /* cannot happen: an array has every index */
	st->rx_packets++;
	st->rx_bytes += data_end - data;
	if (!port) {
		st->drop_redirect++;
		return XDP_PASS;
	}
	if ((void *)(eth + 1) > data_end) {
		st->drop_malformed++;
		return XDP_DROP;
	}

	switch (eth->h_proto) {
	case bpf_htons(ETH_P_IP):
		if (!ipv4_header_ok((void *)(eth + 1), data_end)) {
			st->drop_malformed++;
			return XDP_DROP;
		}
		hop = calvin_tlm_stamp(eth + 1, data_end, probe_port, vnf_id, dir, t_in, st);
		break;
	case bpf_htons(ETH_P_IPV6):
		break;
	default:
		st->pass_other++;
		return XDP_PASS;
	}

	__builtin_memcpy(eth->h_source, port->egress_mac, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, port->peer_mac, ETH_ALEN);
	action = bpf_redirect_map(&calvin_egress, port->egress_slot, XDP_DROP);
	if (action != XDP_REDIRECT) {
		st->drop_redirect++;
		return action;
	}
	st->tx_packets++;
	st->tx_bytes += data_end - data;
	calvin_tlm_stamp_out(hop);
	return action;
}

char _license[] SEC("license") = "Dual BSD/GPL";
