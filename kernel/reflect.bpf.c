// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Echo server stand-in for the MEC server: bounce probes back to the probe with XDP_TX.
 *
 * A probe (IPv4 UDP to probe_port, not a fragment, with a telemetry block
 * we understand) goes back out of the port it came in on with MACs, IPv4
 * addresses and UDP ports swapped. Swapping is checksum-neutral (both sums
 * are one's-complement sums over the same words), so the IPv4 and UDP
 * checksums stay valid untouched. The telemetry block is left alone: the
 * server is an endpoint, not a hop.
 *
 * Everything else is XDP_PASS (counted pass_other), so a real server
 * application in the node (sockperf, say) still gets its traffic.
 *
 * Stats: what arrives is counted under CALVIN_DIR_FWD, what is sent back
 * under CALVIN_DIR_REV.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>
#include <xdp/xdp_helpers.h>

#include "telemetry.bpf.h"

/* Set by the loader before load. */
const volatile __u16 probe_port = 7357;

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

static __always_inline void swap_addresses(struct ethhdr *eth, struct calvin_probe *p)
{
	__u8 mac[ETH_ALEN];
	__be32 addr;
	__be16 port;

	__builtin_memcpy(mac, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, mac, ETH_ALEN);
	addr = p->ip->saddr;
	p->ip->saddr = p->ip->daddr;
	p->ip->daddr = addr;
	port = p->udp->source;
	p->udp->source = p->udp->dest;
	p->udp->dest = port;
}

SEC("xdp")
int reflect(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	struct calvin_vnf_stats *rx, *tx;
	__u32 fwd = CALVIN_DIR_FWD, rev = CALVIN_DIR_REV;
	struct ethhdr *eth = data;
	struct calvin_probe p;

	rx = bpf_map_lookup_elem(&calvin_stats, &fwd);
	tx = bpf_map_lookup_elem(&calvin_stats, &rev);
	if (!rx || !tx)
		return XDP_ABORTED; /* cannot happen: an array has every index */
	rx->rx_packets++;
	rx->rx_bytes += data_end - data;

	if ((void *)(eth + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP) ||
	    calvin_probe_find(eth + 1, data_end, probe_port, true, &p)) {
		rx->pass_other++;
		return XDP_PASS;
	}
	swap_addresses(eth, &p);
	rx->probes++;
	tx->tx_packets++;
	tx->tx_bytes += data_end - data;
	return XDP_TX;
}

char _license[] SEC("license") = "Dual BSD/GPL";
