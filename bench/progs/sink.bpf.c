// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Benchmark sink: count and drop every frame, except telemetry probes, which go to the stack.
 *
 * Two programs, one per place a frame can be counted at the far end:
 * - sink_skb (tc ingress, the default): where both configurations under
 *   test deliver alike, as a socket buffer. Linux forwarding hands the
 *   sink's veth a socket buffer; an XDP_REDIRECTed frame arrives as an
 *   xdp_frame, which the veth builds a socket buffer around before tc. So
 *   each packet becomes a socket buffer exactly once in either
 *   configuration (Linux's at the forwarder's ingress, XDP's here), and
 *   from the sink's veth on both take the same path.
 * - sink_xdp (XDP): cheapest, but not alike: a redirected frame is run
 *   as it came, while a socket buffer from Linux forwarding is converted
 *   (often copied) into an XDP buffer first, a cost only the Linux column
 *   pays.
 * Probes (UDP to probe_port) are passed so that a socket in the sink's
 * namespace can read their hop records and kernel receive timestamps.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/pkt_cls.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

/* Set by the benchmark before load. */
const volatile __u16 probe_port = 7357;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64); /* frames dropped */
} bench_sink_count SEC(".maps");

static __always_inline int is_probe(void *data, void *data_end)
{
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	struct udphdr *udp;

	if ((void *)(ip + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return 0;
	if (ip->protocol != IPPROTO_UDP || ip->ihl < 5)
		return 0;
	udp = (void *)ip + ip->ihl * 4;
	if ((void *)(udp + 1) > data_end)
		return 0;
	return udp->dest == bpf_htons(probe_port);
}

static __always_inline void count_one(void)
{
	__u32 key = 0;
	__u64 *count;

	count = bpf_map_lookup_elem(&bench_sink_count, &key);
	if (count)
		(*count)++;
}

SEC("xdp")
int sink_xdp(struct xdp_md *ctx)
{
	if (is_probe((void *)(long)ctx->data, (void *)(long)ctx->data_end))
		return XDP_PASS;
	count_one();
	return XDP_DROP;
}

SEC("tc")
int sink_skb(struct __sk_buff *skb)
{
	if (is_probe((void *)(long)skb->data, (void *)(long)skb->data_end))
		return TC_ACT_OK;
	count_one();
	return TC_ACT_SHOT;
}

char _license[] SEC("license") = "Dual BSD/GPL";
