// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Benchmark sink: count and drop every frame, except telemetry probes, which go to the stack.
 *
 * Dropping in XDP is the cheapest way to receive at the far end, so the
 * sink costs both configurations under test (XDP forwarding and Linux
 * forwarding) the same small amount, on the same CPU. Probes (UDP to
 * probe_port) are passed so that a socket in the sink's namespace can read
 * their hop records and kernel receive timestamps.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
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

SEC("xdp")
int sink(struct xdp_md *ctx)
{
	void *data_end = (void *)(long)ctx->data_end;
	void *data = (void *)(long)ctx->data;
	__u32 key = 0;
	__u64 *count;

	if (is_probe(data, data_end))
		return XDP_PASS;
	count = bpf_map_lookup_elem(&bench_sink_count, &key);
	if (count)
		(*count)++;
	return XDP_DROP;
}

char _license[] SEC("license") = "Dual BSD/GPL";
