// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Forwarding VNF at tc ingress (throughput mode): the forwarder of forward.bpf.c on socket buffers.
 *
 * Why tc: an XDP program on a veth turns GSO/TSO off on its peer and caps
 * the MTU near one page (drivers/net/veth.c), so every TCP segment crosses
 * the chain alone. At tc the peer keeps its offloads: a sender's 64 KB
 * GSO packet reaches this program once, and bpf_redirect() hands it to the
 * egress veth, which segments it in software only if it cannot carry it
 * whole. The maps, the settings, the verdicts and the hop record are those
 * of vnf_tail.bpf.h (XDP_PASS is TC_ACT_OK, XDP_DROP is TC_ACT_SHOT; a
 * VNF that is not the node's last returns TC_ACT_UNSPEC, which runs the
 * next filter, the next VNF); only the egress differs: the devmap slot's
 * ifindex, looked up, and bpf_redirect() to its transmit.
 *
 * t_in is taken first thing, as in XDP; on tc that is after the skb was
 * built, so a residence here covers a little less of the receive path
 * than XDP's does, and the link before it a little more.
 */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

#include "vnf_tail.bpf.h"

/* A probe is at most a 1500-byte MTU's frame: pulled linear whole, so the
 * stamp can reach its records however the skb was built. */
#define PROBE_PULL_MAX 1514

/* calvin_vnf_begin() on an skb: t_in, port, stats, parse. */
static __always_inline int tc_begin(struct __sk_buff *skb, struct calvin_vnf *v, int *verdict)
{
	__u32 want;

	v->data = (void *)(long)skb->data;
	v->data_end = (void *)(long)skb->data_end;
	v->t_in = calvin_surely_not_probe(v->data, v->data_end) ? 0 : bpf_ktime_get_ns();
	if (v->t_in && v->data_end - v->data < skb->len) {
		want = skb->len < PROBE_PULL_MAX ? skb->len : PROBE_PULL_MAX;
		bpf_skb_pull_data(skb, want);
		v->data = (void *)(long)skb->data;
		v->data_end = (void *)(long)skb->data_end;
	}
	/* at tc ingress the skb's device is the port it came in on (and
	 * BPF_PROG_TEST_RUN sets this one, not ingress_ifindex) */
	if (!calvin_vnf_classify(v, skb->ifindex, skb->len, verdict))
		return 0;
	*verdict = *verdict == XDP_PASS ? TC_ACT_OK : TC_ACT_SHOT;
	return 1;
}

/* calvin_vnf_tail() on an skb: stamp, rewrite, redirect to the egress. */
static __always_inline int tc_tail(struct __sk_buff *skb, struct calvin_vnf *v)
{
	struct calvin_port *out = v->port;
	struct ethhdr *eth = v->pkt.eth;
	struct calvin_stamp stamp;
	int action = TC_ACT_UNSPEC;
	__u32 slot = out->egress_slot;
	__u32 *egress;

	calvin_tlm_stamp(&v->pkt, v->data_end, probe_port, vnf_id, v->dir, v->t_in, v->st, &stamp);
	if (calvin_last & (1 << v->dir)) {
		egress = bpf_map_lookup_elem(&calvin_egress, &slot);
		if (!egress || !*egress) {
			v->st->drop_redirect++;
			return TC_ACT_SHOT;
		}
		__builtin_memcpy(eth->h_source, out->egress_mac, ETH_ALEN);
		__builtin_memcpy(eth->h_dest, out->peer_mac, ETH_ALEN);
		action = bpf_redirect(*egress, 0);
	}
	v->st->tx_packets++;
	v->st->tx_bytes += skb->len;
	calvin_tlm_stamp_out(&stamp);
	return action;
}

SEC("tc")
int forward_tc(struct __sk_buff *skb)
{
	struct calvin_vnf v;
	int verdict;

	if (tc_begin(skb, &v, &verdict))
		return verdict;
	return tc_tail(skb, &v);
}

char _license[] SEC("license") = "Dual BSD/GPL";
