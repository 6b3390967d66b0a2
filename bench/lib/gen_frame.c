// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The throughput generator's frames and pacing (see bench_lib.h). */
#include <errno.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/udp.h>

#include "bench/lib/bench_lib.h"

/* Batches of about this long, so the chain sees a smooth rate. */
#define BATCH_NS 50000.0

static uint16_t ip_checksum(const void *hdr, size_t len)
{
	const uint8_t *b = hdr;
	uint32_t sum = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(b[i] << 8 | b[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons((uint16_t)~sum);
}

int calvin_gen_frame(uint8_t *buf, size_t len, const struct calvin_gen_flow *flow,
		     unsigned int frame_size)
{
	size_t n = (size_t)frame_size - CALVIN_GEN_FCS;
	struct ethhdr *eth = (struct ethhdr *)buf;
	struct iphdr *ip = (struct iphdr *)(eth + 1);
	struct udphdr *udp = (struct udphdr *)(ip + 1);

	if (frame_size < CALVIN_GEN_MIN_FRAME || frame_size > CALVIN_GEN_MAX_FRAME || len < n)
		return -EINVAL;
	memset(buf, 0, n);
	memcpy(eth->h_dest, flow->dst_mac, ETH_ALEN);
	memcpy(eth->h_source, flow->src_mac, ETH_ALEN);
	eth->h_proto = htons(ETH_P_IP);
	ip->version = 4;
	ip->ihl = 5;
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->tot_len = htons((uint16_t)(n - sizeof(*eth)));
	ip->saddr = flow->src.s_addr;
	ip->daddr = flow->dst.s_addr;
	ip->check = ip_checksum(ip, sizeof(*ip));
	udp->source = htons(flow->sport);
	udp->dest = htons(flow->dport);
	udp->len = htons((uint16_t)(n - sizeof(*eth) - sizeof(*ip)));
	return (int)n;
}

void calvin_gen_pacing(double rate, unsigned int max_batch, unsigned int *batch, double *gap_ns)
{
	double b;

	if (rate <= 0) {
		*batch = max_batch;
		*gap_ns = 0;
		return;
	}
	b = rate * BATCH_NS / 1e9;
	*batch = b < 1 ? 1 : b > max_batch ? max_batch : (unsigned int)b;
	*gap_ns = (double)*batch * 1e9 / rate;
}

double calvin_gen_bps(double pps, unsigned int frame_size)
{
	return pps * frame_size * 8;
}
